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

/** True when `text` at `at` holds `name` (lowercase ASCII), in any case. */
function sameLetters(text: string, at: number, name: string): boolean {
  for (let offset = 0; offset < name.length; offset++) {
    // Setting bit 5 lowercases an ASCII letter and leaves `-` as it is (it also reads a carriage
    // return as `-`: escaping one tag too many is harmless).
    if ((text.charCodeAt(at + offset) | 0x20) !== name.charCodeAt(offset)) return false;
  }
  return true;
}

/** The length of the fence name at `at`, in any case, when one stands there followed by a space, `/`, `>` or the end. */
function fenceNameAt(text: string, at: number): number {
  for (const name of FENCE_NAMES) {
    if (at + name.length > text.length || !sameLetters(text, at, name)) continue;
    const next = text.charCodeAt(at + name.length);
    if (at + name.length === text.length || isSpace(next) || next === 47 || next === 62) return name.length;
  }
  return 0;
}

/**
 * Makes the prompt's section tags inert inside text placed in a section, so that no message, tool
 * result or summary can close its section or open another: `</transcript>` becomes
 * `&lt;/transcript>`, however spaced or cased. Linear in the length of `text`.
 */
export function escapeFences(text: string): string {
  let result = "";
  let copied = 0;
  let index = text.indexOf("<");
  while (index !== -1) {
    let at = index + 1;
    while (at < text.length && isSpace(text.charCodeAt(at))) at++;
    if (text.charCodeAt(at) === 47) at++;
    while (at < text.length && isSpace(text.charCodeAt(at))) at++;
    if (fenceNameAt(text, at) > 0) {
      result += `${text.slice(copied, index)}&lt;`;
      copied = index + 1;
    }
    // Whatever follows the next `<` is scanned from there: each character is read at most twice.
    index = text.indexOf("<", index + 1);
  }
  return copied === 0 ? text : result + text.slice(copied);
}
