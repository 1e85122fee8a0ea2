import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allWordsSearch } from "../src/text/all-words-search.js";
import { STANDS_AS_PART, STANDS_AS_WORD, STANDS_INSIDE, bestOccurrence } from "../src/text/best-occurrence.js";

/** A scan per word, as the search's answer is defined: every word where it stands best, the worst of them, the first place. */
function perWord(words: readonly string[], text: string) {
  const found = words.map((word) => bestOccurrence(text, word));
  if (found.some((occurrence) => occurrence === undefined)) return undefined;
  return {
    at: Math.min(...found.map((occurrence) => occurrence!.at)),
    stands: Math.max(...found.map((occurrence) => occurrence!.stands)),
  };
}

describe("allWordsSearch", () => {
  it.each([
    [["refund", "denied"], "the refund was denied", { at: 4, stands: STANDS_AS_WORD }],
    [["app_config", "cls"], "cls._meta.app_config._is_default", { at: 0, stands: STANDS_AS_PART }],
    [["10", "seat"], "seat 100", { at: 0, stands: STANDS_INSIDE }],
    [["gift-card", "ok."], "a gift-card. ok.", { at: 2, stands: STANDS_AS_WORD }],
    [["gift-card", "card."], "a gift-card. ok", { at: 2, stands: STANDS_AS_PART }],
    [["ab-", "cd"], "ab-cd", { at: 0, stands: STANDS_AS_PART }],
    [["a", "b"], "a only", undefined],
  ])("finds %j in %j", (words, text, expected) => {
    expect(allWordsSearch(words)(text)).toEqual(expected);
  });

  it("answers as a scan per word does, for any words in any texts, one search over many texts", () => {
    // Every script: Latin with combining marks, CJK, astral characters, emoji with ZWJ sequences, flags and skin tones, a capital that lower-cases to two units.
    const unit = fc.constantFrom(
      "a",
      "b",
      "1",
      ".",
      "-",
      "/",
      "_",
      " ",
      "é",
      "e\u0301",
      "日本",
      "😀",
      "👨‍👩‍👧",
      "🇫🇷",
      "👍🏽",
      "İ",
      "\ud800",
    );
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ unit, minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.string({ unit, maxLength: 40 }), { minLength: 1, maxLength: 6 }),
        (words, texts) => {
          const search = allWordsSearch(words);
          for (const text of texts) expect(search(text)).toEqual(perWord(words, text));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
