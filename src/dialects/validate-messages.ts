import { expectedMessage } from "../ground/describe-value.js";
import { redactLikelySecrets } from "../text/likely-secrets.js";

/**
 * A bad message as its error quotes it: a string redacted first (the excerpt leaves out anything
 * shaped like a key, the redaction what is a secret in context, `password: …`), anything else as
 * it is (an object is quoted by its keys only).
 */
const quoted = (value: unknown): unknown =>
  typeof value === "string" ? redactLikelySecrets(value.length > 512 ? value.slice(0, 512) : value) : value;

/**
 * Checks a transcript before any work: an array of non-null objects whose `role`, where present,
 * is a string. Throws a `TypeError` naming the first bad index.
 */
export function assertTranscript(messages: unknown, name = "messages"): asserts messages is readonly object[] {
  if (!Array.isArray(messages)) {
    // A promise of the messages, or nothing where they were awaited: the caller forgot an `await`.
    const pending = typeof (messages as { then?: unknown } | null)?.then === "function" || messages === undefined;
    throw new TypeError(
      expectedMessage(name, "an array", quoted(messages)) +
        (pending ? "; is an `await` missing where they were made?" : ""),
    );
  }
  for (let index = 0; index < messages.length; index++) {
    const message: unknown = messages[index];
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      throw new TypeError(expectedMessage(`${name}[${index}]`, "a message object", quoted(message)));
    }
    const role = (message as { role?: unknown }).role;
    if (role !== undefined && typeof role !== "string") {
      throw new TypeError(expectedMessage(`${name}[${index}].role`, "a string", role));
    }
  }
}
