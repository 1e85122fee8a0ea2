// A user-role summary is marked as this library's by a seal: a short HMAC of its text under a key
// that only the hook knows (random per hook, or the caller's `signingKey` shared by instances).
// Prefix, position and role cannot tell the library's user-role summary from a first user message
// that merely starts with the prefix; the seal can, since no user can compute it.
import { hmacSha256, toHex } from "./sha256.js";

const OPENING = "\n\n[seal ";
const CLOSING = "]";
/** Hex digits of the seal: 96 bits, beyond guessing. */
const SEAL_DIGITS = 24;
const SEAL_LENGTH = OPENING.length + SEAL_DIGITS + CLOSING.length;

const encoder = new TextEncoder();

function sealOf(body: string, role: string, key: Uint8Array): string {
  return toHex(hmacSha256(key, encoder.encode(`${role}\n${body}`))).slice(0, SEAL_DIGITS);
}

/** `body` followed by its seal, for a summary message of `role`. */
export function sealed(body: string, role: string, key: Uint8Array): string {
  return `${body}${OPENING}${sealOf(body, role, key)}${CLOSING}`;
}

/** A seal of the right shape, for sizing a summary before its text is known. */
export const SEAL_PLACEHOLDER = `${OPENING}${"0".repeat(SEAL_DIGITS)}${CLOSING}`;

/** The text without a trailing seal (verified or not): what a summary says. */
export function withoutSeal(text: string): string {
  return hasSealShape(text) ? text.slice(0, text.length - SEAL_LENGTH) : text;
}

/** The body of `text` when it ends in a seal that verifies under `key` for `role`; undefined otherwise. */
export function verifiedBody(text: string, role: string, key: Uint8Array | undefined): string | undefined {
  if (key === undefined || !hasSealShape(text)) return undefined;
  const body = text.slice(0, text.length - SEAL_LENGTH);
  const seal = text.slice(text.length - SEAL_DIGITS - CLOSING.length, text.length - CLOSING.length);
  // Every digit is compared, whatever the first difference, so timing tells nothing of the seal.
  const expected = sealOf(body, role, key);
  let difference = 0;
  for (let index = 0; index < SEAL_DIGITS; index++) difference |= expected.charCodeAt(index) ^ seal.charCodeAt(index);
  return difference === 0 ? body : undefined;
}

function hasSealShape(text: string): boolean {
  if (text.length < SEAL_LENGTH || !text.endsWith(CLOSING)) return false;
  if (text.slice(text.length - SEAL_LENGTH, text.length - SEAL_DIGITS - CLOSING.length) !== OPENING) return false;
  for (let index = text.length - SEAL_DIGITS - CLOSING.length; index < text.length - CLOSING.length; index++) {
    const code = text.charCodeAt(index);
    if (!((code >= 48 && code <= 57) || (code >= 97 && code <= 102))) return false;
  }
  return true;
}
