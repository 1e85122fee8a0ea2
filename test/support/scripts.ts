// Text of every script, for the property tests of everything that cuts text: emoji that are
// several code points (ZWJ sequences, flags, skin tones, keycaps, tag sequences), CJK, Hangul,
// combining marks, right-to-left scripts and other astral characters, among the ids, paths and
// secrets of tool output.
import fc from "fast-check";

/** Pieces of text, each whole grapheme clusters, that a cut may land inside of. */
export const SCRIPT_PIECES: readonly string[] = [
  // ZWJ sequences
  "👨‍👩‍👧‍👦",
  "🧑🏽‍💻",
  "👩‍❤️‍💋‍👨",
  "🏳️‍🌈",
  "🐻‍❄️",
  // flags: regional indicator pairs and a tag sequence
  "🇯🇵",
  "🇺🇸",
  "🇩🇪🇫🇷",
  "🏴󠁧󠁢󠁳󠁣󠁴󠁿",
  // skin tones, keycaps, variation selectors
  "👍🏽",
  "👋🏿",
  "1️⃣",
  "⚠️",
  "✅",
  "❌",
  "🚀",
  "🔥",
  // CJK, Hangul, kana
  "日本語の文章です。",
  "中文测试内容",
  "한국어 문장입니다",
  "カタカナ",
  // combining marks, Indic and Thai clusters
  "e\u0301",
  "n\u0303",
  "a\u0308\u0323",
  "क्षि",
  "กำ",
  // right to left, Cyrillic
  "مرحبا بالعالم",
  "שלום",
  "Привет мир",
  // other astral characters
  "𝒜𝓑𝔠",
  "𠀀𠀁",
  "🂡",
  "𓀀",
  // what tool output holds besides
  "order #W2378156",
  "src/app.ts",
  "https://example.com/🚀/page",
  "amount $1,286.50",
  "password: hunter2xyz",
  '{"id": "',
  "\n",
  " ",
  ", ",
];

/** A text of `maxPieces` pieces at most, of every script. */
export const scriptText = (maxPieces = 60) =>
  fc.oneof(
    {
      weight: 3,
      arbitrary: fc.array(fc.constantFrom(...SCRIPT_PIECES), { maxLength: maxPieces }).map((pieces) => pieces.join("")),
    },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: maxPieces }) },
  );

/** One script's piece repeated to about `length` code units. */
export const repeated = (piece: string, length: number): string => piece.repeat(Math.ceil(length / piece.length));
