// A user-role summary is marked as this library's by a seal: a short HMAC of its text under a key
// that only the hook knows (random per hook, or the caller's `signingKey` shared by instances).
// Prefix, position and role cannot tell the library's user-role summary from a first user message
// that merely starts with the prefix; the seal can, since no user can compute it.
// The seal's shape is here; its HMAC is `seal-signer.ts`'s, which only the entry points that seal
// carry (`compactor`, `compact`, `planCompaction`): `statefulCompactor`'s summaries are vouched for
// by its store, and its bundle holds no SHA-256.

export const OPENING = "\n\n[seal ";
export const CLOSING = "]";
/** Hex digits of the seal: 96 bits, beyond guessing. */
export const SEAL_DIGITS = 24;
export const SEAL_LENGTH = OPENING.length + SEAL_DIGITS + CLOSING.length;

/** A seal of the right shape, for sizing a summary before its text is known. */
export const SEAL_PLACEHOLDER = `${OPENING}${"0".repeat(SEAL_DIGITS)}${CLOSING}`;

/** The text without a trailing seal (verified or not): what a summary says. */
export function withoutSeal(text: string): string {
  return hasSealShape(text) ? text.slice(0, text.length - SEAL_LENGTH) : text;
}

/** True when `text` ends in something shaped like a seal (verified or not). */
export function hasSealShape(text: string): boolean {
  if (text.length < SEAL_LENGTH || !text.endsWith(CLOSING)) return false;
  if (text.slice(text.length - SEAL_LENGTH, text.length - SEAL_DIGITS - CLOSING.length) !== OPENING) return false;
  for (let index = text.length - SEAL_DIGITS - CLOSING.length; index < text.length - CLOSING.length; index++) {
    const code = text.charCodeAt(index);
    if (!((code >= 48 && code <= 57) || (code >= 97 && code <= 102))) return false;
  }
  return true;
}
