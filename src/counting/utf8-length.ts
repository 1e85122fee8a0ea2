// Node's Buffer.byteLength measured about 3× faster than TextEncoder and 10× faster than a
// JavaScript loop. It is looked up on globalThis so the core never imports a Node built-in and
// runs unchanged in browsers, Deno, Bun and edge workers.
interface ByteLengthHost {
  byteLength(text: string, encoding: "utf8"): number;
}
const nodeBuffer = (globalThis as { Buffer?: ByteLengthHost }).Buffer;

/**
 * UTF-8 byte length of a string. Lone surrogates count 3 bytes, like the replacement character
 * they are encoded as; `JSON.stringify` escapes them anyway, so estimates never meet one.
 */
export function utf8ByteLengthPortable(text: string): number {
  let bytes = text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) continue;
    bytes += code < 0x800 ? 1 : 2;
    // A surrogate pair is 2 UTF-16 units and 4 UTF-8 bytes: its low half adds nothing more. (Past
    // the end, `charCodeAt` is NaN, which is no low half.)
    if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) index++;
  }
  return bytes;
}

/** UTF-8 byte length of a string, through Node's native routine where there is one. */
export const utf8ByteLength: (text: string) => number =
  nodeBuffer && typeof nodeBuffer.byteLength === "function"
    ? (text) => nodeBuffer.byteLength(text, "utf8")
    : utf8ByteLengthPortable;
