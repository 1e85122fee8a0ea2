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

/** Characters that show nothing: zero-width spaces and joiners, direction marks, the soft hyphen, variation selectors. */
function isInvisible(code: number): boolean {
  return (
    code === 0xad ||
    code === 0x34f ||
    code === 0x61c ||
    code === 0x180e ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x206f) ||
    (code >= 0xfe00 && code <= 0xfe0f) ||
    code === 0xfeff
  );
}

const skipped = (code: number): boolean => isSpace(code) || isInvisible(code);

/** `<` and what a reader takes for one: fullwidth, small, and the angle brackets of other scripts. */
const OPENERS = new Set([0x3c, 0xff1c, 0xfe64, 0x2039, 0x3008, 0x2329, 0x27e8, 0x276e, 0x1438]);
/** `/` and its look-alikes: fullwidth, division and fraction slashes. */
const SLASHES = new Set([0x2f, 0xff0f, 0x2215, 0x2044, 0x29f8]);
/** `>` and its look-alikes, which may end a tag as well as `>`. */
const CLOSERS = new Set([0x3e, 0xff1e, 0xfe65, 0x203a, 0x3009, 0x232a, 0x27e9, 0x276f, 0x1433]);

// Letters of other scripts drawn like the Latin letters of the section names (Cyrillic and Greek,
// both cases), and dashes drawn like `-`; fullwidth and mathematical letters are folded by NFKC.
const LOOK_ALIKES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    a: "аАαΑ",
    c: "сСϲϹ",
    e: "еЕεΕ",
    i: "іІιΙӀ",
    m: "мМΜ",
    n: "пΝη",
    o: "оОοΟσ",
    p: "рРρΡ",
    r: "гᴦ",
    s: "ѕЅ",
    t: "тТτΤ",
    u: "υμ",
    v: "νѵ",
    y: "уУγΥ",
    "-": "‐‑‒–—―−﹣－⁃",
  }).flatMap(([latin, others]) => [...others].map((other) => [other, latin] as [string, string])),
);

/** Up to `length` characters from `at`, as a reader sees them: invisible characters dropped, look-alikes read as the Latin letter, lowercase. */
function asRead(text: string, at: number, length: number): string {
  let read = "";
  for (const character of text.slice(at, at + length * 4).normalize("NFKC")) {
    if (read.length > length) break;
    const code = character.charCodeAt(0);
    if (isInvisible(code)) continue;
    read += CLOSERS.has(code) ? ">" : SLASHES.has(code) ? "/" : (LOOK_ALIKES.get(character) ?? character.toLowerCase());
  }
  return read;
}

/** Whether a fence name, as a reader sees it, stands at `at`, followed by a space, `/`, `>` or the end. */
function fenceNameAt(text: string, at: number): boolean {
  // Every name starts with p, t or i: any other ASCII character rules a tag out without reading on.
  const first = text.charCodeAt(at) | 0x20;
  if (text.charCodeAt(at) < 0x80 && first !== 0x70 && first !== 0x74 && first !== 0x69) return false;
  const read = asRead(text, at, LONGEST_NAME + 1);
  for (const name of FENCE_NAMES) {
    if (!read.startsWith(name)) continue;
    if (read.length === name.length) return true;
    const next = read.charCodeAt(name.length);
    if (isSpace(next) || next === 47 || next === 62) return true;
  }
  return false;
}

const LONGEST_NAME = Math.max(...FENCE_NAMES.map((name) => name.length));

/**
 * Makes the prompt's section tags inert inside text placed in a section, so that no message, tool
 * result or summary can close its section or open another: `</transcript>` becomes
 * `&lt;/transcript>`, however spaced or cased, and so do the tags a reader takes for one (zero-width
 * characters inside, fullwidth brackets, Cyrillic or Greek letters for Latin ones). Linear in the
 * length of `text`.
 */
export function escapeFences(text: string): string {
  let result = "";
  let copied = 0;
  for (let index = 0; index < text.length; index++) {
    if (!OPENERS.has(text.charCodeAt(index))) continue;
    let at = index + 1;
    while (at < text.length && skipped(text.charCodeAt(at))) at++;
    if (SLASHES.has(text.charCodeAt(at))) at++;
    while (at < text.length && skipped(text.charCodeAt(at))) at++;
    // Whatever follows is scanned again from the next opener: each character is read at most twice.
    if (fenceNameAt(text, at)) {
      result += `${text.slice(copied, index)}&lt;`;
      copied = index + 1;
    }
  }
  return copied === 0 ? text : result + text.slice(copied);
}
