// Where a text may be cut. Never inside a surrogate pair: half of one is a lone surrogate, which
// is not valid Unicode, and a provider's JSON parser refuses the whole request for it (Anthropic
// answers 400 "The request body is not valid JSON: no low surrogate in string"). Where the runtime
// has `Intl.Segmenter`, never inside a grapheme cluster either: an emoji's ZWJ sequence, a flag, a
// skin tone, a letter with its combining marks stay whole. Each cut reads a short window around
// its index, so it costs the same whatever the length of the text; a cut between two ASCII
// characters reads only those two.

/** Characters read on either side of a cut: longer than any grapheme cluster of real text. */
const WINDOW = 64;
/** How far back a cut looks for the start of a run of regional indicators, whose pairs are flags. */
const FLAG_RUN = 1024;

const isHigh = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/**
 * True when `at` falls between the two halves of a surrogate pair of `text`: a cut there leaves
 * a lone surrogate on either side.
 *
 * @example
 * splitsSurrogatePair("🚀", 1); // true
 */
export const splitsSurrogatePair = (text: string, at: number): boolean =>
  at > 0 && at < text.length && isLow(text.charCodeAt(at)) && isHigh(text.charCodeAt(at - 1));

/**
 * At most the first `length` code units of `text`, cut on a code point: the cut of `headOf`
 * without the grapheme segmenter, for a copy that only must not hold half a surrogate pair (an
 * error's text in a trace), and whose bundle the segmenter's window would cost.
 *
 * @example
 * codePointHeadOf("ok 🚀", 4); // "ok "
 */
export const codePointHeadOf = (text: string, length: number): string =>
  length >= text.length ? text : text.slice(0, splitsSurrogatePair(text, length) ? length - 1 : length);

/** True when the two code units before `at` are a regional indicator (U+1F1E6–U+1F1FF: the halves of a flag). */
const regionalIndicatorBefore = (text: string, at: number): boolean => {
  if (at < 2 || text.charCodeAt(at - 2) !== 0xd83c) return false;
  const low = text.charCodeAt(at - 1);
  return low >= 0xdde6 && low <= 0xddff;
};

let segmenter: { segment(text: string): Iterable<{ index: number }> } | null | undefined;

/** The grapheme segmenter of the runtime, made once; null where there is none. */
function graphemes(): { segment(text: string): Iterable<{ index: number }> } | null {
  if (segmenter === undefined) {
    try {
      segmenter =
        typeof Intl === "object" && typeof Intl.Segmenter === "function"
          ? new Intl.Segmenter(undefined, { granularity: "grapheme" })
          : null;
    } catch {
      segmenter = null;
    }
  }
  return segmenter;
}

/**
 * The grapheme boundary nearest `index` on one side (`after`: at or after it, else at or before
 * it), read from a window around it: from a window's length before it (on a code point, and at
 * the start of a run of flags, whose pairing counts from the run's start) to a window's length
 * after it. A cluster that starts where the window does may have started before it, so its
 * boundaries are not known there: the nearest code point boundary stands in.
 */
function cutPoint(text: string, index: number, after: boolean): number {
  const at = Math.min(text.length, Math.max(0, Math.floor(index) || 0));
  if (at === 0 || at === text.length) return at;
  // Between two ASCII characters (but `\r\n`, one cluster) is always a boundary: neither extends
  // the other, and only a prepended mark would join across it (Unicode's UAX #29, GB3 and GB9–GB9b).
  // Most cuts fall there, and are made without asking the segmenter.
  const before = text.charCodeAt(at - 1);
  const atCode = text.charCodeAt(at);
  if (before < 0x80 && atCode < 0x80 && !(before === 13 && atCode === 10)) return at;
  const codePoint = splitsSurrogatePair(text, at) ? at + (after ? 1 : -1) : at;
  const segments = graphemes();
  if (segments === null) return codePoint;
  let from = Math.max(0, at - WINDOW);
  if (splitsSurrogatePair(text, from)) from--;
  const farthest = from - FLAG_RUN;
  while (from > farthest && regionalIndicatorBefore(text, from)) from -= 2;
  let to = Math.min(text.length, at + WINDOW);
  if (splitsSurrogatePair(text, to)) to++;
  // The last start of a cluster before `at`.
  let last = -1;
  for (const { index: offset } of segments.segment(text.slice(from, to))) {
    const position = from + offset;
    if (position === at) return at;
    if (position > at) return last > from || from === 0 ? (after ? position : last) : codePoint;
    last = position;
  }
  // The cluster that holds `at` runs to the end of the window: the end of the text, or not known.
  if (last > from || from === 0) return after ? (to === text.length ? to : codePoint) : last;
  return codePoint;
}

/**
 * The last place at or before `index` where `text` may be cut: a grapheme boundary where the
 * runtime can tell one, else a code point boundary. The start and the end of the text are
 * boundaries.
 *
 * @param text - the text to cut
 * @param index - where a cut was wanted, in UTF-16 code units
 * @returns an index at most `index` (within the text) that splits no character
 * @example
 * cutPointBefore("ab👍🏽", 4); // 2: the thumb and its skin tone stay together
 */
export const cutPointBefore = (text: string, index: number): number => cutPoint(text, index, false);

/**
 * The first place at or after `index` where `text` may be cut: a grapheme boundary where the
 * runtime can tell one, else a code point boundary.
 *
 * @param text - the text to cut
 * @param index - where a cut was wanted, in UTF-16 code units
 * @returns an index at least `index` (within the text) that splits no character
 * @example
 * cutPointAfter("🇯🇵🇺🇸", 2); // 4: the first flag is not split
 */
export const cutPointAfter = (text: string, index: number): number => cutPoint(text, index, true);

/**
 * At most the first `length` code units of `text`, cut where it may be cut.
 *
 * @example
 * headOf("ok 👍🏽", 5); // "ok "
 */
export function headOf(text: string, length: number): string {
  return length >= text.length ? text : text.slice(0, cutPointBefore(text, length));
}

/**
 * At most the last `length` code units of `text`, cut where it may be cut.
 *
 * @example
 * tailOf("👍🏽 ok", 5); // " ok"
 */
export function tailOf(text: string, length: number): string {
  return length >= text.length ? text : length <= 0 ? "" : text.slice(cutPointAfter(text, text.length - length));
}

/**
 * The part of `text[start..end)` that holds whole characters only: `start` moved forward and `end`
 * back to places where the text may be cut.
 *
 * @example
 * sliceWhole("a🚀b🚀c", 2, 5); // "b": neither rocket is split
 */
export function sliceWhole(text: string, start: number, end: number): string {
  const from = cutPointAfter(text, start);
  const to = cutPointBefore(text, end);
  return to > from ? text.slice(from, to) : "";
}
