import type { MessageRecord } from "../dialects/dialect.js";
import { stringify } from "../dialects/content-parts.js";
import { claimIndexOf } from "../dialects/format-claims.js";
import { dialectAt } from "../dialects/registry.js";
import { mediaEstimate } from "./media-tokens.js";

// The pieces o200k's pre-tokenizer splits text into before byte-pair encoding: words with their
// leading space or punctuation, runs of at most three digits, punctuation runs, line breaks and
// whitespace. Each piece is encoded as one token or more, so their number is a lower bound of the
// o200k count. Bytes / 4 is close on prose but far under it on dense tool output (line-numbered
// code, tables of digits, minified JSON), where this bound comes near the real count.
// Every repetition is bounded: an unbounded one over a run of megabytes (a page of CJK, a letter
// repeated, a base64 data URL) keeps one backtracking entry per character, and the regular
// expression engine then throws `RangeError: Maximum call stack size exceeded`. A run longer than
// the bound counts as more than one piece; no o200k token is anywhere near that long, so the count
// stays a lower bound, and equals the pre-tokenizer's on any text without such runs.
const LONGEST_RUN = 1024;
const run = (pattern: string, least: 0 | 1): string => `${pattern}{${least},${LONGEST_RUN}}`;
const contraction = String.raw`(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?`;
const upper = String.raw`[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`;
const lower = String.raw`[\p{Ll}\p{Lm}\p{Lo}\p{M}]`;
const PIECE = new RegExp(
  [
    String.raw`[^\r\n\p{L}\p{N}]?${run(upper, 0)}${run(lower, 1)}${contraction}`,
    String.raw`[^\r\n\p{L}\p{N}]?${run(upper, 1)}${run(lower, 0)}${contraction}`,
    String.raw`\p{N}{1,3}`,
    String.raw` ?${run(String.raw`[^\s\p{L}\p{N}]`, 1)}${run(String.raw`[\r\n/]`, 0)}`,
    String.raw`${run(String.raw`\s`, 0)}${run(String.raw`[\r\n]`, 1)}`,
    String.raw`${run(String.raw`\s`, 1)}(?!\S)`,
    run(String.raw`\s`, 1),
  ].join("|"),
  "gu",
);

/** The number of o200k pre-tokenizer pieces in `text`: a lower bound of its o200k token count. */
export function countWordPieces(text: string): number {
  PIECE.lastIndex = 0;
  let pieces = 0;
  while (PIECE.exec(text) !== null) pieces++;
  return pieces;
}

// A long unbroken run of base64 characters is most often the data of an image or a file (a
// screenshot in a tool's output), which providers bill as media, not as text. Such a run counts as
// the estimate counts it, bytes / 4, rather than by its pieces (about two characters each).
// Bounded for the same reason as the pieces: a longer run is read as several, each counted alike.
const ENCODED_RUN = /[A-Za-z0-9+/=_-]{256,65536}/g;

/** Word pieces of a text, with encoded runs counted as bytes / 4. */
function textFloor(text: string): number {
  ENCODED_RUN.lastIndex = 0;
  let floor = 0;
  let from = 0;
  for (let run = ENCODED_RUN.exec(text); run !== null; run = ENCODED_RUN.exec(text)) {
    floor += countWordPieces(text.slice(from, run.index)) + Math.ceil(run[0].length / 4);
    from = run.index + run[0].length;
  }
  return floor + countWordPieces(from === 0 ? text : text.slice(from));
}

/** Word pieces per message object, with the estimate they were computed at. */
const cache = new WeakMap<object, { estimate: number; pieces: number }>();

/**
 * The word pieces of everything a message says (text, tool names, arguments and results), plus
 * the billed figure of its images and files: a floor under the estimate of a message whose text
 * is dense. Cached per message object, since an agent loop passes the same objects every turn;
 * `estimate`, the message's current byte estimate, tells a message changed in place since;
 * `claim`, the message's format when the call has already read it.
 */
export function messageWordPieces(message: unknown, estimate: number, claim?: number): number {
  if (typeof message !== "object" || message === null) return 0;
  const cached = cache.get(message);
  if (cached !== undefined && cached.estimate === estimate) return cached.pieces;
  const format = claim ?? claimIndexOf(message);
  let pieces = mediaEstimate(message)?.tokens ?? 0;
  for (const part of dialectAt(format).describe(message as MessageRecord).parts) {
    if (part.kind === "text") pieces += textFloor(part.text);
    else if (part.kind === "call") pieces += countWordPieces(part.name ?? "") + textFloor(stringify(part.input ?? ""));
    else if (part.kind === "result") pieces += textFloor(part.output);
  }
  cache.set(message, { estimate, pieces });
  return pieces;
}
