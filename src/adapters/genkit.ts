import type { AnyMessage } from "../ground/types.js";
import { adapterCompactor, type AdapterOptions } from "./adapter-compactor.js";
import { boundedMap } from "../ground/bounded-map.js";

/** Conversations whose last model response a middleware keeps, for its next call. */
const MAX_KEPT_RESPONSES = 1000;

/** The part of Genkit's `GenerateRequest` this adapter reads and replaces. */
export interface GenkitModelRequest<M extends AnyMessage = AnyMessage> {
  messages: M[];
}

/** A Genkit model middleware, as `generate({ use: [...] })` and `defineModel({ use: [...] })` take it. */
export type CompactingModelMiddleware = <Request extends GenkitModelRequest, Response>(
  request: Request,
  next: (request?: Request) => Promise<Response>,
) => Promise<Response>;

/** Options of `toModelMiddleware`: those of `statefulCompactor`; `conversationId` may read the request. */
export type ModelMiddlewareCompactionOptions<M extends AnyMessage = AnyMessage> = AdapterOptions<
  M,
  GenkitModelRequest<M>
>;

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
 * The model's response to each call passes through the middleware: its `raw` ("the raw response
 * from the model", Genkit's `ModelResponseData`, which the plugins fill with the provider's own
 * response) is read as `statefulCompactor`'s `response` on the conversation's next call, so its
 * verdicts reach `events.onProviderVerdict` and a stop at the context window makes that call
 * compact. Responses are kept per `conversationId` only: a middleware serving calls that name no
 * conversation keeps none, so no call's verdict can reach another conversation's call.
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
export function toModelMiddleware<M extends AnyMessage = AnyMessage>(
  options: ModelMiddlewareCompactionOptions<M>,
): CompactingModelMiddleware {
  const { compact, idOf } = adapterCompactor<M, GenkitModelRequest<M>>(options, { summary: { role: "user" } });
  const responses = boundedMap<object>(MAX_KEPT_RESPONSES);
  return (async (request: GenkitModelRequest<M>, next: (request?: GenkitModelRequest<M>) => Promise<unknown>) => {
    const id = idOf(request);
    const slot = id.conversationId ?? (typeof options.conversationId === "string" ? options.conversationId : undefined);
    const last = slot === undefined ? undefined : responses.get(slot);
    // Read once: a later call of the conversation answers a newer response, or none.
    if (slot !== undefined) responses.delete(slot);
    const compacted = await compact(request.messages, { ...id, ...(last === undefined ? {} : { response: last }) });
    const response = await next(compacted === null ? request : { ...request, messages: compacted.messages });
    const raw = (response as { raw?: unknown } | null | undefined)?.raw;
    if (slot !== undefined && typeof raw === "object" && raw !== null) responses.set(slot, raw);
    return response;
  }) as CompactingModelMiddleware;
}
