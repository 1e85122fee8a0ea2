import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { STANDS_AS_PART, STANDS_AS_WORD, STANDS_INSIDE, bestOccurrence } from "../src/text/best-occurrence.js";

describe("bestOccurrence", () => {
  it.each([
    ["the seat count is 10.", "10", { at: 18, stands: STANDS_AS_WORD }],
    ["row 100 and 10", "10", { at: 12, stands: STANDS_AS_WORD }],
    ["app_configs; cls._meta.app_config._is_default", "app_config", { at: 23, stands: STANDS_AS_PART }],
    ["f{cls._meta.app_config.__class__}", "app_config", { at: 12, stands: STANDS_AS_PART }],
    ["self.storage.url", "storage.url", { at: 5, stands: STANDS_AS_PART }],
    ["storage.url is set", "storage.url", { at: 0, stands: STANDS_AS_WORD }],
    ["app_configs and _app_config", "app_config", { at: 0, stands: STANDS_INSIDE }],
    ["aaab", "aab", { at: 1, stands: STANDS_INSIDE }],
    ["x abababc", "ababc", { at: 4, stands: STANDS_INSIDE }],
    ["a.abab.ababc", "ababc", { at: 7, stands: STANDS_AS_PART }],
    ["order #W2378156 shipped", "#W2378156", { at: 6, stands: STANDS_AS_WORD }],
  ])("in %j finds %j", (text, needle, expected) => {
    expect(bestOccurrence(text, needle)).toEqual(expected);
  });

  it.each([
    ["abc", ""],
    ["abc", "abcd"],
    ["abc", "abd"],
  ])("in %j finds nothing of %j", (text, needle) => {
    expect(bestOccurrence(text, needle)).toBeUndefined();
  });

  it("finds a needle where and only where a naive search does", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "b", "_", ".", " "), maxLength: 60 });
    fc.assert(
      fc.property(
        text,
        fc.string({ unit: fc.constantFrom("a", "b", "_", "."), minLength: 1, maxLength: 6 }),
        (haystack, needle) => {
          const found = bestOccurrence(haystack, needle);
          const first = haystack.indexOf(needle);
          expect(found === undefined).toBe(first === -1);
          if (found !== undefined) {
            expect(haystack.startsWith(needle, found.at)).toBe(true);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
