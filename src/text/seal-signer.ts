// The HMAC of a summary's seal (see `summary-seal.ts` for its shape and why it exists).
import { hmacSha256, toHex } from "./sha256.js";
import type { Sealer } from "../ground/options.js";
import { CLOSING, OPENING, SEAL_DIGITS, SEAL_LENGTH, hasSealShape } from "./summary-seal.js";

const encoder = new TextEncoder();

function sealOf(body: string, role: string, key: Uint8Array): string {
  return toHex(hmacSha256(key, encoder.encode(`${role}\n${body}`))).slice(0, SEAL_DIGITS);
}

/**
 * The sealer of a hook's key: undefined without a key (a runtime with no
 * `crypto.getRandomValues`), and then no user-role summary verifies.
 */
export function sealerOf(key: Uint8Array | undefined): Sealer | undefined {
  if (key === undefined) return undefined;
  return {
    seal: (body, role) => `${body}${OPENING}${sealOf(body, role, key)}${CLOSING}`,
    verify(text, role) {
      if (!hasSealShape(text)) return undefined;
      const body = text.slice(0, text.length - SEAL_LENGTH);
      const seal = text.slice(text.length - SEAL_DIGITS - CLOSING.length, text.length - CLOSING.length);
      // Every digit is compared, whatever the first difference, so timing tells nothing of the seal.
      const expected = sealOf(body, role, key);
      let difference = 0;
      for (let index = 0; index < SEAL_DIGITS; index++)
        difference |= expected.charCodeAt(index) ^ seal.charCodeAt(index);
      return difference === 0 ? body : undefined;
    },
  };
}
