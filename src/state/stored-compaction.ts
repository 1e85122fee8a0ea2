import type { Dialect } from "../dialects/dialect.js";
import type { MessageFormats } from "../dialects/format-claims.js";
import type { CompactionOutcome } from "../hook/engine.js";
import { headLength } from "../plan/split-at-user-boundary.js";
import type { AnyMessage } from "../ground/types.js";
import type { ConversationState } from "../stores/conversation-state.js";

/**
 * What a new state stores as its summary. A provider's compaction is stored byte for byte with
 * the provider and model that made it and its readable text. A summary of the caller's own
 * summarizer made while an earlier stored compaction stays in force (an unreadable one, that only
 * a newer native compaction replaces) is stored after it, with its tag: the compaction in force
 * is not lost on the next request.
 */
export function storedSummaryOf<T extends AnyMessage>(
  outcome: CompactionOutcome<T>,
  { base, state }: { base: readonly T[]; state: ConversationState | undefined },
  messages: readonly T[],
  /** The transcript's format, and the formats of the input and of the base when the call has read them. */
  { dialect, formats, baseFormats }: { dialect: Dialect; formats?: MessageFormats; baseFormats?: MessageFormats },
): Pick<ConversationState, "summary" | "madeBy" | "text"> {
  const made = outcome.replacement;
  if (made?.madeBy !== undefined)
    return { summary: outcome.added, madeBy: made.madeBy, ...(made.text === undefined ? {} : { text: made.text }) };
  if (made !== undefined || state?.madeBy === undefined) return { summary: outcome.added };
  // The stored compaction sits in the base's head, after the input's own head; kept when the result still opens with it.
  const from = headLength(messages, dialect, formats);
  const carried = base.slice(from, headLength(base, dialect, baseFormats));
  if (carried.length === 0 || outcome.messages[from] !== carried[0]) return { summary: outcome.added };
  return {
    summary: [...carried, ...outcome.added],
    madeBy: state.madeBy,
    ...(state.text === undefined ? {} : { text: state.text }),
  };
}
