import type { ReportedUsage } from "../ground/types.js";
import type { CheckedUsage } from "../validation/usage.js";
import type { ConversationState } from "../stores/conversation-state.js";
import { digestMessages } from "../stores/digest.js";

// A call that reports no usage (the first model call of a request) is counted from the usage the
// state kept of the last request sent with it; what the provider reports is in terms of the
// caller's own messages, and the engine counts the input with the state applied.

/** The usage a state kept, when the input still holds the messages it was reported for. */
export async function usageFromState(
  messages: readonly object[],
  state: ConversationState | undefined,
): Promise<ReportedUsage | undefined> {
  const kept = state?.usage;
  if (state === undefined || kept === undefined || kept.messageCount > messages.length) return undefined;
  const digest = await digestMessages(messages.slice(state.covered, kept.messageCount));
  return digest === kept.digest ? { inputTokens: kept.inputTokens, messageCount: kept.messageCount } : undefined;
}

/**
 * The state with a reported usage kept beside it, when it is new and the request it describes was
 * sent with this state; undefined when there is nothing to write.
 */
export async function stateWithUsage(
  messages: readonly object[],
  state: ConversationState,
  reported: ReportedUsage | CheckedUsage,
): Promise<ConversationState | undefined> {
  // A report that cannot be counted by is said when it is given, and not kept for later calls.
  if ("unusable" in reported && reported.unusable !== undefined) return undefined;
  if (reported.messageCount < state.covered || reported.messageCount > messages.length) return undefined;
  if (state.usage?.messageCount === reported.messageCount && state.usage.inputTokens === reported.inputTokens)
    return undefined;
  const digest = await digestMessages(messages.slice(state.covered, reported.messageCount));
  return { ...state, usage: { inputTokens: reported.inputTokens, messageCount: reported.messageCount, digest } };
}

/**
 * The reported usage in terms of what the engine counts. The last request was sent with the state
 * now applied (a compaction stores its state as it returns the request), so it held the summary
 * and the input messages below `messageCount`. Usage from before the state, or beside state that
 * no longer applies, describes another request and is left out.
 */
export function usageOfBase<U extends ReportedUsage>(
  usage: U | undefined,
  state: ConversationState | undefined,
  origin: number[] | undefined,
): U | undefined {
  if (usage === undefined) return undefined;
  if (origin === undefined) return state === undefined ? usage : undefined;
  if (state === undefined || usage.messageCount < state.covered) return undefined;
  let held = 0;
  for (const index of origin) if (index < usage.messageCount) held++;
  // What the report was read from, and why it cannot be counted by, stay with it.
  return { ...usage, messageCount: held };
}
