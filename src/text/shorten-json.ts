// A long JSON payload shortened by its structure rather than by characters: every key stays, long
// arrays keep their first and last items and say how many were left out and which identifiers they
// named, long strings are cut in the middle. A middle cut of the text would keep half an object
// and lose the keys that say what the other half was.
import { identifiersBetween } from "./cut-middle.js";
import { cutPointAfter, cutPointBefore } from "./cut-points.js";
import { redactLikelySecrets } from "./likely-secrets.js";
import { isSecretName } from "./redact-secrets.js";
import { scanIdentifiers } from "./scan-identifiers.js";

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

/** What the kept part of a shortened value shows: the identifiers of its strings, and each number with its key (`economy:185`). */
function shownBy(value: unknown, key: string | undefined, into: Set<string>, depth: number): void {
  if (depth > 34) return;
  if (typeof value === "string") scanIdentifiers(value, (identifier) => void into.add(identifier));
  else if (typeof value === "number") into.add(`${key ?? ""}:${String(value)}`);
  else if (Array.isArray(value)) for (const item of value) shownBy(item, key, into, depth + 1);
  else if (typeof value === "object" && value !== null)
    for (const [name, item] of Object.entries(value)) shownBy(item, name, into, depth + 1);
}

/**
 * The values left out, as a short list for a marker: the identifiers their strings hold and their
 * numbers with their key (`HAT252, economy: 185`), in the order they stand, each once, leaving out
 * what the kept part already shows (`shown`) and the key names, which the kept items repeat.
 * Secret-named fields and secrets in context are left out.
 */
function namedBy(values: readonly unknown[], listChars: number, shown: ReadonlySet<string>): string {
  if (listChars <= 0) return "";
  const names: string[] = [];
  const listed = new Set<string>();
  let length = 0;
  let full = false;
  const add = (name: string, seen: string): void => {
    if (listed.has(seen) || shown.has(seen)) return;
    if (length + name.length + 2 > listChars) {
      full = true;
      return;
    }
    listed.add(seen);
    names.push(name);
    length += name.length + 2;
  };
  const visit = (value: unknown, key: string | undefined, depth: number): void => {
    if (full || depth > 32) return;
    if (typeof value === "string") {
      for (const identifier of identifiersBetween(value, 0, value.length, listChars)) add(identifier, identifier);
    } else if (typeof value === "number" && Number.isFinite(value)) {
      const text = String(value);
      // An amount or a count says nothing without its field; a lone digit is seldom anything.
      if (key === undefined || text.length < 2 || isSecretName(key)) return;
      const item = `${key}: ${text}`;
      if (redactLikelySecrets(item) === item) add(item, `${key}:${text}`);
    } else if (Array.isArray(value)) {
      for (const item of value) {
        visit(item, key, depth + 1);
        if (full) return;
      }
    } else if (typeof value === "object" && value !== null) {
      for (const [name, item] of Object.entries(value)) {
        if (isSecretName(name)) continue;
        // A key that holds a digit (`gift_card_7480005`) is a value; any other key is the schema.
        for (const identifier of identifiersBetween(name, 0, name.length, listChars))
          if (/\d/.test(identifier)) add(identifier, identifier);
        visit(item, name, depth + 1);
        if (full) return;
      }
    }
  };
  visit(values, undefined, 0);
  return names.length === 0 ? "" : `; they named ${names.join(", ")}`;
}

/** How lists are made at one level: the room each may take, and what the kept part already shows. */
interface Listing {
  listChars: number;
  shown: ReadonlySet<string>;
}

function shorten(value: unknown, level: { items: number; chars: number }, listing: Listing, depth: number): unknown {
  const { listChars, shown } = listing;
  if (typeof value === "string") {
    if (value.length <= level.chars) return value;
    // Cut between whole characters: half an emoji would be escaped as a lone surrogate (`\ud83d`).
    const half = Math.floor(level.chars / 2);
    const start = cutPointBefore(value, half);
    const end = cutPointAfter(value, value.length - half);
    const cut = value.slice(start, end);
    return `${value.slice(0, start)}[… ${cut.length} characters${namedBy([cut], listChars, shown)} …]${value.slice(end)}`;
  }
  if (typeof value !== "object" || value === null) return value;
  if (depth > 32) return "[… nested too deep …]";
  if (Array.isArray(value)) {
    const items = value;
    if (items.length <= level.items) return items.map((item) => shorten(item, level, listing, depth + 1));
    const first = Math.ceil(level.items / 2);
    const last = level.items - first;
    const omitted = items.slice(first, items.length - last);
    return [
      ...items.slice(0, first).map((item) => shorten(item, level, listing, depth + 1)),
      `… ${omitted.length} more item${omitted.length === 1 ? "" : "s"}${namedBy(omitted, listChars, shown)}`,
      ...items.slice(items.length - last).map((item) => shorten(item, level, listing, depth + 1)),
    ];
  }
  const entries = Object.entries(value);
  const shortened: Record<string, unknown> = {};
  for (const [key, item] of entries.slice(0, MOST_KEYS)) shortened[key] = shorten(item, level, listing, depth + 1);
  if (entries.length > MOST_KEYS)
    shortened["…"] =
      `${entries.length - MOST_KEYS} more keys${namedBy([Object.fromEntries(entries.slice(MOST_KEYS))], listChars, shown)}`;
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
  // Lists share the room a middle cut's list would have: one marker may take all of it, else each takes a part.
  const perLists = listChars > 200 ? [listChars, 200] : [listChars];
  for (const level of LEVELS) {
    // What the kept items show is not named again: read from the same level shortened without lists.
    const shown = new Set<string>();
    if (listChars > 0) shownBy(shorten(value, level, { listChars: 0, shown }, 0), undefined, shown, 0);
    for (const perList of perLists) {
      const shortened = JSON.stringify(shorten(value, level, { listChars: perList, shown }, 0));
      if (shortened.length <= keep + listChars) return shortened;
    }
  }
  return undefined;
}
