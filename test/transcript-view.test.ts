// A plan reads its transcript once: the stages ask about messages by index through one view, so a
// caller's isBoundary is asked about each message at most once per plan, and the default rule
// (a user message that carries no tool result) gives the same plans as when it is passed in.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { estimateTokens, planCompaction } from "../src/index.js";
import { isUserBoundary } from "../src/dialects/messages.js";
import { anyTranscriptArbitrary } from "./support/transcripts.js";

describe("one reading of the transcript per plan", () => {
  it("a caller's isBoundary is asked about each message at most once per plan, in every dialect", () => {
    fc.assert(
      fc.property(anyTranscriptArbitrary(), fc.double({ min: 0.1, max: 0.9, noNaN: true }), ({ messages }, fraction) => {
        const asked = new Map<object, number>();
        const isBoundary = (message: object) => {
          asked.set(message, (asked.get(message) ?? 0) + 1);
          return isUserBoundary(message);
        };
        const maxTokens = Math.max(1, Math.floor(estimateTokens(messages) * fraction));
        planCompaction(messages, { maxTokens, ladder: { isBoundary, maskToolResults: true } });
        // The same object may stand at two indices (a transcript may repeat one), so count by index.
        const times = [...asked.values()];
        const repeats = messages.length - new Set(messages).size;
        expect(times.every((n) => n <= 1 + repeats)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it("the default boundary rule, read through the view, plans exactly as isUserBoundary passed in", () => {
    fc.assert(
      fc.property(anyTranscriptArbitrary(), fc.double({ min: 0.1, max: 0.9, noNaN: true }), ({ messages }, fraction) => {
        const maxTokens = Math.max(1, Math.floor(estimateTokens(messages) * fraction));
        const byDefault = planCompaction(messages, { maxTokens });
        const passedIn = planCompaction(messages, { maxTokens, ladder: { isBoundary: isUserBoundary } });
        expect(passedIn.action).toBe(byDefault.action);
        expect(passedIn.older).toEqual(byDefault.older);
        expect(passedIn.tail).toEqual(byDefault.tail);
      }),
      { numRuns: 150 },
    );
  });
});
