// Questions the library asks of one message, answered by the message's own dialect.
import { SUMMARY_PREFIX } from "../ground/constants.js";
import type { Dialect, MessageRecord } from "./dialect.js";
import type { MessageFormats } from "./format-claims.js";
import { dialectIn, dialectOf } from "./registry.js";

/** Calls `visit` with the id of every tool call the message makes (undefined for an id-less call). */
export function forEachToolCall(
  message: object,
  visit: (id: string | undefined) => void,
  formats?: MessageFormats,
): void {
  dialectIn(message, formats).forEachToolCall(message as MessageRecord, visit);
}

/** Calls `visit` with the id of every tool call the message answers (undefined for an id-less result). */
export function forEachToolResult(
  message: object,
  visit: (id: string | undefined) => void,
  formats?: MessageFormats,
): void {
  dialectIn(message, formats).forEachToolResult(message as MessageRecord, visit);
}

/** True when the message answers at least one tool call. `formats`: the call's, when read. */
export function carriesToolResult(message: object, formats?: MessageFormats): boolean {
  let found = false;
  forEachToolResult(
    message,
    () => {
      found = true;
    },
    formats,
  );
  return found;
}

/** True when the message makes at least one tool call. `formats`: the call's, when read. */
export function carriesToolCall(message: object, formats?: MessageFormats): boolean {
  let found = false;
  forEachToolCall(
    message,
    () => {
      found = true;
    },
    formats,
  );
  return found;
}

/** The message's text when its content is a string, else the text of its first text block. */
export function leadingText(message: object, formats?: MessageFormats): string | undefined {
  return dialectIn(message, formats).leadingText(message as MessageRecord);
}

/** The speaker in dialect-free terms (`"user"`, `"assistant"`, `"system"`, `"tool"`), if any. `formats`: the call's, when read. */
export function roleOf(message: object, formats?: MessageFormats): string | undefined {
  return dialectIn(message, formats).role(message as MessageRecord);
}

/**
 * Tells whether a message is a summary made by this library: its content (or first text block)
 * starts with `SUMMARY_PREFIX`.
 *
 * @param message - any message
 * @returns true for a summary message
 * @example
 * ```ts
 * isSummaryMessage({ role: "system", content: SUMMARY_PREFIX + "Earlier: …" }); // true
 * ```
 */
export function isSummaryMessage(message: unknown): boolean {
  if (typeof message !== "object" || message === null) return false;
  return leadingText(message)?.startsWith(SUMMARY_PREFIX) ?? false;
}

/**
 * The default boundary rule: a user message that carries no tool result (an Anthropic or Bedrock
 * user message holding tool results, or a Gemini one holding function responses, belongs to a
 * tool group). The library's own messages are told apart by their position (see
 * `libraryMessagesOf`), never by their text alone.
 */
export function isUserBoundary(message: object): boolean {
  return isUserTurnIn(dialectOf(message), message);
}

/** The default boundary rule (see `isUserBoundary`) through a dialect already looked up. */
export function isUserTurnIn(dialect: Dialect, message: object): boolean {
  if (dialect.role(message as MessageRecord) !== "user") return false;
  let answers = false;
  dialect.forEachToolResult(message as MessageRecord, () => {
    answers = true;
  });
  return !answers;
}

/**
 * True for a message of the leading prompt that is kept verbatim: a system message, or an OpenAI
 * `developer` message (the system prompt of current OpenAI models), that is not a summary.
 */
export function isSystemPrompt(message: object, formats?: MessageFormats): boolean {
  const dialect = dialectIn(message, formats);
  const role = dialect.role(message as MessageRecord);
  return (
    (role === "system" || role === "developer") &&
    !(dialect.leadingText(message as MessageRecord)?.startsWith(SUMMARY_PREFIX) ?? false)
  );
}

/** True for an item that belongs with the one after it (a Responses reasoning item): no cut right after it. */
export function bindsToNext(message: object): boolean {
  return dialectOf(message).bindsToNext(message as MessageRecord);
}

/** True for a message that may open a complete tool group. */
export function opensToolGroup(message: object): boolean {
  return dialectOf(message).opensToolGroup(message as MessageRecord);
}

// What the provider receives of a message is told apart from the dialects' other readers (the
// estimate needs only it).
export { providerPayload } from "./provider-payload.js";

/** True for a message that carries a signature the provider checks: no rung of the ladder edits it. */
export function isSigned(message: object, formats?: MessageFormats): boolean {
  return dialectIn(message, formats).signed(message as MessageRecord);
}

/**
 * True when the message at `index` may have its tool payloads cut or masked: it carries no
 * signature, and it does not follow an item bound to it (a Responses reasoning item belongs with
 * the call after it, which the provider reads with it). `formats`: the call's, when read.
 */
export function isEditableAt(messages: readonly object[], index: number, formats?: MessageFormats): boolean {
  const message = messages[index];
  if (message === undefined || isSigned(message, formats)) return false;
  const previous = index > 0 ? messages[index - 1] : undefined;
  return previous === undefined || !dialectIn(previous, formats).bindsToNext(previous as MessageRecord);
}
