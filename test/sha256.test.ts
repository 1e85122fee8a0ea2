import { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hmacSha256, sha256, toHex } from "../src/text/sha256.js";

// The constants are computed from the primes, not written out: every length around a block's edge
// and every key size around HMAC's block give Node's own digests.
describe("sha256", () => {
  const bytes = (length: number, seed: number) =>
    Uint8Array.from({ length }, (_, index) => (index * 31 + seed * 7) & 0xff);

  it.each([0, 1, 3, 55, 56, 63, 64, 65, 119, 120, 128, 1000])("SHA-256 of %i bytes is Node's", (length) => {
    const data = bytes(length, length);
    expect(toHex(sha256(data))).toBe(createHash("sha256").update(data).digest("hex"));
  });

  it.each([0, 1, 32, 64, 65, 200])("HMAC-SHA-256 under a key of %i bytes is Node's", (keyLength) => {
    const key = bytes(keyLength, 3);
    const data = bytes(100, keyLength);
    expect(toHex(hmacSha256(key, data))).toBe(createHmac("sha256", key).update(data).digest("hex"));
  });
});
