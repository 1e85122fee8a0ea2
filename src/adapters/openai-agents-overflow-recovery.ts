import type { AnyMessage } from "../ground/types.js";
import { isContextOverflowError } from "../recovery/is-context-overflow-error.js";
import { checkedRecovery, compactForRetry, type OverflowRecoveryOptions } from "../recovery/compact-for-retry.js";

/** The part of an `@openai/agents` `Model` this wrapper uses. */
export interface AgentsModel<Request extends { input: unknown }, Response, Event> {
  getResponse(request: Request): Promise<Response>;
  getStreamedResponse(request: Request): AsyncIterable<Event>;
}

/**
 * Wraps an `@openai/agents` `Model` (an `OpenAIResponsesModel`, say) so that a request rejected
 * for not fitting the context window (`isContextOverflowError`) is compacted (forced, to
 * `retryShare` of its estimate) and retried once. The run goes on; any other error, or a second
 * overflow, reaches the caller as it was. A stream is retried only when it fails before its
 * first event.
 *
 * @param model - the model to wrap
 * @param options - `compactor` options without the budget (`summarize` required), and `retryShare` (default 0.6)
 * @returns a `Model` for `new Agent({ model })`
 * @example
 * ```ts
 * import { Agent, OpenAIResponsesModel } from "@openai/agents";
 * import { withOverflowRecovery } from "context-compactor/openai-agents";
 * const agent = new Agent({ name, instructions, model: withOverflowRecovery(new OpenAIResponsesModel(new OpenAI(), "gpt-4.1"), { summarize }) });
 * ```
 */
export function withOverflowRecovery<
  Request extends { input: unknown; signal?: AbortSignal },
  Response,
  Event,
  M extends AnyMessage = AnyMessage,
>(
  model: AgentsModel<Request, Response, Event>,
  options: OverflowRecoveryOptions<M>,
): AgentsModel<Request, Response, Event> {
  const { share, rest } = checkedRecovery(options);
  const retried = async (request: Request): Promise<Request> => {
    if (!Array.isArray(request.input)) return request;
    const input = await compactForRetry(
      request.input as M[],
      share,
      rest,
      request.signal ? { signal: request.signal } : {},
    );
    return { ...request, input };
  };
  return {
    async getResponse(request) {
      try {
        return await model.getResponse(request);
      } catch (error) {
        if (!isContextOverflowError(error) || !Array.isArray(request.input)) throw error;
        return model.getResponse(await retried(request));
      }
    },
    async *getStreamedResponse(request) {
      let started = false;
      try {
        for await (const event of model.getStreamedResponse(request)) {
          started = true;
          yield event;
        }
      } catch (error) {
        if (started || !isContextOverflowError(error) || !Array.isArray(request.input)) throw error;
        yield* model.getStreamedResponse(await retried(request));
      }
    },
  };
}
