/**
 * What a text mostly is, as far as the estimate's error goes: bytes / 4 is close to a tokenizer's
 * count on prose and far under it on digits, ids and base64, where a token holds two or three
 * characters.
 */
export type ContentClass = "prose" | "code" | "json" | "digits" | "ids" | "base64" | "cjk" | "emoji";

/**
 * A tokenizer's count ÷ the estimate, per class: o200k's count of the text (plus 4 tokens of framing)
 * against `estimateTokens` of a tool message holding it, as `npm run bench:estimate` measures it
 * (bench/estimate-error.json; Llama 3's tokenizer agrees within a few percent except on emoji,
 * where it counts more). Above 1, the estimate is low. `code` is the mean of plain and line-numbered
 * code, `ids` of UUIDs and hex ids.
 *
 * @example
 * ```ts
 * const likely = estimateTokens([message]) * ESTIMATE_ERROR[classifyText(text)]; // o200k's count, roughly
 * ```
 */
export const ESTIMATE_ERROR: Readonly<Record<ContentClass, number>> = {
  prose: 0.82,
  code: 1.04,
  json: 1.22,
  digits: 2.49,
  ids: 2.35,
  base64: 2.69,
  cjk: 0.82,
  emoji: 1.4,
};

/**
 * How a report names each class.
 *
 * @example
 * ```ts
 * CONTENT_CLASS_LABELS.ids; // "ids (UUIDs, hex)"
 * ```
 */
export const CONTENT_CLASS_LABELS: Readonly<Record<ContentClass, string>> = {
  prose: "prose",
  code: "code",
  json: "JSON records",
  digits: "digit-dense text (CSV, timestamps, numbers)",
  ids: "ids (UUIDs, hex)",
  base64: "base64",
  cjk: "CJK text",
  emoji: "emoji-heavy text",
};

// A run of at least this many base64 characters with upper case, lower case and digits mixed is
// encoded data: a word or an identifier that long rarely mixes all three.
const BASE64_RUN = 20;
// A run of at least this many hex digits (and dashes), with a digit and a letter, is an id:
// UUIDs (36), commit hashes (40, or 7 and up abbreviated), object ids (24).
const HEX_RUN = 8;

const isDigit = (code: number) => code >= 48 && code <= 57;
const isUpper = (code: number) => code >= 65 && code <= 90;
const isLower = (code: number) => code >= 97 && code <= 122;
const isHexLetter = (code: number) => (code >= 97 && code <= 102) || (code >= 65 && code <= 70);
/** A character of base64 or base64url, the dash of a UUID included. */
const isRunCharacter = (code: number) =>
  isDigit(code) ||
  isUpper(code) ||
  isLower(code) ||
  code === 43 ||
  code === 47 ||
  code === 61 ||
  code === 95 ||
  code === 45;
const isSpace = (code: number) => code === 32 || code === 9 || code === 10 || code === 13;
/** Kana, CJK ideographs, Hangul, CJK punctuation and full-width forms. */
const isCjk = (code: number) =>
  (code >= 0x3000 && code <= 0x30ff) ||
  (code >= 0x3400 && code <= 0x4dbf) ||
  (code >= 0x4e00 && code <= 0x9fff) ||
  (code >= 0xac00 && code <= 0xd7af) ||
  (code >= 0xf900 && code <= 0xfaff) ||
  (code >= 0xff00 && code <= 0xffef);
/**
 * A code unit of an emoji: the surrogates of the planes' pictographs (U+1F000–U+1FBFF), the BMP's
 * symbols and dingbats, and the joiners and selectors of ZWJ sequences, keycaps and flags.
 */
const isEmoji = (code: number) =>
  (code >= 0xd83c && code <= 0xd83e) ||
  (code >= 0xdc00 && code <= 0xdfff) ||
  (code >= 0x2600 && code <= 0x27bf) ||
  (code >= 0x2b00 && code <= 0x2bff) ||
  code === 0x200d ||
  code === 0xfe0f ||
  code === 0x20e3;
/** Characters that code has far more of than prose: brackets, operators, separators. */
const isCodePunctuation = (code: number) =>
  code === 40 ||
  code === 41 ||
  code === 123 ||
  code === 125 ||
  code === 91 ||
  code === 93 ||
  code === 59 ||
  code === 61 ||
  code === 60 ||
  code === 62 ||
  code === 95 ||
  code === 124 ||
  code === 38;

/** Counts of one pass over a text, from which its class is decided. */
interface Tally {
  nonSpace: number;
  digits: number;
  cjk: number;
  emoji: number;
  codePunctuation: number;
  /** `"` and `:`: what JSON has more of than anything else. */
  jsonPunctuation: number;
  /** Characters in runs read as base64 or as hex ids. */
  base64: number;
  ids: number;
  /** The first character that is not a space: `{` or `[` opens JSON. */
  first: number;
}

/**
 * Reads `text` once, by character code: no regular expression, so no backtracking, and constant
 * work per character (a run's facts are kept as it grows, and judged when it ends).
 */
function tally(text: string): Tally {
  const counts: Tally = {
    nonSpace: 0,
    digits: 0,
    cjk: 0,
    emoji: 0,
    codePunctuation: 0,
    jsonPunctuation: 0,
    base64: 0,
    ids: 0,
    first: -1,
  };
  let runLength = 0;
  let runDigits = false;
  let runUpper = false;
  let runLower = false;
  let runHexOnly = true;
  let runHexLetter = false;
  const endRun = () => {
    if (runLength >= BASE64_RUN && runDigits && runUpper && runLower) counts.base64 += runLength;
    else if (runLength >= HEX_RUN && runHexOnly && runDigits && runHexLetter) counts.ids += runLength;
    runLength = 0;
    runDigits = runUpper = runLower = runHexLetter = false;
    runHexOnly = true;
  };
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (isSpace(code)) {
      if (runLength > 0) endRun();
      continue;
    }
    counts.nonSpace++;
    if (counts.first === -1) counts.first = code;
    if (isRunCharacter(code)) {
      runLength++;
      if (isDigit(code)) {
        counts.digits++;
        runDigits = true;
      } else if (isHexLetter(code)) {
        runHexLetter = true;
        if (isUpper(code)) runUpper = true;
        else runLower = true;
      } else if (isUpper(code)) {
        runUpper = true;
        runHexOnly = false;
      } else if (isLower(code)) {
        runLower = true;
        runHexOnly = false;
      } else if (code !== 45) runHexOnly = false;
      if (code === 95 || code === 61) counts.codePunctuation++;
      continue;
    }
    if (runLength > 0) endRun();
    if (code === 34 || code === 58) counts.jsonPunctuation++;
    else if (isCodePunctuation(code)) counts.codePunctuation++;
    else if (isCjk(code)) counts.cjk++;
    else if (isEmoji(code)) counts.emoji++;
  }
  if (runLength > 0) endRun();
  return counts;
}

/**
 * The class of a text, in one pass over its character codes (linear in its length, whatever it
 * holds): `base64` when most of it is encoded data, `ids` when much of it is UUIDs or hex ids,
 * `cjk` and `emoji` by their share, `digits` when a third or more of it is digits (CSV, timestamps,
 * tables of numbers), `json` for text that opens as JSON and is dense with its quotes and colons,
 * `code` when dense with brackets and operators, else `prose`.
 *
 * @param text - any text: a tool's output, a message's content, a call's arguments
 * @returns the class whose estimate error applies to most of the text
 * @example
 * ```ts
 * classifyText("2025-03-14T09:00:15.482Z,17.3,2048,412.55"); // "digits"
 * classifyText("The order shipped on Monday and should arrive this week."); // "prose"
 * ```
 */
export function classifyText(text: string): ContentClass {
  const counts = tally(text);
  const of = (part: number) => part / Math.max(1, counts.nonSpace);
  if (of(counts.base64) >= 0.5) return "base64";
  if (of(counts.ids) >= 0.4) return "ids";
  if (of(counts.cjk) >= 0.3) return "cjk";
  if (of(counts.emoji) >= 0.2) return "emoji";
  if (of(counts.digits) >= 0.33) return "digits";
  if ((counts.first === 123 || counts.first === 91) && of(counts.jsonPunctuation) >= 0.08) return "json";
  if (of(counts.codePunctuation) >= 0.04) return "code";
  return "prose";
}
