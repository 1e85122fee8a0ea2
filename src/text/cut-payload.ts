import { cutMiddle } from "./cut-middle.js";
import { shortenJson } from "./shorten-json.js";

/**
 * A tool payload cut to about `keep` characters: by its structure when it is JSON (every key kept,
 * long arrays say how many items they left out), else in the middle; either way the cut names the
 * identifiers it removed.
 *
 * @param marker - the middle cut's marker, given the characters cut and the identifiers in them
 * @param listChars - the most characters a list of identifiers may take
 */
export function cutPayload(
  text: string,
  keep: number,
  marker: (cut: number, identifiers: readonly string[]) => string,
  listChars: number,
): string {
  return shortenJson(text, keep, listChars) ?? cutMiddle(text, keep, marker, { listChars });
}
