import { piReportedUsage, withPiSystemMessages } from "../dialects/pi-agent.js";
import type { AnyMessage } from "../ground/types.js";
import { adapterCompactor, type AdapterOptions } from "./adapter-compactor.js";
import { extractiveSummary } from "../summary-kit/extractive-summary.js";

/** pi's `transformContext`: the messages to send for this call; the agent's own history is not changed. */
export type CompactingTransformContext<M extends AnyMessage = AnyMessage> = (
  messages: M[],
  signal?: AbortSignal,
) => Promise<M[]>;

/** Options of `toTransformContext`: those of `statefulCompactor`; `conversationId` may read the messages. */
export type TransformContextCompactionOptions<M extends AnyMessage = AnyMessage> = AdapterOptions<
  M,
  { messages: readonly M[] }
>;

/**
 * Makes a pi (`@earendil-works/pi-agent-core`, or `@mariozechner/pi-agent-core` up to 0.73)
 * `transformContext` that compacts the context of each model call. pi keeps the whole history in
 * the agent and passes it to `transformContext` before every call, so the compaction lives in a
 * store (`statefulCompactor`): the summary is made once per crossing of the budget and reused on
 * the calls after it, and a fresh agent per request with a shared `store` and `conversationId`
 * continues from the last compaction.
 *
 * The summary is a user message, which pi's default `convertToLlm` sends as it is. From pi 0.86
 * the system prompt and the tools are the transcript's system messages: the leading ones are kept
 * and counted, and a later one (a prompt section, a tool added or removed) that falls in the
 * summarized part is put back after them, so the prompt and tools pi replays are unchanged. The
 * count is anchored on the `usage` of the last assistant message, so whatever travels beside the
 * messages and the provider's own tokenizer count too. pi asks that `transformContext` never
 * reject: `onError` defaults to `"fallback"` and `fallback` to `extractiveSummary`, which stands in
 * when `summarize` fails or times out.
 *
 * @param options - `statefulCompactor` options (`store`, `conversationId`, …)
 * @returns `(messages, signal?) => Promise<messages>`
 * @example
 * ```ts
 * import { Agent } from "@earendil-works/pi-agent-core";
 * import { toTransformContext } from "context-compactor/pi";
 *
 * const agent = new Agent({
 *   initialState: { systemPrompt, model, tools },
 *   streamFn: models.streamSimple.bind(models),
 *   transformContext: toTransformContext({ maxTokens: 100_000, summarize }),
 * });
 * ```
 */
export function toTransformContext<M extends AnyMessage = AnyMessage>(
  options: TransformContextCompactionOptions<M>,
): CompactingTransformContext<M> {
  const { compact, idOf } = adapterCompactor<M, { messages: readonly M[] }>(options, {
    summary: { role: "user" },
    onError: "fallback",
    fallback: extractiveSummary,
  });
  return async (messages, signal) => {
    const usage = piReportedUsage(messages);
    const compacted = await compact(messages, {
      ...idOf({ messages }),
      ...(signal ? { signal } : {}),
      ...(usage ? { usage } : {}),
    });
    return compacted ? withPiSystemMessages(messages, compacted.messages) : messages;
  };
}
