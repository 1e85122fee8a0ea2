// Stored values signed with the caller's `signingKey` (HMAC-SHA-256 through Web Crypto): a store
// that others can write to (a shared Redis, a KV namespace) cannot hand this library a summary or
// an archive of its own making. The signature covers the whole stored value but the signature
// itself, and beside it the key the value is stored under and what kind of value it is, as a
// token's audience and subject bind it to one use: a signed value copied under another
// conversation's key, or a state put where an archive belongs, does not verify.

import { toHex } from "../text/sha256.js";

const encoder = new TextEncoder();

/** What a signed value is: a conversation's branches of state, or its archive. */
export type SignedKind = "state" | "archive";

/** Where a signed value belongs: its kind and the store key it is written under. */
export interface SignedPlace {
  kind: SignedKind;
  key: string;
}

function subtle(): SubtleCrypto {
  const crypto = globalThis.crypto?.subtle;
  if (crypto === undefined)
    throw new TypeError(
      "`signingKey` needs `globalThis.crypto.subtle` (Web Crypto), which this runtime does not provide",
    );
  return crypto;
}

/** The HMAC key of a `signingKey`, imported once per compactor. */
export function importSigningKey(signingKey: string | Uint8Array): Promise<CryptoKey> {
  const raw = typeof signingKey === "string" ? encoder.encode(signingKey) : new Uint8Array(signingKey);
  return subtle().importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

function fromHex(hex: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[0-9a-f]{64}$/.test(hex)) return undefined;
  const bytes = new Uint8Array(32);
  for (let index = 0; index < 32; index++) bytes[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  return bytes;
}

/**
 * The bytes a signature covers: the place on a first line, then the payload. The place is written
 * as JSON, which holds no raw line break and escapes a lone surrogate instead of replacing it, so
 * no two places (and no place and payload) read as the same bytes.
 */
function signedBytes(payload: string, { kind, key }: SignedPlace): Uint8Array<ArrayBuffer> {
  return encoder.encode(`${JSON.stringify(["context-compactor", kind, key])}\n${payload}`);
}

/** `payload` (a JSON object's text) with a `signature` field added, which binds it to `place`. */
export async function signState(payload: string, key: CryptoKey, place: SignedPlace): Promise<string> {
  const signature = toHex(new Uint8Array(await subtle().sign("HMAC", key, signedBytes(payload, place))));
  return `${payload.slice(0, -1)},"signature":"${signature}"}`;
}

/**
 * The payload of a signed value when its signature verifies for `place`; undefined when it is
 * unsigned, signed by another key, or signed for another key or kind of value.
 */
export async function verifiedState(text: string, key: CryptoKey, place: SignedPlace): Promise<string | undefined> {
  const marker = ',"signature":"';
  const at = text.lastIndexOf(marker);
  if (at === -1 || !text.endsWith('"}') || text.length - at !== marker.length + 64 + 2) return undefined;
  const signature = fromHex(text.slice(at + marker.length, -2));
  if (signature === undefined) return undefined;
  const payload = `${text.slice(0, at)}}`;
  return (await subtle().verify("HMAC", key, signature, signedBytes(payload, place))) ? payload : undefined;
}
