// Which format a transcript is in, checked before any work: a message that no format can hold is
// refused with a `TypeError`, never summarized away as text nobody can place (a `{ speaker, text }`
// list, a `{ role: "USER" }` from another system, would otherwise become one summary, the newest
// question included).
import { expectedMessage } from "../ground/describe-value.js";
import type { Dialect, DialectName, MessageRecord } from "./dialect.js";
import { bedrockConverse } from "./bedrock-converse.js";
import { claimIndexOf, type MessageFormats } from "./format-claims.js";
import { dialectAt, dialects, holdsTextBlocksOnly, transcriptDialect } from "./registry.js";

/** The dialect of a format name. */
export function dialectNamed(name: DialectName): Dialect {
  return dialects.find((dialect) => dialect.name === name) as Dialect;
}

/** The format a transcript is read in, without checking its messages: the pinned one, else the detected one. */
export function formatDialect(
  messages: readonly object[],
  format: DialectName | undefined,
  formats?: MessageFormats,
): Dialect {
  return format === undefined ? transcriptDialect(messages, formats) : dialectNamed(format);
}

/**
 * True when the message shows another format's own marks (a `tool_use` block, a `parts` array): a
 * plain `{ role, content: "…" }` shows none, and a list of typeless text blocks is Bedrock's and
 * Genkit's alike.
 */
function marksAnotherFormat(own: Dialect, claimed: boolean, pinned: Dialect, m: MessageRecord): boolean {
  // `own` is the first format that claims the message (`claimed`), or OpenAI chat when none does.
  if (!claimed || own === pinned || pinned.claims(m)) return false;
  return own !== bedrockConverse || !holdsTextBlocksOnly(m);
}

/**
 * The format of a transcript, after checking that every message reads as it: with `format`, each
 * message must be one that format holds; without it, the format is detected (`detectDialect`) and
 * each message must be one its own format, or the detected one, holds.
 *
 * @throws TypeError naming the first message that does not read, and what was expected
 */
export function readTranscript(
  messages: readonly object[],
  format?: DialectName,
  name = "messages",
  formats?: MessageFormats,
): Dialect {
  const claimAt = (index: number): number =>
    formats === undefined ? claimIndexOf(messages[index] as object) : formats.at(index);
  if (format !== undefined) {
    const pinned = dialectNamed(format);
    for (let index = 0; index < messages.length; index++) {
      const m = messages[index] as MessageRecord;
      const claim = claimAt(index);
      if (pinned.reads(m) && !marksAnotherFormat(dialectAt(claim), claim >= 0, pinned, m)) continue;
      throw new TypeError(
        `${expectedMessage(`${name}[${index}]`, `a message of the \`${format}\` format (\`format\`)`, m)}`,
      );
    }
    return pinned;
  }
  const detected = transcriptDialect(messages, formats);
  for (let index = 0; index < messages.length; index++) {
    const m = messages[index] as MessageRecord;
    const own = dialectAt(claimAt(index));
    if (own.reads(m) || (own !== detected && detected.reads(m))) continue;
    throw new TypeError(
      `${expectedMessage(`${name}[${index}]`, `a message of a known format (the transcript reads as \`${detected.name}\`: a \`role\` it has, such as "user" or "assistant", or one of its typed items)`, m)}; map the messages to a provider's format, or pass \`format\` to name it`,
    );
  }
  return detected;
}
