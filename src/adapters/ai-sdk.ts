import { HOOK_SETTINGS } from "../hook/hook-settings.js";
import type { AnyMessage, UsageReport } from "../ground/types.js";
import { adapterCompactor, type AdapterOptions } from "./adapter-compactor.js";
import type { Recalling } from "./recall-answer.js";
import type { Requesting } from "./compact-answer.js";

/** What the AI SDK passes to `prepareStep` (the part this adapter reads). */
export interface PrepareStepOptions<M extends AnyMessage> {
  messages: M[];
  stepNumber?: number;
  /** The steps run so far: each one's `usage` (a `LanguageModelUsage`) and `response.messages` (cumulative in 6.x, the step's own in 7). */
  steps?: readonly {
    usage?: { inputTokens?: number | undefined; inputTokenDetails?: object | undefined };
    response?: { messages?: readonly unknown[]; body?: unknown };
  }[];
  /** The call's own messages: passed by AI SDK 7, never by 6.x. */
  initialMessages?: readonly unknown[];
}

/**
 * The last step's reported input tokens, and how many of this step's messages its request held:
 * every message before the ones the last step added. How many it added differs by version.
 *
 * - AI SDK 6.x (`generateText` and `streamText` in ai@6): `messages` is the call's messages and
 *   every step's response, `prepareStep`'s returned messages are used for that step only, and a
 *   step's `response.messages` is cumulative, so the last step added the difference of the last two.
 * - AI SDK 7 (ai@7.0, `generateTextInternal`): `messages` is what the last step sent (the messages
 *   `prepareStep` returned for it, when it did) and then that step's own `response.messages`
 *   (`messagesForNextStep = [...stepMessages, ...stepResponseMessages]`); it alone passes
 *   `initialMessages`, and the last step added exactly its own `response.messages`.
 */
function usageOfLastStep<M extends AnyMessage>({
  steps,
  messages,
  initialMessages,
}: PrepareStepOptions<M>): UsageReport | undefined {
  const last = steps?.[steps.length - 1];
  const usage = last?.usage;
  const through = last?.response?.messages?.length;
  if (typeof usage !== "object" || usage === null || through === undefined) return undefined;
  const before = Array.isArray(initialMessages) ? 0 : (steps?.[steps.length - 2]?.response?.messages?.length ?? 0);
  const messageCount = messages.length - (through - before);
  if (messageCount < 0 || messageCount > messages.length) return undefined;
  // Passed as the SDK's own `LanguageModelUsage` (its `inputTokens` is the total, cache reads and
  // writes included; without it, `inputTokenDetails` summed): a step whose provider reported no
  // input is said through `events.onUsage` and counted by the estimate, never a thrown error.
  return { ...usage, inputTokenDetails: usage.inputTokenDetails ?? {}, messageCount };
}

/**
 * The provider's own response to the last step, as the AI SDK keeps it: `steps[i].response.body`,
 * "Response body (available only for providers that use HTTP requests)" (ai `StepResult`), the
 * provider package's raw JSON (`rawValue` in @ai-sdk/anthropic and @ai-sdk/openai): an Anthropic
 * `Message`, an OpenAI `Response`. A streamed step keeps none.
 */
function responseOfLastStep<M extends AnyMessage>({ steps }: PrepareStepOptions<M>): { response?: unknown } {
  const body = steps?.[steps.length - 1]?.response?.body;
  return typeof body === "object" && body !== null ? { response: body } : {};
}

export type CompactingPrepareStep = <M extends AnyMessage>(
  options: PrepareStepOptions<M>,
) => Promise<{ messages?: M[] }>;

/** Options of `toPrepareStep`: those of `statefulCompactor`; `conversationId` may read `prepareStep`'s arguments. */
export type PrepareStepCompactionOptions<M extends AnyMessage = AnyMessage> = AdapterOptions<M, PrepareStepOptions<M>>;

/**
 * Makes a Vercel AI SDK `prepareStep` that compacts the step's messages, for `generateText`,
 * `streamText` and agents. `summary.role` defaults to `"user"`: the system prompt travels as
 * `system`/`instructions`, and AI SDK 7 refuses system messages inside `messages` unless
 * `allowSystemInMessages` is set.
 *
 * The AI SDK rebuilds each step's messages from the full history, and a chat route gets the full
 * history on every request, so the compaction lives in a store (`statefulCompactor`): a fresh
 * `toPrepareStep` per request with a shared `store` continues from the last compaction, and
 * `summarize` runs when the budget is crossed again, not on every step or request.
 *
 * With `archive: true`, the result also has `recall` (see `statefulCompactor`), for `recallTool`.
 *
 * From the second step on, the count is anchored on what the provider reported for the last step
 * (`steps[i].usage`: its `inputTokens`, the total with cache reads and writes), so what travels
 * beside the messages (the system prompt, the tool definitions) is counted as a fixed part of each request.
 * The last step's provider response (`steps[i].response.body`, kept by `generateText`) is read as
 * `statefulCompactor`'s `response`: its verdicts reach `events.onProviderVerdict`, and a stop at
 * the context window makes this step compact.
 *
 * @param options - `statefulCompactor` options (`store`, `conversationId` as a string or a function of `prepareStep`'s arguments)
 * @returns `({ messages }) => Promise<{ messages } | {}>`, with `recall(query, { conversationId })`, and the checked options `compactTool` and `answerCompactContext` answer from
 * @example
 * ```ts
 * import { generateText } from "ai";
 * import { toPrepareStep } from "context-compactor/ai-sdk";
 * await generateText({ model, system, messages, tools, prepareStep: toPrepareStep({ maxTokens: 100_000, summarize, store, conversationId: chatId }) });
 * ```
 */
export function toPrepareStep<M extends AnyMessage = AnyMessage>(
  options: PrepareStepCompactionOptions<M>,
): CompactingPrepareStep & Recalling & Requesting {
  const { compact, idOf } = adapterCompactor<M, PrepareStepOptions<M>>(options, { summary: { role: "user" } });
  const prepareStep = (async (args: PrepareStepOptions<M>) => {
    const usage = usageOfLastStep(args);
    const compacted = await compact(args.messages, {
      ...idOf(args),
      ...(usage ? { usage } : {}),
      ...responseOfLastStep(args),
    });
    return compacted === null ? {} : { messages: compacted.messages };
  }) as CompactingPrepareStep;
  return Object.assign(prepareStep, {
    recall: compact.recall,
    recallToolName: compact.recallToolName,
    [HOOK_SETTINGS]: (compact as unknown as Record<symbol, unknown>)[HOOK_SETTINGS],
  });
}

export { recallTool } from "./ai-sdk-recall-tool.js";
export { compactTool } from "./ai-sdk-compact-tool.js";
export type { CompactContextTool, CompactInput } from "./ai-sdk-compact-tool.js";
export type { ToolInputSchema } from "./ai-sdk-tool-schema.js";
export type { Requesting } from "./compact-answer.js";
export type { RecallContextTool, RecallInput, RecallInputSchema, RecallToolCallOptions } from "./ai-sdk-recall-tool.js";
export type { Recalling, RecallToolOptions } from "./recall-answer.js";
export { overflowRecovery } from "./ai-sdk-overflow-recovery.js";
export type { OverflowRecoveryMiddleware } from "./ai-sdk-overflow-recovery.js";
export type { OverflowRecoveryOptions } from "../recovery/compact-for-retry.js";
