import { credentialSpans, likelyPasswordSpans, replaced, settingSpans, spansBy } from "./redact-secrets.js";
import { likelyTokenSpans } from "./secret-tokens.js";

// What a truncation marker may not name and an error's excerpt or an OpenTelemetry event may not
// quote: every format `secretSpans` reads, read with cruder tests that leave out more (see
// `redact-secrets.ts`). A marker that names a few identifiers less, or an excerpt with a port or a
// word more redacted, loses nothing anyone reads back, and these are the doors of `compactor`,
// whose size ceiling does not rise: here the value of every secret-named setting is a secret, and
// so is whatever follows a flag that may carry a password; a token's body need only hold a digit
// and a letter.

/**
 * Where `text` may hold a secret, as sorted, disjoint `[start, end)` pairs, flattened: the spans of
 * `secretSpans`, but for a token whose body holds no digit, and more (see above). Linear in the
 * length of `text`.
 *
 * @param original - any text
 * @returns the spans, flattened
 */
export function likelySecretSpans(original: string): number[] {
  return spansBy(original, [
    likelyTokenSpans,
    credentialSpans,
    (text, spans) => settingSpans(text, spans, (_, value) => value.trim() !== ""),
    likelyPasswordSpans,
  ]);
}

/**
 * `text` with whatever may be a secret replaced by `[redacted]` (see `likelySecretSpans`).
 *
 * @param text - any text
 * @returns the text, each possible secret replaced
 * @example
 * ```ts
 * redactLikelySecrets("mysql -u root -pS3cr3t shop"); // "mysql -u [redacted] -p[redacted] shop"
 * ```
 */
export function redactLikelySecrets(text: string): string {
  return replaced(text, likelySecretSpans(text));
}
