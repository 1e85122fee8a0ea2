/**
 * SHA-256 (hex) of the messages' JSON, through the Web Crypto API that every supported runtime
 * has (Node ≥ 20, Deno, Bun, browsers in a secure context, edge workers). Equal JSON is the same
 * message: frameworks rebuild their messages from stored history, so identity cannot be relied on.
 */
export async function digestMessages(messages: readonly object[]): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) {
    throw new TypeError("statefulCompactor needs `globalThis.crypto.subtle` (Web Crypto), which this runtime does not provide");
  }
  // One string for all: a separator that JSON never emits between values keeps [a, b] apart from [ab].
  let json = "";
  for (const message of messages) json += `${JSON.stringify(message)}\n`;
  const hash = await subtle.digest("SHA-256", new TextEncoder().encode(json));
  let hex = "";
  for (const byte of new Uint8Array(hash)) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
