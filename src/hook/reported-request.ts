import { formatDialect } from "../dialects/transcript-format.js";
import { stoppedAtWindow, usageOf } from "../dialects/provider-response.js";
import type { Settings } from "../ground/options.js";
import type { AnyMessage, BeforeLlmEvent } from "../ground/types.js";
import { checkedUsage, type CheckedUsage } from "../validation/usage.js";
import { requestLength } from "./request-length.js";
import type { withRefusedItemShadow } from "./refused-item-shadow.js";

/** What the event says of the request this transcript starts with. */
export interface ReportedRequest<M extends AnyMessage> {
  /** The report to count by, checked against these messages. */
  usage?: CheckedUsage;
  /** True when the provider stopped that request at its context window: this call compacts. */
  overflowed: boolean;
  /** The transcript with a refused provider compaction replaced by the summary of its readable text. */
  messages?: M[];
}

/** What the hook reads of a response without the verdicts' reader: its usage, and a stop at the context window (told). */
function ownReading(
  response: unknown,
  settings: Settings<AnyMessage>,
): { overflowed: boolean; refused: false; usage?: Record<string, unknown> | undefined } {
  const overflowed = stoppedAtWindow(response);
  if (overflowed) settings.onProviderVerdict?.({ kind: "context-window-exceeded" });
  return { overflowed, refused: false, usage: usageOf(response) };
}

/**
 * Reads `event.usage` and `event.response` against the transcript itself: the request they
 * describe is its first messages (the first `usage.messageCount`, or, for a response, those before
 * the model's latest reply, which the loop appended after it), whether the objects are the ones
 * the hook returned or were read back from a database. Nothing of an earlier call is needed.
 * The verdicts are read only with a reader (`settings.verdicts`); without one, the response's usage
 * and its stop at the context window.
 */
export function reportedRequest<M extends AnyMessage>(
  event: BeforeLlmEvent<M>,
  settings: Settings<M>,
): ReportedRequest<M> {
  const { messages, response } = event;
  if (!Array.isArray(messages)) return { overflowed: false };
  // The request is a prefix of the transcript: what a verdict names in it (a position, an id) is
  // found in the transcript as well. Only the report's count needs to know where it ends.
  const reader = settings.verdicts;
  const verdict =
    response === undefined
      ? undefined
      : (reader?.read(response, messages, settings.onProviderVerdict) ??
        ownReading(response, settings as Settings<AnyMessage>));
  // A provider compaction the provider refused gives way to the summary of its readable text, when it has one.
  const shadowed =
    verdict?.refused === true
      ? ((reader!.shadow as typeof withRefusedItemShadow<M>)(messages, settings) as M[] | undefined)
      : undefined;
  const overflowed = verdict?.overflowed === true;
  if (shadowed !== undefined) return { overflowed, messages: shadowed };
  const reported =
    event.usage ??
    (verdict?.usage === undefined
      ? undefined
      : { ...verdict.usage, messageCount: requestLength(messages, formatDialect(messages, settings.format)) });
  const usage = checkedUsage(reported, messages.length, "event.usage");
  return { overflowed, ...(usage === undefined ? {} : { usage }) };
}
