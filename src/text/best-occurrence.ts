// Where a needle stands best in a text: as a whole word, as a whole part of a longer identifier, or
// only inside a longer word. One pass over the text, whatever the needle and the text are.

import { splitsSurrogatePair } from "./cut-points.js";

/** How a needle stands where it is found, best first. */
export const STANDS_AS_WORD = 0;
/** A whole part of a longer identifier: `app_config` in `cls._meta.app_config._is_default`. */
export const STANDS_AS_PART = 1;
/** Only inside a longer word: `10` in `100`, `app_config` in `app_configs`. */
export const STANDS_INSIDE = 2;

/** Where a needle was found, and how it stands there. */
export interface Occurrence {
  at: number;
  stands: typeof STANDS_AS_WORD | typeof STANDS_AS_PART | typeof STANDS_INSIDE;
}

/**
 * A character that continues a word.
 *
 * @example
 * isWordCode("_".charCodeAt(0)); // true
 */
export function isWordCode(code: number): boolean {
  return ((code | 0x20) >= 97 && (code | 0x20) <= 122) || (code >= 48 && code <= 57) || code === 95;
}

/**
 * A character that joins the parts of an identifier (`self.storage`, `src/app`, `gift-card`).
 *
 * @example
 * isJoinCode(".".charCodeAt(0)); // true
 */
export function isJoinCode(code: number): boolean {
  return code === 46 || code === 47 || code === 45;
}

/**
 * How the occurrence of `needle` at `at` in `text` stands. A whole word is not inside a longer word
 * (`10` in `100`) nor a part of a longer identifier (`storage.url` in `self.storage.url`); a
 * sentence's full stop after it still ends it. A whole part has no word character on either side,
 * only the `.`, `/` or `-` that join it to the rest of its identifier.
 */
function standing(text: string, needle: string, at: number): Occurrence["stands"] {
  const end = at + needle.length;
  const before = at === 0 ? -1 : text.charCodeAt(at - 1);
  const after = end >= text.length ? -1 : text.charCodeAt(end);
  const afterNext = end + 1 >= text.length ? -1 : text.charCodeAt(end + 1);
  // A needle that starts (or ends) with a character of no word has that edge whatever is beside it.
  const openStart = before === -1 || !isWordCode(needle.charCodeAt(0)) || !isWordCode(before);
  const openEnd = after === -1 || !isWordCode(needle.charCodeAt(needle.length - 1)) || !isWordCode(after);
  if (!openStart || !openEnd) return STANDS_INSIDE;
  const startsWord = before === -1 || !isWordCode(needle.charCodeAt(0)) || !isJoinCode(before);
  const endsWord =
    after === -1 || !isWordCode(needle.charCodeAt(needle.length - 1)) || !(isJoinCode(after) && isWordCode(afterNext));
  return startsWord && endsWord ? STANDS_AS_WORD : STANDS_AS_PART;
}

/**
 * The first place where `needle` stands best in `text` (a whole word, else a whole part of an
 * identifier, else anywhere), or undefined when `text` does not hold it. Every occurrence is found
 * by one Knuth–Morris–Pratt pass, so the work is linear in `text` plus `needle` even where the
 * needle occurs at every character (`aaa` in `aaaa…`). An empty needle is found nowhere, and a
 * match that would split a character (half of an emoji's surrogate pair) is none.
 *
 * @example
 * bestOccurrence("app_configs; cls._meta.app_config._is", "app_config"); // { at: 23, stands: STANDS_AS_PART }
 */
export function bestOccurrence(text: string, needle: string): Occurrence | undefined {
  const length = needle.length;
  if (length === 0 || length > text.length) return undefined;
  // fallback[i]: the length of the longest proper prefix of needle[0..i] that is also its suffix.
  const fallback = new Uint32Array(length);
  for (let index = 1, matched = 0; index < length; index++) {
    while (matched > 0 && needle.charCodeAt(index) !== needle.charCodeAt(matched)) matched = fallback[matched - 1]!;
    if (needle.charCodeAt(index) === needle.charCodeAt(matched)) matched++;
    fallback[index] = matched;
  }
  let best: Occurrence | undefined;
  for (let index = 0, matched = 0; index < text.length; index++) {
    while (matched > 0 && text.charCodeAt(index) !== needle.charCodeAt(matched)) matched = fallback[matched - 1]!;
    if (text.charCodeAt(index) === needle.charCodeAt(matched)) matched++;
    if (matched === length) {
      const at = index - length + 1;
      // A needle with a lone surrogate at an edge may match half of an emoji: not an occurrence of it.
      if (splitsSurrogatePair(text, at) || splitsSurrogatePair(text, index + 1)) {
        matched = fallback[length - 1]!;
        continue;
      }
      const stands = standing(text, needle, at);
      if (stands === STANDS_AS_WORD) return { at, stands };
      if (best === undefined || stands < best.stands) best = { at, stands };
      matched = fallback[length - 1]!;
    }
  }
  return best;
}
