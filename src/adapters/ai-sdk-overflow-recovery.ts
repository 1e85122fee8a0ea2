import type { AnyMessage } from "../ground/types.js";
import { isContextOverflowError } from "../recovery/is-context-overflow-error.js";
import { checkedRecovery, compactForRetry, type OverflowRecoveryOptions } from "../recovery/compact-for-retry.js";
import { asPromptMessage } from "../dialects/ai-sdk-prompt.js";
import { withDefaults } from "../ground/option-defaults.js";

/** The part of a provider call's parameters this middleware reads: the provider-level prompt. */
interface CallParams {
  prompt: AnyMessage[];
  abortSignal?: AbortSignal;
}

/**
 * A language-model middleware (`LanguageModelV3Middleware`) for `wrapLanguageModel`. The call's
 * parameters (`P`, the SDK's `LanguageModelV3CallOptions`) go back to the model as they came, with
 * the prompt compacted.
 */
export interface OverflowRecoveryMiddleware {
  readonly specificationVersion: "v3";
  wrapGenerate: <R, P extends CallParams>(options: {
    doGenerate: () => PromiseLike<R>;
    params: P;
    model: { doGenerate: (params: P) => PromiseLike<R> };
  }) => Promise<R>;
  wrapStream: <R, P extends CallParams>(options: {
    doStream: () => PromiseLike<R>;
    params: P;
    model: { doStream: (params: P) => PromiseLike<R> };
  }) => Promise<R>;
}

/**
 * An AI SDK language-model middleware that survives the provider's context-overflow error: when a
 * call is rejected because the request does not fit (`isContextOverflowError`), it compacts the
 * prompt (forced, to `retryShare` of its estimate; the summary as a user message) and retries
 * once. Any other error, or a second overflow, reaches the caller as it was. For `generateText`
 * and `streamText` alike (a stream that fails before its first part).
 *
 * @param options - `compactor` options without the budget (`summarize` required), and `retryShare` (default 0.6)
 * @returns the middleware, for `wrapLanguageModel({ model, middleware })`
 * @example
 * ```ts
 * import { wrapLanguageModel } from "ai";
 * import { overflowRecovery } from "context-compactor/ai-sdk";
 * const model = wrapLanguageModel({ model: openai("gpt-4.1"), middleware: overflowRecovery({ summarize }) });
 * ```
 */
export function overflowRecovery<M extends AnyMessage = AnyMessage>(
  options: OverflowRecoveryOptions<M>,
): OverflowRecoveryMiddleware {
  const { share, rest } = checkedRecovery(options);
  const retried = async <P extends CallParams>(params: P): Promise<P> => {
    const prompt = await compactForRetry(
      params.prompt as M[],
      share,
      withDefaults({ summary: { role: "user" } }, rest),
      params.abortSignal ? { signal: params.abortSignal } : {},
    );
    return { ...params, prompt: prompt.map(asPromptMessage) };
  };
  return {
    specificationVersion: "v3",
    async wrapGenerate({ doGenerate, params, model }) {
      try {
        return await doGenerate();
      } catch (error) {
        if (!isContextOverflowError(error)) throw error;
        return model.doGenerate(await retried(params));
      }
    },
    async wrapStream({ doStream, params, model }) {
      try {
        return await doStream();
      } catch (error) {
        if (!isContextOverflowError(error)) throw error;
        return model.doStream(await retried(params));
      }
    },
  };
}
