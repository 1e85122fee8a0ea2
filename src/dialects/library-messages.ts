import { FLUSH_TO_MEMORY_REMINDER, SUMMARY_PREFIX, SUMMARY_REPLY } from "../ground/constants.js";
import { withoutSeal } from "../text/summary-seal.js";
import type { Sealer } from "../ground/options.js";
import type { Dialect } from "./dialect.js";
import type { MessageFormats } from "./format-claims.js";
import { leadingText, roleOf } from "./messages.js";
import { transcriptDialect } from "./registry.js";

/**
 * The role a summary gets in a format: the configured `summary.role`, except in formats without
 * system messages (Gemini, Bedrock), where it is always `"user"`. A summary of any role but
 * `"system"` is sealed (see `summary-seal.ts`).
 */
export function summaryRoleIn(dialect: Dialect, summaryRole: "system" | "user"): string {
  return dialect.role(dialect.textMessage(summaryRole, SUMMARY_PREFIX)) ?? "user";
}

/** How the library knows its own summaries in a transcript. */
export interface Provenance {
  /**
   * For `statefulCompactor`: the summary messages read from the store. Only these count; a message
   * of the input never does, whatever it says.
   */
  stored?: ReadonlySet<object> | undefined;
  /** What verifies this hook's seals on user-role summaries; undefined: no user-role summary verifies. */
  sealer?: Sealer | undefined;
  /** The transcript's format, when it is pinned or already read; detected otherwise. */
  dialect?: Dialect | undefined;
  /** The formats of the call's messages, when already read. */
  formats?: MessageFormats | undefined;
}

/**
 * The messages of a transcript that this library made. A summary counts only where the hook puts
 * one (first, or right after the system prompt, at index `head`), only with the role the hook
 * gives it, and, when that role is `"user"` (a role any user's text has), only with a seal that
 * verifies under the hook's key; with stored state, only the stored summary counts. A flush
 * reminder counts only right after such a summary. Anything else that starts with the summary
 * prefix is an ordinary message: a boundary when it is a user's, never rolled forward as a summary.
 *
 * @param summaryRole - the configured `summary.role`; undefined accepts any role and needs no seal
 *   (for callers that only need to know where a summary may stand)
 */
export function libraryMessagesOf(
  messages: readonly object[],
  head: number,
  summaryRole?: "system" | "user",
  provenance: Provenance = {},
): Set<object> {
  const made = new Set<object>();
  const { formats } = provenance;
  const summary = messages[head];
  if (typeof summary !== "object" || summary === null) return made;
  const text = leadingText(summary, formats);
  if (!(text?.startsWith(SUMMARY_PREFIX) ?? false)) return made;
  if (provenance.stored !== undefined) {
    if (!provenance.stored.has(summary)) return made;
  } else if (summaryRole !== undefined) {
    const role = summaryRoleIn(provenance.dialect ?? transcriptDialect(messages), summaryRole);
    if (roleOf(summary, formats) !== role) return made;
    if (
      role !== "system" &&
      provenance.sealer?.verify((text as string).slice(SUMMARY_PREFIX.length), role) === undefined
    )
      return made;
  }
  made.add(summary);
  const vouched = (message: object) => provenance.stored === undefined || provenance.stored.has(message);
  let next = head + 1;
  const reminder = messages[next];
  if (
    typeof reminder === "object" &&
    reminder !== null &&
    leadingText(reminder, formats) === FLUSH_TO_MEMORY_REMINDER &&
    roleOf(reminder, formats) === roleOf(summary, formats) &&
    vouched(reminder)
  ) {
    made.add(reminder);
    next++;
  }
  // The assistant turn that answers the summary where turns must alternate.
  const reply = messages[next];
  if (
    typeof reply === "object" &&
    reply !== null &&
    roleOf(reply, formats) === "assistant" &&
    leadingText(reply, formats) === SUMMARY_REPLY &&
    vouched(reply)
  )
    made.add(reply);
  return made;
}

/** The text of the library's summary among `made`, without the prefix and the seal. */
export function summaryTextOf(made: ReadonlySet<object>, formats?: MessageFormats): string | undefined {
  for (const message of made) {
    const text = summaryTextIn(message, formats);
    if (text !== undefined) return text;
  }
  return undefined;
}

/** The text of a message that starts with the summary prefix, without the prefix and the seal; undefined for any other message. */
export function summaryTextIn(message: object, formats?: MessageFormats): string | undefined {
  const text = leadingText(message, formats);
  return text?.startsWith(SUMMARY_PREFIX) ? withoutSeal(text.slice(SUMMARY_PREFIX.length)) : undefined;
}
