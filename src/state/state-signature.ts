// Stored state signed with the caller's `signingKey` (HMAC-SHA-256 through Web Crypto): a store
// that others can write to (a shared Redis, a KV namespace) cannot hand this library a summary of
// its own making. The signature covers the whole stored value but the signature itself.

import { toHex } from "../text/sha256.js";

const encoder = new TextEncoder();

function subtle(): SubtleCrypto {
  const crypto = globalThis.crypto?.subtle;
  if (crypto === undefined) throw new TypeError("`signingKey` needs `globalThis.crypto.subtle` (Web Crypto), which this runtime does not provide");
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

/** `payload` (a JSON object's text) with a `signature` field added. */
export async function signState(payload: string, key: CryptoKey): Promise<string> {
  const signature = toHex(new Uint8Array(await subtle().sign("HMAC", key, encoder.encode(payload))));
  return `${payload.slice(0, -1)},"signature":"${signature}"}`;
}

/**
 * The payload of a signed value when its signature verifies; undefined when it is unsigned or
 * signed by another key.
 */
export async function verifiedState(text: string, key: CryptoKey): Promise<string | undefined> {
  const marker = ',"signature":"';
  const at = text.lastIndexOf(marker);
  if (at === -1 || !text.endsWith('"}') || text.length - at !== marker.length + 64 + 2) return undefined;
  const signature = fromHex(text.slice(at + marker.length, -2));
  if (signature === undefined) return undefined;
  const payload = `${text.slice(0, at)}}`;
  return (await subtle().verify("HMAC", key, signature, encoder.encode(payload))) ? payload : undefined;
}
