import { redactSecrets } from "./redact-secrets.js";
import { scanIdentifiers } from "./scan-identifiers.js";

/**
 * The distinct identifiers of `text[from..to)`, secrets left out, as many as fit in `listChars`
 * characters: what a cut says it removed, so that an id, a path or an amount from the middle of a
 * long output stays visible.
 */
export function identifiersBetween(text: string, from: number, to: number, listChars: number): string[] {
  const found = new Set<string>();
  // What the kept text still shows needs no mention (a JSON key repeated in every item). Read into a
  // set, so that each identifier of the cut part is looked up, not searched for in the kept text.
  const shown = new Set<string>();
  const remember = (identifier: string) => void shown.add(identifier);
  scanIdentifiers(text.slice(0, from), remember);
  scanIdentifiers(text.slice(to), remember);
  let length = 0;
  // Only whole identifiers: a run cut by either edge is not named. The scan reads at most 64 times
  // what the list may hold, so that a cut of a megabyte repeated at many lengths (the truncation
  // rung searches for the longest that fits) costs in proportion to the cut, not the whole text.
  const end = Math.min(to, from + Math.max(65_536, listChars * 64));
  scanIdentifiers(text.slice(from, end), (identifier, start, stop) => {
    if ((start === 0 && from > 0) || (stop === end - from && end < text.length)) return true;
    if (found.has(identifier) || shown.has(identifier)) return true;
    shown.add(identifier);
    if (redactSecrets(identifier) !== identifier) return true;
    if (length + identifier.length + 2 > listChars) return false;
    found.add(identifier);
    length += identifier.length + 2;
    return true;
  });
  return [...found];
}

/**
 * Keeps the first and last `keep / 2` characters of `text` around a marker that says how many
 * characters were cut and which identifiers they held: the middle of a long output is the part
 * least likely to matter, and its ids, paths and amounts are what an agent may need again. Text
 * no longer than `keep` is returned as it is.
 *
 * @param marker - the line put in place of the cut, given the number of characters cut and the identifiers in them
 * @param listChars - the most characters the list of identifiers may take (0: none listed)
 */
export function cutMiddle(text: string, keep: number, marker: (cut: number, identifiers: readonly string[]) => string, listChars = 0): string {
  const kept = Math.max(0, keep);
  if (text.length <= kept) return text;
  const start = Math.ceil(kept / 2);
  const end = kept - start;
  const identifiers = listChars > 0 ? identifiersBetween(text, start, text.length - end, listChars) : [];
  return `${text.slice(0, start)}\n${marker(text.length - kept, identifiers)}\n${end > 0 ? text.slice(text.length - end) : ""}`;
}

/** `; it named a, b, c` for a marker, or nothing when the cut held no identifier. */
export function namedIn(identifiers: readonly string[]): string {
  return identifiers.length === 0 ? "" : `; it named ${identifiers.join(", ")}`;
}
