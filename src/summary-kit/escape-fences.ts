// The prompt's own section tags, made inert inside the text placed in a section. A scan over
// character codes rather than a regular expression: `<` followed by a megabyte of spaces would make
// a pattern with two runs of optional whitespace backtrack quadratically.

/** The names of the prompt's sections. */
const FENCE_NAMES = ["previous-summary", "transcript", "instructions"];

// Characters a reader takes for `<`: Unicode's confusables for it (confusables.txt: the
// modifier-letter arrowhead, the Canadian syllabics, runic kauna, the angle quotation mark and
// its ornaments, the Greek instrumental notation symbol), the fullwidth and small forms, the angle
// brackets of other blocks, and the double angle brackets (CJK `《` and the mathematical `⟪`). For
// `/` and `>` no table is needed: a character outside ASCII where a slash may stand is taken for
// one (see `escapeFences`), and one right after a section's name ends it (see `asSeen`), as the
// division and fraction slashes, katakana no or `›` do; and a backslash is a slash, since
// `<\transcript>` reads as a closing tag to a reader who does not check which way it leans.
const OPENERS = new Set([
  0x3c, 0xff1c, 0xfe64, 0x2039, 0x3008, 0x2329, 0x27e8, 0x276e, 0x276c, 0x2770, 0x29fc, 0x1438, 0x02c2, 0x16b2, 0x1d236,
  0x300a, 0x27ea,
]);

const lowerAscii = (code: number): number => (code >= 65 && code <= 90 ? code | 0x20 : code);

/** Whether a character is read past between the parts of a tag: a space, or one that shows nothing. */
const skipped = (code: number): boolean => /^\s*$/.test(asSeen(code));

/** What `asSeen` found for the characters outside ASCII met lately: a text repeats the few it uses. */
const seenCache = new Map<number, string>();

/**
 * A character as a reader sees it: lowercase, folded by NFKD (fullwidth, mathematical and circled
 * letters, ligatures) with its marks dropped, "" for one that shows nothing (a combining mark, or
 * one of Unicode's Default_Ignorable_Code_Point, DerivedCoreProperties.txt: the soft hyphen, the
 * combining grapheme joiner, the Hangul fillers, zero-width spaces, joiners and direction marks,
 * variation selectors, the tag characters), a space for any space, and `*` for any other
 * character outside ASCII. A reader may take `*` for any letter of a section's name: Unicode's
 * confusables for those letters (confusables.txt: Cyrillic, Greek, Armenian and Cherokee letters,
 * small capitals, the dashes for `-`) are all outside ASCII, and so is every character a table of
 * them may not list yet. A text that shows a section's name with a few letters of another script
 * is so taken for the tag, and escaped: no text of any script reads as one otherwise. A `0` that a
 * fullwidth or mathematical digit folds to is read as `o`.
 */
function asSeen(code: number): string {
  if (code < 0x80) return String.fromCharCode(lowerAscii(code));
  const cached = seenCache.get(code);
  if (cached !== undefined) return cached;
  if (seenCache.size >= 4096) seenCache.clear();
  const character = String.fromCodePoint(code);
  const folded = character.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
  const seen = /\p{DI}/u.test(character)
    ? ""
    : /^\s+$/.test(folded)
      ? " "
      : /^[!-~]*$/.test(folded)
        ? folded.replace(/0/g, "o")
        : "*";
  seenCache.set(code, seen);
  return seen;
}

/** Whether the character read at position `index` of a fence name matches it: `*` reads as any, its dash also as `_` or a space. */
const sameAt = (name: string, index: number, seen: number): boolean =>
  name.charCodeAt(index) === seen || seen === 42 || (name.charCodeAt(index) === 45 && (seen === 95 || seen === 32));

/** A character a name does not go on with (`transcripts` is another word, `transcript>` and `transcript ` are the tag). */
const endsName = (seen: number): boolean =>
  !((seen >= 97 && seen <= 122) || (seen >= 48 && seen <= 57) || seen === 45 || seen === 95);

/** Whether a fence name, as a reader sees it, stands at `at`, followed by anything a name does not go on with, or the end. */
function fenceNameAt(text: string, at: number): boolean {
  // Every name starts with p, t or i: any other ASCII character rules a tag out without reading on.
  const first = text.charCodeAt(at) | 0x20;
  if (text.charCodeAt(at) < 0x80 && first !== 0x70 && first !== 0x74 && first !== 0x69) return false;
  // The names still possible, narrowed as each character is read. Invisible characters are read
  // past without counting, so each character is read by at most the openers among the few visible
  // characters before it: linear in the length of `text`.
  let alive = FENCE_NAMES;
  let position = 0;
  for (let index = at; index < text.length; ) {
    const code = text.codePointAt(index) as number;
    index += code > 0xffff ? 2 : 1;
    const seen = asSeen(code);
    for (let part = 0; part < seen.length; part++) {
      const next = seen.charCodeAt(part);
      if (alive.some((name) => name.length === position && endsName(next))) return true;
      alive = alive.filter((name) => name.length > position && sameAt(name, position, next));
      if (alive.length === 0) return false;
      position++;
    }
  }
  // The end of the text right after a whole name.
  return alive.some((name) => name.length === position);
}

/**
 * The character that stands at `index`, as `[length, code point]`: itself, or the HTML character
 * reference that writes it (`&lt;` with or without its semicolon, `&#60;`, `&#x3c;`, and the named
 * references of the look-alike openers and of `/`: `&lang;`, `&langle;`, `&LeftAngleBracket;`,
 * `&lsaquo;`, `&sol;`, as the HTML standard's table names them), its JSON escape (`\u003c`), or its
 * percent-encoded UTF-8 (`%3C`, `%EF%BC%9C`), as many bytes as the first says.
 */
function readAt(text: string, index: number): [number, number] {
  const code = text.charCodeAt(index);
  const point = text.codePointAt(index) as number;
  try {
    if (code === 38) {
      const [whole, lessThan, angle, quote, solidus, numeric] =
        /^&(?:(lt;?)|(lang(?:le)?|leftanglebracket);|(lsaquo);|(sol);|#(x0*[\da-f]{1,6}|0*\d{1,7});?)/i.exec(
          text.slice(index, index + 20),
        ) ?? [];
      if (whole !== undefined)
        return [whole.length, lessThan ? 60 : angle ? 0x27e8 : quote ? 0x2039 : solidus ? 47 : Number(`0${numeric}`)];
    }
    if (code === 92 && /^\\u[\da-f]{4}$/i.test(text.slice(index, index + 6)))
      return [6, Number.parseInt(text.slice(index + 2, index + 6), 16)];
    if (code === 37) {
      const lead = Number.parseInt(text.slice(index + 1, index + 3), 16);
      const length = 3 * (lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4);
      return [length, decodeURIComponent(text.slice(index, index + length)).codePointAt(0) as number];
    }
  } catch {
    // Not UTF-8: the `%` itself.
  }
  return [point > 0xffff ? 2 : 1, point];
}

/**
 * The opener that stands at `index`, as `[length, replacement]`, or undefined: a `<` or a
 * character a reader takes for one (replaced by `&lt;`), written as it is or as `readAt` reads it;
 * of an HTML character reference the `&` becomes `&amp;`, as the HTML standard escapes text.
 */
function openerAt(text: string, index: number): [number, string] | undefined {
  const code = text.charCodeAt(index);
  if (code < 0x80 && code !== 60 && code !== 38 && code !== 92 && code !== 37) return undefined;
  const [length, point] = readAt(text, index);
  return OPENERS.has(point) ? [length, code === 38 ? "&amp;" : "&lt;"] : undefined;
}

/** The length of a slash (or a run of them) at `at`: `/`, or a backslash, as `readAt` reads it (`\/` as JSON writes it, `&#47;`, `&sol;`, `\u002f`, `%2F`). */
function slashesAt(text: string, at: number): number {
  let end = at;
  for (let [length, point] = readAt(text, end); point === 47 || point === 92; [length, point] = readAt(text, end))
    end += length;
  return end - at;
}

function skipAt(text: string, at: number): number {
  let end = at;
  for (let point = text.codePointAt(end); point !== undefined && skipped(point); point = text.codePointAt(end))
    end += point > 0xffff ? 2 : 1;
  return end;
}

/**
 * Makes the prompt's section tags inert inside text placed in a section, so that no message, tool
 * result or summary can close its section or open another: `</transcript>` becomes
 * `&lt;/transcript>`, however spaced or cased, and so do the tags a reader takes for one: invisible
 * or combining characters inside, brackets and slashes of other blocks (fullwidth, small forms,
 * Unicode's confusables for them), letters of other scripts or small capitals for the Latin ones,
 * `_` or a space for the dash. A tag written as an HTML character reference (`&lt;/transcript&gt;`)
 * has its `&` escaped (`&amp;lt;/transcript&gt;`), and one written as a JSON or percent escape of `<`
 * has the escape replaced by `&lt;`. Linear in the length of `text`.
 */
export function escapeFences(text: string): string {
  let result = "";
  let copied = 0;
  for (let index = 0; index < text.length; index++) {
    const opener = openerAt(text, index);
    if (opener === undefined) continue;
    const [length, replacement] = opener;
    let at = skipAt(text, index + length);
    const slashes = slashesAt(text, at);
    if (slashes > 0) at = skipAt(text, at + slashes);
    // Whatever follows is scanned again from the next opener: each character is read a bounded
    // number of times. Where no slash was read, one character outside ASCII may stand for it.
    const point = text.codePointAt(at) as number;
    if (
      fenceNameAt(text, at) ||
      (slashes === 0 && point > 0x7f && fenceNameAt(text, skipAt(text, at + (point > 0xffff ? 2 : 1))))
    ) {
      result += `${text.slice(copied, index)}${replacement}`;
      copied = index + (replacement === "&amp;" ? 1 : length);
    }
  }
  return copied === 0 ? text : result + text.slice(copied);
}
