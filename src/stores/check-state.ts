import { carriesToolCall, carriesToolResult, leadingText, roleOf } from "../dialects/messages.js";
import { summaryRoleIn } from "../dialects/library-messages.js";
import type { MessageRecord } from "../dialects/dialect.js";
import { listFormats, type MessageFormats } from "../dialects/format-claims.js";
import { formatDialect } from "../dialects/transcript-format.js";
import { providerCompactionOf } from "../dialects/provider-compaction.js";
import { findToolPairProblems } from "../dialects/tool-pairs.js";
import { TranscriptTokens } from "../counting/token-counter.js";
import { FLUSH_TO_MEMORY_REMINDER, SUMMARY_PREFIX, SUMMARY_REPLY } from "../ground/constants.js";
import type { Settings } from "../ground/options.js";
import type { AnyMessage } from "../ground/types.js";
import { SMALLEST_SUMMARY, summaryTokens } from "../plan/summary-tokens.js";
import type { ConversationState } from "./conversation-state.js";

/** Stored state that does not hold what this library stores: ignored, and reported to `events.onStoreError`. */
export class InvalidStateError extends TypeError {
  override name = "InvalidStateError";
}

function textOf(message: unknown, formats: MessageFormats | undefined): string | undefined {
  if (typeof message !== "object" || message === null || Array.isArray(message)) return undefined;
  try {
    return leadingText(message, formats);
  } catch {
    return undefined;
  }
}

/** Where the input's head ends, and the formats of its messages when the call has read them. */
export interface Opening {
  head: number;
  formats?: MessageFormats | undefined;
}

/**
 * The summary messages to apply from stored state whose digest matched the input, rebuilt from
 * their text: whatever else a stored message holds (another role, tool calls, extra fields) is
 * never sent. Throws `InvalidStateError` for state this library would not have written: a summary
 * that is not text with the prefix, one over `summary.maxTokens`, a second message other than the
 * flush reminder, or `pinned` indices that are not strictly increasing inside the covered part,
 * or that name a message with a tool call or a tool result (a duplicate or an orphan once sent).
 */
export function checkedSummary<M extends AnyMessage>(
  state: ConversationState,
  messages: readonly M[],
  opening: Opening,
  settings: Settings<M>,
): M[] {
  if (state.madeBy !== undefined) return storedReplacement(state, messages, opening, settings);
  checkPinned(state, messages, opening);
  const dialect = formatDialect(messages, settings.format, opening.formats);
  // The reply that answers the summary where turns must alternate is rebuilt, never read back.
  const replied =
    dialect.replyToSummary !== undefined &&
    state.summary.length > 1 &&
    textOf(state.summary.at(-1), opening.formats) === SUMMARY_REPLY;
  const [summary, reminder, ...rest] = replied ? state.summary.slice(0, -1) : state.summary;
  const text = textOf(summary, opening.formats);
  if (text === undefined || !text.startsWith(SUMMARY_PREFIX) || text.trim() === SUMMARY_PREFIX.trim()) {
    throw new InvalidStateError(
      "Expected the stored state's summary to be a text message that starts with the summary prefix",
    );
  }
  if (rest.length > 0 || (reminder !== undefined && textOf(reminder, opening.formats) !== FLUSH_TO_MEMORY_REMINDER)) {
    throw new InvalidStateError("Expected the stored state to hold a summary and at most the flush reminder after it");
  }
  // The plan never gives a summary less room than a summary of a few words, whatever
  // `summary.maxTokens` says (see `decideOnSummary`): one it wrote within that room is its own.
  const counted = new TranscriptTokens<M>([], settings.countTokens);
  const limit = Math.max(
    settings.maxSummaryTokens,
    Math.ceil(summaryTokens({ dialect, options: settings, tokens: counted, sealed: false }, SMALLEST_SUMMARY)),
  );
  // Checked by its length first, so a stored megabyte is refused without being counted.
  if (text.length > limit * 16 + 1024)
    throw new InvalidStateError(
      `Expected the stored summary within \`summary.maxTokens\` (${limit}), got ${text.length} characters`,
    );
  const role = summaryRoleIn(dialect, settings.summaryRole);
  if (roleOf(summary as object, opening.formats) !== role)
    throw new InvalidStateError(`Expected the stored summary to have the role ${String(role)} (\`summary.role\`)`);
  const made = dialect.textMessage(settings.summaryRole, text);
  // As the hook wrote it for the provider's cache; the input's messages hold the request's other markers (a count never under theirs).
  const rebuilt = [(settings.cacheMarker?.(made, dialect.name, [messages]) ?? made) as M];
  if (reminder !== undefined) rebuilt.push(dialect.textMessage(settings.summaryRole, FLUSH_TO_MEMORY_REMINDER) as M);
  if (replied) {
    // The reminder rode in the summary as its last block.
    const withReminder =
      dialect.withText !== undefined &&
      dialect
        .describe(summary as MessageRecord)
        .parts.some((part) => part.kind === "text" && part.text.endsWith(FLUSH_TO_MEMORY_REMINDER));
    if (withReminder) rebuilt[0] = dialect.withText!(rebuilt[0] as MessageRecord, FLUSH_TO_MEMORY_REMINDER) as M;
    rebuilt.push(dialect.replyToSummary!() as M);
  }
  const first = rebuilt.slice(0, 1);
  const tokens = new TranscriptTokens(first, settings.countTokens, undefined, {
    formats: opening.formats && listFormats(first, opening.formats),
  }).total;
  if (tokens > limit) {
    throw new InvalidStateError(
      `Expected the stored summary within \`summary.maxTokens\` (${limit}), got ${Math.ceil(tokens)} tokens`,
    );
  }
  return rebuilt;
}

function checkPinned(state: ConversationState, messages: readonly object[], { head, formats }: Opening): void {
  let previous = head - 1;
  for (const index of state.pinned) {
    if (index <= previous || index >= state.covered)
      throw new InvalidStateError(
        "Expected the stored state's `pinned` to be strictly increasing indices after the system prompt and below `covered`",
      );
    const message = messages[index] as object;
    if (carriesToolResult(message, formats) || carriesToolCall(message, formats))
      throw new InvalidStateError(
        `Expected the stored state's \`pinned\` to name no tool call or result, got index ${index}`,
      );
    previous = index;
  }
}

/**
 * A stored provider compaction: sent back byte for byte to the provider and model that made it
 * (the current `summarize` says who it is, `madeBy`), and otherwise as a summary of its readable
 * text, rebuilt and checked as any stored summary; without a text it cannot be used.
 */
function storedReplacement<M extends AnyMessage>(
  state: ConversationState,
  messages: readonly M[],
  opening: Opening,
  settings: Settings<M>,
): M[] {
  const made = state.madeBy as NonNullable<ConversationState["madeBy"]>;
  const current = (settings.summarize as { madeBy?: unknown } | undefined)?.madeBy as ConversationState["madeBy"];
  const dialect = formatDialect(messages, settings.format, opening.formats);
  if (current !== undefined && current.provider === made.provider && current.model === made.model) {
    if (!state.summary.some((message) => providerCompactionOf(message, dialect) !== undefined)) {
      throw new InvalidStateError("Expected the stored state's replacement to hold a provider compaction");
    }
    // Stored before replacements were checked, or written by someone else: sent as it is, so checked as `summarize`'s was.
    if (findToolPairProblems(state.summary).length > 0)
      throw new InvalidStateError(
        "Expected the stored state's replacement to hold its tool calls and results in whole pairs",
      );
    // Checked by its length first, so a stored megabyte is refused without being counted.
    if (JSON.stringify(state.summary).length > settings.maxSummaryTokens * 16 + 1024) {
      throw new InvalidStateError(
        `Expected the stored replacement within \`summary.maxTokens\` (${settings.maxSummaryTokens})`,
      );
    }
    checkPinned(state, messages, opening);
    return state.summary as M[];
  }
  const shadow = shadowState(state, messages, settings);
  if (shadow === undefined)
    throw new InvalidStateError(
      `Expected the stored compaction by ${made.provider} ${made.model} to carry a readable \`text\` for another provider or model`,
    );
  return checkedSummary(shadow, messages, opening, settings);
}

/**
 * A stored provider compaction's readable shadow as a state of its own: the same covered messages,
 * with its `text` as the summary in place of the provider's item. What is sent to another provider
 * or model, or once the provider refused the item; undefined for a state that holds no provider
 * compaction or no text to stand in for it.
 */
export function shadowState<M extends AnyMessage>(
  state: ConversationState,
  messages: readonly M[],
  settings: Settings<M>,
): ConversationState | undefined {
  if (state.madeBy === undefined || state.text === undefined || state.text.trim() === "") return undefined;
  const dialect = formatDialect(messages, settings.format);
  const summary: object[] = [dialect.textMessage(settings.summaryRole, SUMMARY_PREFIX + state.text)];
  if (dialect.replyToSummary !== undefined) summary.push(dialect.replyToSummary());
  const { madeBy: _madeBy, text: _text, ...plain } = state;
  return { ...plain, summary };
}
