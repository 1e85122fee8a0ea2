import { FLUSH_TO_MEMORY_REMINDER, SUMMARY_PREFIX } from "../hook/constants.js";
import type { MessageRecord } from "./dialect.js";
import { leadingText, roleOf } from "./messages.js";
import { transcriptDialect } from "./registry.js";

/**
 * The messages of a transcript that this library made: a summary counts only where the hook puts
 * one (first, or right after the system prompt, at index `head`) and only with the role the hook
 * gives it; a flush reminder only right after such a summary. A user who types the summary prefix
 * anywhere else writes an ordinary user turn: a boundary, never rolled forward as a summary.
 *
 * @param summaryRole - the configured `summaryRole`; undefined accepts any role (for callers that do not know it)
 */
export function libraryMessagesOf(messages: readonly object[], head: number, summaryRole?: "system" | "user"): Set<object> {
  const made = new Set<object>();
  const summary = messages[head];
  if (typeof summary !== "object" || summary === null || !(leadingText(summary)?.startsWith(SUMMARY_PREFIX) ?? false)) return made;
  // Formats without system messages (Gemini, Bedrock) always get a user summary.
  const role =
    summaryRole === undefined ? undefined : roleOf(transcriptDialect(messages).textMessage(summaryRole, SUMMARY_PREFIX) as MessageRecord);
  if (role !== undefined && roleOf(summary) !== role) return made;
  made.add(summary);
  const reminder = messages[head + 1];
  if (typeof reminder === "object" && reminder !== null && leadingText(reminder) === FLUSH_TO_MEMORY_REMINDER && (role === undefined || roleOf(reminder) === role)) {
    made.add(reminder);
  }
  return made;
}

/** The text of the library's summary among `made`, without the prefix. */
export function summaryTextOf(made: ReadonlySet<object>): string | undefined {
  for (const message of made) {
    const text = leadingText(message);
    if (text?.startsWith(SUMMARY_PREFIX)) return text.slice(SUMMARY_PREFIX.length);
  }
  return undefined;
}
