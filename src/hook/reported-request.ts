import { formatDialect } from "../dialects/transcript-format.js";
import type { Settings } from "../ground/options.js";
import type { AnyMessage, BeforeLlmEvent } from "../ground/types.js";
import { checkedUsage, type CheckedUsage } from "../validation/usage.js";
import { readVerdict, requestLength } from "./read-verdict.js";
import { withRefusedItemShadow } from "./refused-item-shadow.js";

/** What the event says of the request this transcript starts with. */
export interface ReportedRequest<M extends AnyMessage> {
  /** The report to count by, checked against these messages. */
  usage?: CheckedUsage;
  /** True when the provider stopped that request at its context window: this call compacts. */
  overflowed: boolean;
  /** The transcript with a refused provider compaction replaced by the summary of its readable text. */
  messages?: M[];
}

/**
 * Reads `event.usage` and `event.response` against the transcript itself: the request they
 * describe is its first messages (the first `usage.messageCount`, or, for a response, those before
 * the model's latest reply, which the loop appended after it), whether the objects are the ones
 * the hook returned or were read back from a database. Nothing of an earlier call is needed.
 */
export function reportedRequest<M extends AnyMessage>(event: BeforeLlmEvent<M>, settings: Settings<M>): ReportedRequest<M> {
  const { messages, response } = event;
  if (!Array.isArray(messages)) return { overflowed: false };
  // The request is a prefix of the transcript: what a verdict names in it (a position, an id) is
  // found in the transcript as well. Only the report's count needs to know where it ends.
  const verdict = readVerdict(response, messages, settings.onProviderVerdict);
  // A provider compaction the provider refused gives way to the summary of its readable text, when it has one.
  const shadowed = verdict.refused ? withRefusedItemShadow(messages, settings) : undefined;
  if (shadowed !== undefined) return { overflowed: verdict.overflowed, messages: shadowed };
  const reported = event.usage ?? (verdict.usage === undefined ? undefined : { ...verdict.usage, messageCount: requestLength(messages, formatDialect(messages, settings.format)) });
  const usage = checkedUsage(reported, messages.length, "event.usage");
  return { overflowed: verdict.overflowed, ...(usage === undefined ? {} : { usage }) };
}
