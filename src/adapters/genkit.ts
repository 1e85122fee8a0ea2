import type { AnyMessage } from "../ground/types.js";
import { adapterCompactor, type AdapterOptions } from "./adapter-compactor.js";

/** The part of Genkit's `GenerateRequest` this adapter reads and replaces. */
export interface GenkitModelRequest<M extends AnyMessage = AnyMessage> {
  messages: M[];
}

/** A Genkit model middleware, as `generate({ use: [...] })` and `defineModel({ use: [...] })` take it. */
export type CompactingModelMiddleware = <Request extends GenkitModelRequest, Response>(request: Request, next: (request?: Request) => Promise<Response>) => Promise<Response>;

/** Options of `toModelMiddleware`: those of `statefulCompactor`; `conversationId` may read the request. */
export type ModelMiddlewareOptions<M extends AnyMessage = AnyMessage> = AdapterOptions<M, GenkitModelRequest<M>>;

/**
 * Makes a Genkit model middleware that compacts the messages of every model call, for
 * `ai.generate({ use: [...] })` (or a model's own `use`). Genkit runs the tool loop of one
 * `generate` itself and hands the middleware the whole conversation on every step, and a chat
 * route hands it the whole history on every request, so the compaction lives in a store
 * (`statefulCompactor`): the summary is made when the budget is crossed and reused after it, and
 * a fresh middleware per request with a shared `store` and `conversationId` continues from the
 * last compaction. The response, and so `response.messages`, is the model's own: Genkit's history
 * is never rewritten. `summary.role` defaults to `"user"`: a second system message is refused by
 * some of Genkit's model plugins.
 *
 * @param options - `statefulCompactor` options (`store`, `conversationId` as a string or a function of the request)
 * @returns `(request, next) => Promise<response>`
 * @example
 * ```ts
 * import { toModelMiddleware } from "context-compactor/genkit";
 *
 * const response = await ai.generate({ model, system, messages, prompt, tools, use: [toModelMiddleware({ maxTokens: 100_000, summarize })] });
 * ```
 */
export function toModelMiddleware<M extends AnyMessage = AnyMessage>(options: ModelMiddlewareOptions<M>): CompactingModelMiddleware {
  const { compact, idOf } = adapterCompactor<M, GenkitModelRequest<M>>(options, { summary: { role: "user" } });
  return (async (request: GenkitModelRequest<M>, next: (request?: GenkitModelRequest<M>) => Promise<unknown>) => {
    const compacted = await compact(request.messages, idOf(request));
    return next(compacted === null ? request : { ...request, messages: compacted.messages });
  }) as CompactingModelMiddleware;
}
