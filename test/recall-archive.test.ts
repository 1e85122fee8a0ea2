import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ArchivedRange } from "../src/archive/conversation-archive.js";
import { recallFromArchive, type RecallWork } from "../src/archive/recall-archive.js";

/** An archive of `count` user messages, each the text `text(index)`. */
function archiveOf(count: number, text: (index: number) => string): ArchivedRange[] {
  const messages = Array.from({ length: count }, (_, index) => ({
    index: index + 1,
    message: { role: "user", content: text(index) },
  }));
  return [{ from: 1, to: count, messages }];
}

/** The characters a single pass over the archive's texts and the query reads. */
const linearPass = (ranges: readonly ArchivedRange[], query: string) =>
  ranges.flatMap((range) => range.messages).reduce((sum, entry) => sum + JSON.stringify(entry.message).length, 0) +
  query.length;

/** Work of one recall, per character of a single pass over the archive and the query. */
function workPerCharacter(ranges: readonly ArchivedRange[], query: string): number {
  const work: RecallWork = { steps: 0 };
  recallFromArchive(ranges, query, 2_000);
  recallFromArchive(ranges, query, 2_000, work);
  return work.steps / linearPass(ranges, query);
}

const letters = "abcdefghijklmnopqrstuvwxyz";
/** 333 two-letter words, none of which any message holds whole as a phrase. */
const twoLetterWords = Array.from(
  { length: 333 },
  (_, index) => `${letters[index % 26]}${letters[Math.floor(index / 26) % 26]}`,
).join(" ");
/** Words that are each other's suffixes (`a aa aaa …`), so that several end at every character of `aaaa…`. */
const nested = Array.from({ length: 40 }, (_, index) => "a".repeat(index + 1)).join(" ");
/** Parts of a dotted identifier (`a a.a a.a.a …`): they stand as parts, never as words, wherever they are found. */
const dotted = Array.from({ length: 20 }, (_, index) => Array.from({ length: index + 1 }, () => "a").join(".")).join(
  " ",
);

describe("recall's work, counted", () => {
  it.each([
    [
      "333 two-letter words over prose",
      twoLetterWords,
      (index: number) =>
        `Message ${index}: the quick brown fox jumps over the lazy dog ${"lorem ipsum dolor sit amet ".repeat(20)}`,
    ],
    ["words that are each other's suffixes over one repeated letter", nested, () => "a".repeat(600)],
    ["parts of a dotted identifier over a dotted chain", dotted, () => `x.${"a.".repeat(300)}`],
    [
      "333 two-letter words, each message holding all of them but the last",
      twoLetterWords,
      () => twoLetterWords.slice(0, -3).split(" ").join(", "),
    ],
  ])("%s: a small constant per character of one pass, whatever the words", (_, query, text) => {
    const small = archiveOf(50, text);
    const large = archiveOf(200, text);
    const perCharacter = workPerCharacter(large, query);
    expect(perCharacter).toBeLessThanOrEqual(12);
    // Four times the archive costs four times the work, not more.
    expect(perCharacter).toBeLessThanOrEqual(workPerCharacter(small, query) * 1.25);
  });

  it("stays within that constant for any words over any text", () => {
    const unit = fc.constantFrom("a", "b", ".", "-", "_", " ", "A", "é", "日", "😀", "/");
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit, minLength: 1, maxLength: 40 }), { minLength: 1, maxLength: 30 }),
        fc.array(fc.string({ unit, minLength: 1, maxLength: 8 }), { minLength: 2, maxLength: 40 }),
        (texts, words) => {
          const ranges = archiveOf(texts.length, (index) => texts[index]!);
          expect(workPerCharacter(ranges, words.join(" "))).toBeLessThanOrEqual(12);
        },
      ),
      { numRuns: 200 },
    );
  });
});
