import { mastraPayload } from "../dialects/mastra-prompt.js";
import { toHex } from "../text/sha256.js";

/**
 * SHA-256 (hex) of the messages' JSON, through the Web Crypto API that every supported runtime
 * has (Node ≥ 20, Deno, Bun, browsers in a secure context, edge workers). Equal JSON is the same
 * message: frameworks rebuild their messages from stored history, so identity cannot be relied on.
 * What is hashed is what the provider receives: a framework's bookkeeping that changes from call
 * to call while the request stays the same (Mastra's `providerOptions.mastra.createdAt`, stamped
 * anew on each `generate()`) is left out, or no stored state would ever match again. Only that:
 * the payload the estimate reads of a LangChain message leaves out `additional_kwargs`, which
 * some providers read, and two messages that differ there are two messages.
 *
 * Taken in pieces: the messages are hashed in chunks of at most `CHUNK_MESSAGES` messages (fewer
 * when their JSON reaches `CHUNK_BYTES`), and the digest is the hash of the chunks' hashes,
 * so no single string of the whole transcript is ever built (a million-message conversation would
 * exceed the longest string a runtime allows). A full chunk's hash is kept by its first message
 * object, with the chunk's objects: a caller that passes the same message objects again (an agent
 * loop) has only its new messages serialized and hashed, so a conversation of n turns costs in
 * proportion to n, not n². Messages are taken as they are handed in; the library never changes one.
 * Binary data enters by its bytes, from any realm (an iframe, jsdom, `vm`): an `ArrayBuffer`
 * serializes as `{}`, so two images would otherwise be one. A value whose data JSON cannot see
 * (a `Blob`, a `Map`, a `Set`, a class instance with no enumerable data) would be `{}` too, and
 * two conversations that differ only in it one: the digest throws `UnreadableValueError` instead.
 */
export async function digestMessages(messages: readonly object[]): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) {
    throw new TypeError(
      "statefulCompactor needs `globalThis.crypto.subtle` (Web Crypto), which this runtime does not provide",
    );
  }
  // Web Crypto hashes off the main thread: each chunk's hash is left running while the next chunk
  // is serialized, and awaited only when that one is ready, so hashing and serializing overlap.
  const chunkHashes: Promise<Uint8Array>[] = [];
  let index = 0;
  while (index < messages.length || chunkHashes.length === 0) {
    const first = messages[index];
    const known = typeof first === "object" && first !== null ? fullChunks.get(first) : undefined;
    if (known !== undefined && holdsAt(messages, index, known.messages)) {
      chunkHashes.push(Promise.resolve(known.hash));
      index += known.messages.length;
      continue;
    }
    // Each message is encoded straight into the chunk's bytes: no string of the chunk is built.
    let used = 0;
    let end = index;
    while (end < messages.length && end - index < CHUNK_MESSAGES && used < CHUNK_BYTES) {
      const message = messages[end++] as object;
      const json = jsonOf(message);
      // UTF-8 takes at most 3 bytes per UTF-16 unit, and 1 for the separator.
      if (used + json.length * 3 + 1 > chunkBytes.length) chunkBytes = grown(chunkBytes, used + json.length * 3 + 1);
      const { written } = encoder.encodeInto(json, chunkBytes.subarray(used));
      used += written;
      // A separator that JSON never emits between values keeps [a, b] apart from [ab].
      chunkBytes[used++] = 0x0a;
    }
    // A copy, taken before any await: the buffer is reused for the next chunk, and by calls that
    // run while this one awaits.
    const bytes = chunkBytes.slice(0, used);
    // One hash in flight at a time: the one before this chunk is awaited now, which bounds the
    // copies held to two chunks.
    if (chunkHashes.length > 0) await chunkHashes[chunkHashes.length - 1];
    const hash = subtle.digest("SHA-256", bytes).then((digest) => new Uint8Array(digest));
    // Handled here so that a failure is reported once, by the await below, and never as unhandled.
    void hash.catch(() => undefined);
    // Only a chunk closed by its own size is the same in a longer transcript; the last one, closed
    // by the end of the array, grows with it.
    if (first !== undefined && (end - index === CHUNK_MESSAGES || used >= CHUNK_BYTES)) {
      const chunk = messages.slice(index, end);
      void hash.then(
        (digest) => fullChunks.set(first, { messages: chunk, hash: digest }),
        () => undefined,
      );
    }
    chunkHashes.push(hash);
    index = end;
  }
  const hashes = await Promise.all(chunkHashes);
  const joined = new Uint8Array(hashes.length * 32);
  hashes.forEach((hash, position) => joined.set(hash, position * 32));
  return toHex(new Uint8Array(await subtle.digest("SHA-256", joined)));
}

const encoder = new TextEncoder();

/** The bytes of the chunk being hashed, reused from call to call (grown for a larger message). */
let chunkBytes = new Uint8Array(64 * 1024);

function grown(buffer: Uint8Array, size: number): Uint8Array<ArrayBuffer> {
  const next = new Uint8Array(Math.max(size, buffer.length * 2));
  next.set(buffer);
  return next;
}

/** Hashes of full chunks, by their first message object (see `digestMessages`). */
const fullChunks = new WeakMap<object, { messages: readonly object[]; hash: Uint8Array }>();

/** True when `messages` holds exactly these objects from `index` on. */
function holdsAt(messages: readonly object[], index: number, chunk: readonly object[]): boolean {
  if (index + chunk.length > messages.length) return false;
  for (let offset = 0; offset < chunk.length; offset++) if (messages[index + offset] !== chunk[offset]) return false;
  return true;
}

/**
 * A message's JSON with its binary data as bytes. An `ArrayBuffer` or a `DataView` serializes as
 * `{}`, so only JSON that holds an empty object is written again with the replacer, which would
 * otherwise slow every message down (a typed array's JSON already lists its bytes). `includes`
 * first: most messages hold no `{}` at all, and it is far cheaper than the expression.
 */
function jsonOf(message: object): string {
  const sent = mastraPayload(message) ?? message;
  const json = JSON.stringify(sent);
  return json.includes("{}") && emptyObjectValue.test(json) ? JSON.stringify(sent, withBytes) : json;
}

/** An empty object as a value (after `:`, `[` or `,`); one inside a string is escaped text, mostly `"{}"`. */
const emptyObjectValue = /[:[,]\{\}/;

/** Messages hashed at once, at most: few enough that a loop re-hashes little of its last, open chunk, many enough that a fresh transcript is hashed in few calls. */
const CHUNK_MESSAGES = 256;

/** Bytes of JSON hashed at once, at most (one message may go past it). */
const CHUNK_BYTES = 1024 * 1024;

/** A message holds a value whose data the digest cannot read; the call goes on without state. */
export class UnreadableValueError extends TypeError {
  override name = "UnreadableValueError";
}

/**
 * A JSON replacer that writes binary data as its bytes in hex, where JSON would write `{}` or an
 * index map, and throws `UnreadableValueError` for an object that JSON would write as `{}` though
 * it holds data. Everything is told by brand, never by `instanceof`, which fails across realms.
 */
function withBytes(key: string, value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const bytes = bytesOf(value);
  if (bytes !== undefined) return { bytes: toHex(bytes) };
  if (isOpaque(value)) {
    const tag = Object.prototype.toString.call(value).slice(8, -1);
    const kind = tag === "Object" ? "an instance of a class" : `a ${tag}`;
    throw new UnreadableValueError(
      `Expected message data that JSON or its bytes show, got ${kind}${key === "" ? "" : ` at \`${key}\``} that JSON writes as \`{}\`; the call goes on without state`,
    );
  }
  return value;
}

/** The byte length getters: they throw unless called on a buffer of their kind, from any realm. */
const bufferLengths = [ArrayBuffer, globalThis.SharedArrayBuffer]
  .map((kind) => (kind === undefined ? undefined : Object.getOwnPropertyDescriptor(kind.prototype, "byteLength")?.get))
  .filter((getter) => getter !== undefined);

function bytesOf(value: object): Uint8Array | undefined {
  // A brand check of its own: true for a typed array or a `DataView` of any realm.
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  const tag = Object.prototype.toString.call(value);
  if (tag !== "[object ArrayBuffer]" && tag !== "[object SharedArrayBuffer]") return undefined;
  for (const byteLength of bufferLengths) {
    try {
      byteLength.call(value);
      return new Uint8Array(value as ArrayBuffer);
    } catch {
      // Not a buffer of this kind (a look-alike with the tag, or the other kind): the next getter.
    }
  }
  return undefined;
}

/**
 * An object that is not a plain object or an array (its prototype is not a realm's
 * `Object.prototype` or null) and that has no enumerable data of its own: JSON writes it as `{}`.
 * Boxed primitives are written as the primitive.
 */
function isOpaque(value: object): boolean {
  if (Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as object | null;
  if (prototype === null || Object.getPrototypeOf(prototype) === null) return false;
  for (const name in value) if (Object.hasOwn(value, name)) return false;
  const tag = Object.prototype.toString.call(value);
  return tag !== "[object Number]" && tag !== "[object Boolean]" && tag !== "[object String]";
}
