import { expectedMessage } from "../ground/describe-value.js";
import { optionsObject } from "../ground/checks.js";
import type { Settings } from "../ground/options.js";
import type { AnyMessage, CompactionRequestAnswer } from "../ground/types.js";
import { planWithSettings } from "../plan/plan.js";
import { boundedNote } from "../plan/requested-compaction.js";
import { assertTranscript } from "../dialects/validate-messages.js";
import { HOOK_SETTINGS } from "./hook-settings.js";

/** Options of `answerCompactContext`. */
export interface CompactionRequestOptions {
  /**
   * The conversation as the model saw it when it asked: the answer then says whether the next
   * call compacts, and about how much it frees. Without it, the answer says what the next call
   * will weigh.
   * @default undefined
   */
  messages?: readonly object[];
}

const CONTINUE = "Continue with the task.";

/**
 * What a `compact_context` call answers. The request itself is the call in the transcript, which
 * the next model call reads: nothing is kept here. With the messages, the answer is the plan the
 * next call will make of them.
 */
export function answerRequest<M extends AnyMessage>(
  settings: Settings<M>,
  keep: unknown,
  options: unknown,
): CompactionRequestAnswer {
  if (typeof keep !== "string")
    throw new TypeError(expectedMessage("keep", "a string (the model's note of what the summary must keep)", keep));
  optionsObject(options, "request options", ["messages"]);
  const { messages } = options as CompactionRequestOptions;
  const tool = settings.compactTool;
  if (tool === undefined)
    return {
      scheduled: false,
      message: `Not compacted: this agent's compactions are not taken on request. ${CONTINUE}`,
    };
  if (messages === undefined) {
    return {
      scheduled: true,
      message: `Compaction requested: before your next step, the finished work is summarized, keeping what you noted, when that frees at least ${tool.minTokens} tokens; otherwise nothing changes. ${CONTINUE}`,
    };
  }
  assertTranscript(messages);
  const request = { index: messages.length - 1, note: boundedNote(keep) };
  const plan = planWithSettings(messages as readonly M[], settings, { request });
  if (
    plan.requested === undefined &&
    (plan.action === "summarize" || plan.action === "truncate" || plan.action === "mask")
  ) {
    return {
      scheduled: true,
      message: `Compaction scheduled: the context is over its budget, so the earlier part is summarized before your next step. ${CONTINUE}`,
    };
  }
  if (plan.requested !== undefined) {
    const freed = Math.max(0, Math.floor((plan.olderTokens ?? 0) - plan.summaryLimit));
    return {
      scheduled: true,
      message: `Compaction scheduled: before your next step, the finished work is summarized (at least ${freed} tokens freed), keeping what you noted. ${CONTINUE}`,
    };
  }
  return {
    scheduled: false,
    message: `Not compacted: the finished work since the last compaction is too small to free the ${tool.minTokens} tokens from which compacting is worth it. ${CONTINUE}`,
  };
}

/** The settings of a call that carries out a request: the model's note added to the instructions. */
export function withRequest<M extends AnyMessage>(settings: Settings<M>, note: string | undefined): Settings<M> {
  if (note === undefined) return settings;
  const instructions = [
    settings.instructions,
    note.trim() === "" ? undefined : `The agent asked for this compaction. Keep: ${note}`,
  ]
    .filter((text) => text !== undefined)
    .join("\n\n");
  return { ...settings, instructions: instructions === "" ? undefined : instructions };
}

/**
 * What a `compact_context` tool call returns, for a hook made by `compactor`, a `statefulCompactor`
 * or an adapter: `{ scheduled, message }`, `message` the tool result the model reads. The request
 * itself is the tool call in the transcript, which the next call of the hook reads; nothing is
 * kept. Given the conversation as the model saw it (`messages`), the answer is the plan that call
 * will make of it; without, it says what that call will weigh.
 *
 * @param compact - the hook (or `statefulCompactor`, or adapter) that makes the conversation's next call
 * @param keep - the model's note of what the summary must keep (the call's `keep`)
 * @param options - `messages`: the conversation as the model saw it
 * @returns the answer
 * @example
 * ```ts
 * const hook = compactor({ maxTokens: 100_000, summarize: (older) => `${older.length} earlier messages` });
 * const { message } = answerCompactContext(hook, "the failing test and the fix plan", { messages: [] });
 * ```
 */
export function answerCompactContext(
  compact: unknown,
  keep: string,
  options: CompactionRequestOptions = {},
): CompactionRequestAnswer {
  return answerRequest(settingsOf(compact), keep, options);
}

/** The checked options a hook, `statefulCompactor` or adapter of this library carries; a `TypeError` for anything else. */
export function settingsOf(compact: unknown): Settings<AnyMessage> {
  const settings =
    typeof compact === "function" || (typeof compact === "object" && compact !== null)
      ? (compact as Record<symbol, unknown>)[HOOK_SETTINGS]
      : undefined;
  if (settings === undefined)
    throw new TypeError(expectedMessage("compact", "a hook, statefulCompactor or adapter of this library", compact));
  return settings as Settings<AnyMessage>;
}
