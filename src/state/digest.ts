import { toHex } from "../text/sha256.js";

/**
 * SHA-256 (hex) of the messages' JSON, through the Web Crypto API that every supported runtime
 * has (Node ≥ 20, Deno, Bun, browsers in a secure context, edge workers). Equal JSON is the same
 * message: frameworks rebuild their messages from stored history, so identity cannot be relied on.
 *
 * Taken in pieces: messages are hashed in chunks of about `CHUNK_CHARACTERS`, and the digest is the
 * hash of the chunks' hashes, so no single string of the whole transcript is ever built (a
 * million-message conversation would exceed the longest string a runtime allows). Binary data
 * enters by its bytes: an `ArrayBuffer` serializes as `{}`, so two images would otherwise be one.
 */
export async function digestMessages(messages: readonly object[]): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) {
    throw new TypeError("statefulCompactor needs `globalThis.crypto.subtle` (Web Crypto), which this runtime does not provide");
  }
  const encoder = new TextEncoder();
  const chunkHashes: Uint8Array[] = [];
  let chunk = "";
  for (const message of messages) {
    // A separator that JSON never emits between values keeps [a, b] apart from [ab].
    chunk += `${jsonOf(message)}\n`;
    if (chunk.length >= CHUNK_CHARACTERS) {
      chunkHashes.push(new Uint8Array(await subtle.digest("SHA-256", encoder.encode(chunk))));
      chunk = "";
    }
  }
  if (chunk !== "" || chunkHashes.length === 0) chunkHashes.push(new Uint8Array(await subtle.digest("SHA-256", encoder.encode(chunk))));
  const joined = new Uint8Array(chunkHashes.length * 32);
  chunkHashes.forEach((hash, index) => joined.set(hash, index * 32));
  return toHex(new Uint8Array(await subtle.digest("SHA-256", joined)));
}

/**
 * A message's JSON with its binary data as bytes. An `ArrayBuffer` or a `DataView` serializes as
 * `{}`, so only JSON that holds an empty object is written again with the replacer, which would
 * otherwise slow every message down (a typed array's JSON already lists its bytes).
 */
function jsonOf(message: object): string {
  const json = JSON.stringify(message);
  return emptyObjectValue.test(json) ? JSON.stringify(message, withBytes) : json;
}

/** An empty object as a value (after `:`, `[` or `,`); one inside a string is escaped text, mostly `"{}"`. */
const emptyObjectValue = /[:[,]\{\}/;

/** Characters of JSON hashed at once. */
const CHUNK_CHARACTERS = 4 * 1024 * 1024;

/** A JSON replacer that writes binary data as its bytes in hex, where JSON would write `{}` or an index map. */
function withBytes(_key: string, value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  let bytes: Uint8Array | undefined;
  if (value instanceof ArrayBuffer) bytes = new Uint8Array(value);
  else if (ArrayBuffer.isView(value)) bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  return bytes === undefined ? value : { bytes: toHex(bytes) };
}
