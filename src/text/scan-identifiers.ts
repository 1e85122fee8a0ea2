// The identifiers in a text: what an agent writes again later (an order id, a path, a function
// name, an amount, a date, an email, a URL). One pass over character codes with no regular
// expression, so untrusted text of any shape costs time linear in its length.

/** Longest run read as one identifier; a longer run (a hash, base64 data) is no name anyone retypes. */
const LONGEST_IDENTIFIER = 200;
/** Longest URL read as one identifier. */
const LONGEST_URL = 400;

const HASH = 35; // #
const DOLLAR = 36; // $
const PERCENT = 37; // %
const PLUS = 43; // +
const COMMA = 44; // ,
const DASH = 45; // -
const DOT = 46; // .
const SLASH = 47; // /
const ZERO = 48;
const NINE = 57;
const COLON = 58; // :
const AT = 64; // @
const UPPER_A = 65;
const UPPER_Z = 90;
const UNDERSCORE = 95; // _
const LOWER_A = 97;
const LOWER_Z = 122;
const TILDE = 126; // ~

const isDigit = (code: number): boolean => code >= ZERO && code <= NINE;
const isUpper = (code: number): boolean => code >= UPPER_A && code <= UPPER_Z;
const isLower = (code: number): boolean => code >= LOWER_A && code <= LOWER_Z;
const isLetter = (code: number): boolean => isUpper(code) || isLower(code);

/** Characters that may stand inside an identifier: letters, digits and `_ . - / # @ : + % ~ $`. */
function isIdentifierCode(code: number): boolean {
  return (
    isLetter(code) ||
    isDigit(code) ||
    code === UNDERSCORE ||
    code === DOT ||
    code === DASH ||
    code === SLASH ||
    code === HASH ||
    code === AT ||
    code === COLON ||
    code === PLUS ||
    code === PERCENT ||
    code === TILDE ||
    code === DOLLAR
  );
}

/** Characters that end a URL: whitespace, quotes, brackets that usually enclose one, and controls. */
function endsUrl(code: number): boolean {
  return (
    code <= 32 ||
    code === 34 ||
    code === 39 ||
    code === 96 ||
    code === 60 ||
    code === 62 ||
    code === 41 ||
    code === 93 ||
    code === 125 ||
    code === 124 ||
    code === 92
  );
}

/** Trailing characters that end a sentence or a clause rather than an identifier. */
const isTrailingPunctuation = (code: number): boolean =>
  code === DOT ||
  code === COMMA ||
  code === COLON ||
  code === DASH ||
  code === SLASH ||
  code === PLUS ||
  code === 59 ||
  code === 33 ||
  code === 63;
/** Leading characters that never start an identifier (`#`, `$`, `/` and `~` may: `#W123`, `$250`, `/etc`, `~/src`). */
const isLeadingPunctuation = (code: number): boolean =>
  code === DOT || code === COLON || code === DASH || code === PLUS || code === AT || code === PERCENT;

const BACKSLASH = 92;
const isHex = (code: number): boolean => isDigit(code) || (code >= 97 && code <= 102) || (code >= 65 && code <= 70);

/**
 * Where a run that follows a backslash starts once a JSON escape is read as the separator it
 * stands for: `\nORD-1` names `ORD-1`, `\u0022#W1` names `#W1`. A letter of `n t r b f` is taken
 * for an escape only when no lowercase letter follows it, since a Windows path writes the same
 * characters (`C:\nodejs` keeps `nodejs`); `u` and four hexadecimal digits always are.
 */
function afterEscape(text: string, from: number, to: number): number {
  const code = text.charCodeAt(from);
  if (
    code === 117 &&
    to - from >= 5 &&
    isHex(text.charCodeAt(from + 1)) &&
    isHex(text.charCodeAt(from + 2)) &&
    isHex(text.charCodeAt(from + 3)) &&
    isHex(text.charCodeAt(from + 4))
  )
    return from + 5;
  const escaped = code === 110 || code === 116 || code === 114 || code === 98 || code === 102;
  return escaped && !isLower(text.charCodeAt(from + 1)) ? from + 1 : from;
}

/** True when `text[from..to)` starts with `http://` or `https://`, in any case. */
function startsUrl(text: string, from: number, to: number): boolean {
  const scheme = text.slice(from, Math.min(to, from + 8)).toLowerCase();
  return scheme.startsWith("http://") || scheme.startsWith("https://");
}

/**
 * Tells whether a run of identifier characters is a fact worth keeping, by what it holds: a digit
 * (ids, amounts, dates: `#W2378156`, `HAT106`, `gift_card_7480005`, `250.00`, `2024-05-01`), a
 * path separator with a letter (`src/app.ts`), a file name with an extension (`models.py`), an
 * email, or a name as code writes one (`snake_case`, `camelCase`, `PascalCase`, `module.name`).
 */
function isFact(text: string, from: number, to: number): boolean {
  const length = to - from;
  if (length < 3 || length > LONGEST_IDENTIFIER) return false;
  let digits = 0;
  let letters = 0;
  let underscores = 0;
  let slashes = 0;
  let at = -1;
  let lastDot = -1;
  let caseChanges = 0;
  let previous = 0;
  for (let index = from; index < to; index++) {
    const code = text.charCodeAt(index);
    if (isDigit(code)) digits++;
    else if (isLetter(code)) {
      letters++;
      if (isUpper(code) && isLower(previous)) caseChanges++;
    } else if (code === UNDERSCORE) underscores++;
    else if (code === SLASH) slashes++;
    else if (code === AT) at = index;
    else if (code === DOT) lastDot = index;
    previous = code;
  }
  if (digits > 0) return digits + letters >= 2;
  if (letters === 0) return false;
  if (slashes > 0) return true;
  if (at > from && lastDot > at + 1) return true;
  if (underscores > 0 || caseChanges > 0) return true;
  // `name.ext` or `module.name`: a dot with a letter-led name of two or more characters before it.
  return lastDot > from + 1 && lastDot < to - 1 && isLetter(text.charCodeAt(from));
}

/**
 * Calls `visit` with each identifier of `text`, in order (repeats included), as `text.slice(start, end)`.
 * Returns early when `visit` returns `false`. Linear in the length of `text`.
 *
 * @param text - any text
 * @param visit - called with each identifier and where it stands
 */
export function scanIdentifiers(
  text: string,
  visit: (identifier: string, start: number, end: number) => unknown,
): void {
  const length = text.length;
  let index = 0;
  while (index < length) {
    if (!isIdentifierCode(text.charCodeAt(index))) {
      index++;
      continue;
    }
    let end = index;
    while (end < length && isIdentifierCode(text.charCodeAt(end))) end++;
    let start = index > 0 && text.charCodeAt(index - 1) === BACKSLASH ? afterEscape(text, index, end) : index;
    if (startsUrl(text, start, end)) {
      while (end < length && !endsUrl(text.charCodeAt(end))) end++;
    }
    const runEnd = end;
    while (start < end && isLeadingPunctuation(text.charCodeAt(start))) start++;
    while (end > start && isTrailingPunctuation(text.charCodeAt(end - 1))) end--;
    const url = startsUrl(text, start, end);
    const fact = url ? end - start > 10 && end - start <= LONGEST_URL : isFact(text, start, end);
    if (fact && visit(text.slice(start, end), start, end) === false) return;
    index = runEnd;
  }
}

/**
 * The distinct identifiers of `text`, in order of first appearance, at most `limit` of them.
 *
 * @param text - any text
 * @param limit - the most to return
 */
export function identifiersOf(text: string, limit = Number.POSITIVE_INFINITY): string[] {
  const found = new Set<string>();
  if (limit <= 0) return [];
  scanIdentifiers(text, (identifier) => {
    found.add(identifier);
    return found.size < limit;
  });
  return [...found];
}
