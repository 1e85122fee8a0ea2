// A long JSON payload shortened by its structure rather than by characters: every key stays, long
// arrays keep their first and last items and say how many were left out and which identifiers they
// named, long strings are cut in the middle. A middle cut of the text would keep half an object
// and lose the keys that say what the other half was.
import { identifiersBetween } from "./cut-middle.js";
import { cutPointAfter, cutPointBefore } from "./cut-points.js";
import { withoutSecretIdentifiers } from "./redact-secrets.js";

/** Items kept of a long array, and characters of a long string, at each level of shortening. */
const LEVELS = [
  { items: 64, chars: 400 },
  { items: 24, chars: 200 },
  { items: 10, chars: 120 },
  { items: 4, chars: 80 },
  { items: 2, chars: 48 },
  { items: 1, chars: 32 },
];
const MOST_KEYS = 200;
const LONGEST_PARSED = 4 * 1024 * 1024;

/** The identifiers of values left out, as a short list for a marker. */
function namedBy(values: readonly unknown[], listChars: number): string {
  if (listChars <= 0) return "";
  const text = JSON.stringify(values);
  // The list is read from the start of the text, at most 64 times what it may hold (as `identifiersBetween` reads).
  const names = withoutSecretIdentifiers(identifiersBetween(text, 0, text.length, listChars), text, Math.max(65_536, listChars * 64));
  return names.length === 0 ? "" : `; they named ${names.join(", ")}`;
}

function shorten(value: unknown, level: { items: number; chars: number }, listChars: number, depth: number): unknown {
  if (typeof value === "string") {
    if (value.length <= level.chars) return value;
    // Cut between whole characters: half an emoji would be escaped as a lone surrogate (`\ud83d`).
    const half = Math.floor(level.chars / 2);
    const start = cutPointBefore(value, half);
    const end = cutPointAfter(value, value.length - half);
    const cut = value.slice(start, end);
    return `${value.slice(0, start)}[… ${cut.length} characters${namedBy([cut], listChars)} …]${value.slice(end)}`;
  }
  if (typeof value !== "object" || value === null) return value;
  if (depth > 32) return "[… nested too deep …]";
  if (Array.isArray(value)) {
    const items = value;
    if (items.length <= level.items) return items.map((item) => shorten(item, level, listChars, depth + 1));
    const first = Math.ceil(level.items / 2);
    const last = level.items - first;
    const omitted = items.slice(first, items.length - last);
    return [
      ...items.slice(0, first).map((item) => shorten(item, level, listChars, depth + 1)),
      `… ${omitted.length} more item${omitted.length === 1 ? "" : "s"}${namedBy(omitted, listChars)}`,
      ...items.slice(items.length - last).map((item) => shorten(item, level, listChars, depth + 1)),
    ];
  }
  const entries = Object.entries(value);
  const shortened: Record<string, unknown> = {};
  for (const [key, item] of entries.slice(0, MOST_KEYS)) shortened[key] = shorten(item, level, listChars, depth + 1);
  if (entries.length > MOST_KEYS) shortened["…"] = `${entries.length - MOST_KEYS} more keys${namedBy(entries.slice(MOST_KEYS), listChars)}`;
  return shortened;
}

/**
 * `text` shortened by its JSON structure to at most `keep` characters (plus what the markers'
 * lists of identifiers take, up to `listChars` each), or undefined when `text` is not a JSON
 * object or array, or no level of shortening brings it that short (a middle cut then does).
 *
 * @param text - a tool result or arguments, possibly JSON
 * @param keep - the characters to keep
 * @param listChars - the most characters each marker's list of identifiers may take
 */
export function shortenJson(text: string, keep: number, listChars: number): string | undefined {
  const start = text.trimStart().charAt(0);
  if ((start !== "{" && start !== "[") || text.length > LONGEST_PARSED || text.length <= keep) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  // Lists share the room a middle cut's list would have: each array's marker takes a part of it.
  const perList = Math.min(listChars, 200);
  for (const level of LEVELS) {
    const shortened = JSON.stringify(shorten(value, level, perList, 0));
    if (shortened.length <= keep + listChars) return shortened;
  }
  return undefined;
}
