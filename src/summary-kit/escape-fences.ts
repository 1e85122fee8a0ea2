// The prompt's own section tags, made inert inside the text placed in a section. A scan over
// character codes rather than a regular expression: `<` followed by a megabyte of spaces would make
// a pattern with two runs of optional whitespace backtrack quadratically.

/** The names of the prompt's sections. */
const FENCE_NAMES = ["previous-summary", "transcript", "instructions"];

/** What JavaScript's `\s` matches. */
function isSpace(code: number): boolean {
  return (
    (code >= 9 && code <= 13) ||
    code === 32 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * Characters that show nothing, by code point: Unicode's Default_Ignorable_Code_Point
 * (DerivedCoreProperties.txt: the soft hyphen, the combining grapheme joiner, the Arabic letter
 * mark, the Hangul fillers, the Khmer inherent vowels, the Mongolian variation selectors and vowel
 * separator, zero-width spaces, joiners and direction marks, the invisible operators, variation
 * selectors, the tag characters), and the byte-order mark.
 */
function isInvisible(code: number): boolean {
  return (
    code === 0xad ||
    code === 0x34f ||
    code === 0x61c ||
    code === 0x115f ||
    code === 0x1160 ||
    code === 0x17b4 ||
    code === 0x17b5 ||
    (code >= 0x180b && code <= 0x180f) ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x206f) ||
    code === 0x3164 ||
    (code >= 0xfe00 && code <= 0xfe0f) ||
    code === 0xfeff ||
    code === 0xffa0 ||
    (code >= 0xfff0 && code <= 0xfff8) ||
    (code >= 0x1bca0 && code <= 0x1bca3) ||
    (code >= 0x1d173 && code <= 0x1d17a) ||
    (code >= 0xe0000 && code <= 0xe0fff)
  );
}

/** Combining marks of the blocks that hold only them: they draw on the character before, not as one. */
function isCombining(code: number): boolean {
  return (
    (code >= 0x300 && code <= 0x36f) ||
    (code >= 0x1ab0 && code <= 0x1aff) ||
    (code >= 0x1dc0 && code <= 0x1dff) ||
    (code >= 0x20d0 && code <= 0x20ff) ||
    (code >= 0xfe20 && code <= 0xfe2f)
  );
}

const skipped = (code: number): boolean => isSpace(code) || isInvisible(code) || isCombining(code);

// Characters a reader takes for `<`, `/` and `>`: Unicode's confusables for them
// (confusables.txt: the modifier-letter arrowheads, Canadian syllabics, runic kauna, the angle
// quotation marks and their ornaments, the fraction, division and box-drawing slashes, katakana no,
// the CJK slash strokes, the Greek instrumental notation symbols), the fullwidth and small forms
// and the angle brackets of other blocks; and for `/`, the backslash too, since `<\transcript>` reads
// as a closing tag to a reader who does not check which way it leans.
const OPENERS = new Set([
  0x3c, 0xff1c, 0xfe64, 0x2039, 0x3008, 0x2329, 0x27e8, 0x276e, 0x276c, 0x2770, 0x29fc, 0x1438, 0x02c2, 0x16b2, 0x1d236,
]);
const SLASHES = new Set([
  0x2f, 0xff0f, 0x2215, 0x2044, 0x29f8, 0x1735, 0x2041, 0x2571, 0x27cb, 0x2cc6, 0x2f03, 0x3033, 0x30ce, 0x31d3, 0x4e3f,
  0x1d23a, 0x5c, 0xff3c, 0x29f5, 0x29f9, 0x2216, 0x337, 0x338,
]);
const CLOSERS = new Set([
  0x3e, 0xff1e, 0xfe65, 0x203a, 0x3009, 0x232a, 0x27e9, 0x276f, 0x276d, 0x2771, 0x29fd, 0x1433, 0x02c3, 0x16f3f,
  0x1d237,
]);

// Letters drawn like the Latin letters of the section names, and dashes drawn like `-`: the
// confusables of those letters in Unicode's confusables.txt that compatibility decomposition does
// not fold already (fullwidth and mathematical letters are folded by NFKD), Cyrillic and Greek
// letters of both cases, the Latin small capitals, and `_` for the dash of `previous-summary`.
const LOOK_ALIKES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    a: "аАαΑɑᎪᗅ⍺ꓮᴀ",
    c: "сСϲϹᏟᴄⲤⲥꓚꮯ",
    e: "еЕεΕҽᎬ℮⋿ⴹꓰꬲᴇ",
    i: "іІιΙӀıɩɪ˛ͺӏᎥ⍳ꙇꭵ",
    m: "мМΜϺᎷᗰᛖⲘꓟᴍ",
    n: "пΝηոռⲚꓠɴ",
    o: "оОοΟσ0Օօסه٥ھہە۵߀०০੦૦ଠ୦௦ం౦ಂ೦ംഠ൦ං๐໐ဝ၀ჿዐᴏᴑⲞⲟⵔ〇ꓳꬽ",
    p: "рРρΡᏢᑭ⍴Ⲣⲣꓑᴘ",
    r: "гᴦƦᎡᏒᖇⲅꓣꭇꭈꮁʀ",
    s: "ѕЅƽՏᏕᏚꓢꜱꮪ",
    t: "тТτΤᎢ⊤⟙Ⲧꓔᴛ",
    u: "υμʋՍսሀᑌᴜ∪⋃ꓴꞟꭎꭒ",
    v: "νѵѴט٧۷Ꮩᐯᴠ∨⋁ⴸꓦꛟꮩ",
    y: "уУγΥɣʏҮүყᎩᎽᶌỿⲨꓬꭚ",
    "-": "‐‒–—―−⁃˗۔➖Ⲻ",
  }).flatMap(([latin, others]) => [...others].map((other) => [other, latin] as [string, string])),
);

const lowerAscii = (code: number): number => (code >= 65 && code <= 90 ? code | 0x20 : code);

/** What `asSeen` found for the non-ASCII characters met lately: a text repeats the few it uses. */
const seenCache = new Map<number, string>();

/** A letter as a reader sees it, or "" for one that shows nothing: folded by NFKD, marks dropped, look-alikes read as the Latin letter, lowercase. */
function asSeen(code: number): string {
  if (code < 0x80) return String.fromCharCode(lowerAscii(code));
  const cached = seenCache.get(code);
  if (cached !== undefined) return cached;
  if (seenCache.size >= 4096) seenCache.clear();
  const seen = readAs(code);
  seenCache.set(code, seen);
  return seen;
}

function readAs(code: number): string {
  if (isInvisible(code)) return "";
  if (CLOSERS.has(code)) return ">";
  if (SLASHES.has(code)) return "/";
  const character = String.fromCodePoint(code);
  const alike = LOOK_ALIKES.get(character);
  if (alike !== undefined) return alike;
  let seen = "";
  for (const part of character.normalize("NFKD")) {
    const partCode = part.codePointAt(0) as number;
    if (isCombining(partCode) || /\p{M}/u.test(part)) continue;
    seen += LOOK_ALIKES.get(part) ?? part.toLowerCase();
  }
  return seen;
}

/** Whether the character read at position `index` of a fence name matches it: its dash also reads as `_` or a space. */
const sameAt = (name: string, index: number, seen: number): boolean =>
  name.charCodeAt(index) === seen || (name.charCodeAt(index) === 45 && (seen === 95 || seen === 32));

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

const startsWithAt = (text: string, at: number, word: string): boolean =>
  text.slice(at, at + word.length).toLowerCase() === word;

/**
 * The opener that stands at `index`, as `[length, replacement]`, or undefined: a `<` or a
 * character a reader takes for one (replaced by `&lt;`), an HTML character reference for `<`
 * (`&lt;`, `&#60;`, `&#x3c;`, whose `&` becomes `&amp;`: escaped as the HTML standard escapes text),
 * a JSON escape for it (`\u003c`) or a percent-encoded one (`%3C`), both replaced by `&lt;`.
 */
function openerAt(text: string, index: number): [number, string] | undefined {
  const code = text.charCodeAt(index);
  if (code < 0x80 && code !== 60 && code !== 38 && code !== 92 && code !== 37) return undefined;
  if (code === 38) {
    // &lt; &LT; &#60; &#060; &#x3c; &#X3C; (the semicolon may be left out, as HTML allows for these)
    if (startsWithAt(text, index, "&lt")) return [text.charCodeAt(index + 3) === 59 ? 4 : 3, "&amp;"];
    if (text.charCodeAt(index + 1) !== 35) return undefined;
    let at = index + 2;
    const hex = (text.charCodeAt(at) | 0x20) === 120;
    if (hex) at++;
    while (text.charCodeAt(at) === 48 && at - index < 12) at++;
    const digits = hex ? "3c" : "60";
    if (!startsWithAt(text, at, digits)) return undefined;
    at += 2;
    return [at - index + (text.charCodeAt(at) === 59 ? 1 : 0), "&amp;"];
  }
  if (code === 92 && startsWithAt(text, index, "\\u003c")) return [6, "&lt;"];
  if (code === 37 && startsWithAt(text, index, "%3c")) return [3, "&lt;"];
  const point = text.codePointAt(index) as number;
  return OPENERS.has(point) ? [point > 0xffff ? 2 : 1, "&lt;"] : undefined;
}

/** The length of a slash (or a run of them) at `at`: `/` and its look-alikes, `\/` as JSON writes it, `&#47;`, `&sol;`, `\u002f`, `%2F`. */
function slashesAt(text: string, at: number): number {
  let end = at;
  for (;;) {
    const point = text.codePointAt(end) as number;
    if (SLASHES.has(point)) end += point > 0xffff ? 2 : 1;
    else if (point !== 38 && point !== 92 && point !== 37) return end - at;
    else if (startsWithAt(text, end, "&#47;") || startsWithAt(text, end, "&sol;")) end += 5;
    else if (startsWithAt(text, end, "&#x2f;")) end += 6;
    else if (startsWithAt(text, end, "\\u002f")) end += 6;
    else if (startsWithAt(text, end, "%2f")) end += 3;
    else return end - at;
  }
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
    // Whatever follows is scanned again from the next opener: each character is read a bounded number of times.
    if (fenceNameAt(text, at)) {
      result += `${text.slice(copied, index)}${replacement}`;
      copied = index + (replacement === "&amp;" ? 1 : length);
    }
  }
  return copied === 0 ? text : result + text.slice(copied);
}
