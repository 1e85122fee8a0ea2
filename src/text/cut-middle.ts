import { cutPointAfter, cutPointBefore } from "./cut-points.js";
import { redactLikelySecrets } from "./likely-secrets.js";
import { scanIdentifiers } from "./scan-identifiers.js";

/** How far into a cut the identifiers it names are looked for, given the characters their list may take. */
const searchLength = (listChars: number): number => Math.max(65_536, listChars * 64);

/**
 * Finds the identifiers of a text whose occurrences the redaction removes in context (`password:
 * hunter2`, a `.env` line, a key in a PEM block): those are secrets even where they stand alone.
 * The text is redacted once; only when that changed it, its identifiers are counted, and `visit`,
 * given each identifier of the text in turn, tells which of them occur fewer times once redacted.
 */
function secretsInContext(text: string): { visit: (identifier: string) => void; secrets: ReadonlySet<string> } {
  const secrets = new Set<string>();
  const redacted = redactLikelySecrets(text);
  if (redacted === text) return { visit: () => {}, secrets };
  const left = new Map<string, number>();
  scanIdentifiers(redacted, (identifier) => void left.set(identifier, (left.get(identifier) ?? 0) + 1));
  const visit = (identifier: string) => {
    const remaining = left.get(identifier) ?? 0;
    if (remaining === 0) secrets.add(identifier);
    else left.set(identifier, remaining - 1);
  };
  return { visit, secrets };
}

/** Whether an identifier is a secret by itself or as the redaction reads it in its text. */
const isSecret = (identifier: string, inContext: ReadonlySet<string>): boolean =>
  inContext.has(identifier) || redactLikelySecrets(identifier) !== identifier;

/**
 * The distinct identifiers of `text[from..to)`, secrets left out, as many as fit in `listChars`
 * characters: what a cut says it removed, so that an id, a path or an amount from the middle of a
 * long output stays visible.
 */
export function identifiersBetween(text: string, from: number, to: number, listChars: number): string[] {
  // What the kept text still shows needs no mention (a JSON key repeated in every item). Read into a
  // set, so that each identifier of the cut part is looked up, not searched for in the kept text.
  const shown = new Set<string>();
  const remember = (identifier: string) => void shown.add(identifier);
  // These two slices are only read, never written: what they name is looked up, not printed, so a
  // half of a pair at either edge reaches no output.
  scanIdentifiers(text.slice(0, from), remember);
  scanIdentifiers(text.slice(to), remember);
  // Only whole identifiers: a run cut by either edge is not named. The scan reads at most 64 times
  // what the list may hold, so that a cut of a megabyte costs in proportion to the list, not the text.
  const end = Math.min(to, cutPointBefore(text, from + searchLength(listChars)));
  const part = text.slice(from, end);
  const context = secretsInContext(part);
  const candidates = new Set<string>();
  scanIdentifiers(part, (identifier, start, stop) => {
    context.visit(identifier);
    if ((start === 0 && from > 0) || (stop === end - from && end < text.length)) return;
    if (!shown.has(identifier)) candidates.add(identifier);
  });
  const found: string[] = [];
  let length = 0;
  for (const identifier of candidates) {
    if (isSecret(identifier, context.secrets)) continue;
    if (length + identifier.length + 2 > listChars) break;
    found.push(identifier);
    length += identifier.length + 2;
  }
  return found;
}

/** The identifiers a cut of a text removed, given where the cut starts and ends and the room for their list. */
export type NamedIdentifiers = (from: number, to: number, listChars: number) => readonly string[];

/**
 * `identifiersBetween` for any cut of one text, after a single scan of it: the distinct identifiers
 * in the order they first occur, with where they first and last occur. A cut then costs the length
 * of its list, not of the text, so the many cuts a search for the longest fitting length tries
 * (and the same search on the next step of an agent loop) read the text once. An identifier is
 * named when it first occurs whole inside the cut and never again after it.
 *
 * @param text - the text to be cut
 * @returns the identifiers of any cut `[from, to)` of `text`, secrets left out, as many as fit in `listChars`
 */
export function indexIdentifiers(text: string): NamedIdentifiers {
  const position = new Map<string, number>();
  // Names are sliced from the text when listed, so the index holds numbers only.
  const firstStarts: number[] = [];
  const firstStops: number[] = [];
  const lastStarts: number[] = [];
  const context = secretsInContext(text);
  scanIdentifiers(text, (identifier, start, stop) => {
    context.visit(identifier);
    const known = position.get(identifier);
    if (known !== undefined) lastStarts[known] = start;
    else {
      position.set(identifier, firstStarts.length);
      firstStarts.push(start);
      firstStops.push(stop);
      lastStarts.push(start);
    }
  });
  position.clear();
  // 0: not looked at yet; 1: may be named; 2: a secret.
  const count = firstStarts.length;
  const verdicts = new Uint8Array(count);
  return (from, to, listChars) => {
    const listed: string[] = [];
    if (listChars <= 0) return listed;
    // The first identifier that first occurs at or after `from`.
    let low = 0;
    let high = count;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((firstStarts[middle] as number) < from) low = middle + 1;
      else high = middle;
    }
    const end = Math.min(to, from + searchLength(listChars));
    let length = 0;
    for (let index = low; index < count && (firstStarts[index] as number) < end; index++) {
      // Cut by the end of the search, or shown again by the kept end.
      if ((firstStops[index] as number) > end || (lastStarts[index] as number) >= to) continue;
      // An identifier's bounds split no pair (scan-identifiers.ts): a name is a run of ASCII
      // characters, and a URL, which may hold any character, ends at an ASCII delimiter or the text's end.
      const name = text.slice(firstStarts[index], firstStops[index]);
      if (verdicts[index] === 0) verdicts[index] = isSecret(name, context.secrets) ? 2 : 1;
      if (verdicts[index] === 2) continue;
      if (length + name.length + 2 > listChars) break;
      listed.push(name);
      length += name.length + 2;
    }
    return listed;
  };
}

/**
 * Keeps the first and last `keep / 2` characters of `text` (at most; each end is cut between
 * whole characters, see `cutPointBefore`) around a marker that says how many characters were cut
 * and which identifiers they held: the middle of a long output is the part
 * least likely to matter, and its ids, paths and amounts are what an agent may need again. Text
 * no longer than `keep` is returned as it is.
 *
 * @param marker - the line put in place of the cut, given the number of characters cut and the identifiers in them
 * @param listing - `listChars`: the most characters the list of identifiers may take (0, the
 *   default: none listed); `named`: the identifiers of a cut of `text`, when an index of them was
 *   made (see `indexIdentifiers`)
 */
export function cutMiddle(
  text: string,
  keep: number,
  marker: (cut: number, identifiers: readonly string[]) => string,
  listing: { listChars?: number; named?: NamedIdentifiers } = {},
): string {
  const {
    listChars = 0,
    named = (from: number, to: number, chars: number) => identifiersBetween(text, from, to, chars),
  } = listing;
  const kept = Math.max(0, keep);
  if (text.length <= kept) return text;
  // Both ends are cut where the text may be cut: a half of an emoji left at either end is a lone
  // surrogate, which makes the whole request invalid JSON for a provider.
  const start = cutPointBefore(text, Math.ceil(kept / 2));
  const end = cutPointAfter(text, text.length - (kept - Math.ceil(kept / 2)));
  const identifiers = listChars > 0 ? named(start, end, listChars) : [];
  return `${text.slice(0, start)}\n${marker(end - start, identifiers)}\n${text.slice(end)}`;
}

/** `; it named a, b, c` for a marker, or nothing when the cut held no identifier; what it prints is redacted once more. */
export function namedIn(identifiers: readonly string[]): string {
  return identifiers.length === 0 ? "" : redactLikelySecrets(`; it named ${identifiers.join(", ")}`);
}
