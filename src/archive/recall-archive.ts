// What `compact.recall` answers from one conversation's archive: the archived messages that hold a
// fact, or that sit in a range of positions, rendered as the summary kit renders a transcript.

import { utf8ByteLength } from "../counting/utf8-length.js";
import { escapeFences } from "../summary-kit/escape-fences.js";
import { renderEach } from "../summary-kit/render-transcript.js";
import { allWordsSearch, type SearchWork } from "../text/all-words-search.js";
import { STANDS_AS_WORD, bestOccurrence, type Occurrence } from "../text/best-occurrence.js";
import { cutPointBefore, headOf } from "../text/cut-points.js";
import { redactSecrets } from "../text/redact-secrets.js";
import type { ArchivedMessage, ArchivedRange } from "./conversation-archive.js";

/** Tokens of a text as the estimator counts them: UTF-8 bytes / 4, rounded up. */
const tokensOf = (text: string): number => Math.ceil(utf8ByteLength(text) / 4);

/** `12-40`, `12–40`, `12..40`, `12 to 40`, `messages 12-40`, `#12-#40`. */
const RANGE_QUERY = /^\s*(?:messages?\s+)?#?(\d{1,9})\s*(?:-|–|—|\.\.|to)\s*#?(\d{1,9})\s*$/i;

/**
 * The longest query a recall reads, in characters: an identifier or a phrase is far shorter. The
 * search reads each message a fixed number of times whatever the query holds, so this bounds the
 * automaton a query builds, not the passes over the archive.
 */
export const MAX_RECALL_QUERY_CHARS = 1_000;

/** Runs of whitespace, which a phrase may cross (a line break, the renderer's indentation). */
const spaces = /\s+/g;

/**
 * Where the character at `flatAt` of `shown` with every run of whitespace one space (what the
 * search reads: a phrase may cross a line break or the renderer's indentation) stands in `shown`
 * as written. One pass up to it, made only for the messages a recall shows.
 */
function shownAt(shown: string, flatAt: number): number {
  // A run of whitespace, or any other character: one character of the flattened text each.
  const step = /\s+|[\s\S]/y;
  for (let flat = 0; flat < flatAt && step.lastIndex < shown.length; flat++) step.test(shown);
  return step.lastIndex;
}

/** A message as the recall shows it: its rendered text (secrets redacted) and where the query starts in it. */
interface Candidate {
  entry: ArchivedMessage;
  text: string;
  /** Where the first match starts (0 for a range): in `text` with its whitespace runs as one space. */
  at: number;
}

/**
 * The rendered, redacted text of each archived message (in archive order), its lines and spaces
 * as written (a tool result's lines after its first are indented by the renderer, which marks
 * them as the tool's, not a turn of their own). They are rendered in order, so a tool result is
 * named by its call, and as their authors wrote them (`findSummary` off): nothing in the archive
 * is taken for a summary of the library's. Nothing is cut here: a recall shows an excerpt around
 * the match instead.
 */
function renderedTexts(entries: readonly ArchivedMessage[]): Map<ArchivedMessage, RenderedText> {
  const rendered = renderEach(
    entries.map((entry) => entry.message),
    { maxResultChars: Number.MAX_SAFE_INTEGER },
    false,
  );
  return new Map(
    entries.map((entry, at) => {
      const shown = redactSecrets(rendered[at] ?? "").trim();
      const flat = shown.replace(spaces, " ");
      return [entry, { shown, flat, lower: flat.toLowerCase() }];
    }),
  );
}

/** A message's text as a recall shows it, and as it searches it (whitespace runs as one space, and that in lower case). */
interface RenderedText {
  shown: string;
  flat: string;
  lower: string;
}

/**
 * What `renderedTexts` made of an archive, while the archive is the same list: the archive store
 * hands the same ranges back while the stored text is unchanged, so a second recall of an archive
 * renders and redacts nothing again.
 */
const renderedArchives = new WeakMap<readonly ArchivedRange[], Map<ArchivedMessage, RenderedText>>();

/** The messages in `from`–`to`, or those that hold the phrase (else every word of it), newest first. */
function candidates(
  ranges: readonly ArchivedRange[],
  entries: readonly ArchivedMessage[],
  query: string,
  work: RecallWork,
): Candidate[] {
  let texts = renderedArchives.get(ranges);
  if (texts === undefined) renderedArchives.set(ranges, (texts = renderedTexts(entries)));
  const known = texts;
  const textOf = (entry: ArchivedMessage) => known.get(entry)?.shown ?? "";
  const newestFirst = entries.slice().sort((a, b) => b.index - a.index);
  const range = RANGE_QUERY.exec(query);
  if (range !== null) {
    const from = Math.min(Number(range[1]), Number(range[2]));
    const to = Math.max(Number(range[1]), Number(range[2]));
    const inRange = newestFirst.filter((entry) => entry.index >= from && entry.index <= to);
    // A query like `2024-2025` may be a fact rather than positions: with none in range, it is searched.
    if (inRange.length > 0) return inRange.map((entry) => ({ entry, text: textOf(entry), at: 0 }));
  }
  const written = redactSecrets(query).replace(spaces, " ").trim();
  const phrase = written.toLowerCase();
  if (phrase === "") return [];
  // Searched with every run of whitespace one space; shown as written, at the match's place there.
  const rendered = newestFirst.flatMap((entry) => {
    const text = known.get(entry);
    return text === undefined || text.shown === ""
      ? []
      : [{ entry, text: text.flat, lower: text.lower, shown: text.shown }];
  });
  const holding = (find: (lower: string) => Occurrence | undefined, asWritten: string | undefined): Candidate[] => {
    // A message that holds the query as a whole word, as it was written, comes first; then one that
    // holds it whole in another case (`ast` for `AST`); then one that holds it as a whole part of a
    // longer identifier (`app_config` in `cls._meta.app_config._is_default`); then one that holds
    // it only inside a longer word (`10` in `100`, `app_config` in `app_configs`). The excerpt is
    // centred on the best of those places.
    const tiers: Candidate[][] = [[], [], [], []];
    for (const { entry, text, lower, shown } of rendered) {
      if (asWritten !== undefined) {
        work.steps += text.length + asWritten.length;
        const exact = bestOccurrence(text, asWritten);
        if (exact?.stands === STANDS_AS_WORD) {
          tiers[0]!.push({ entry, text: shown, at: exact.at });
          continue;
        }
      }
      const found = find(lower);
      if (found !== undefined)
        tiers[1 + found.stands]!.push({ entry, text: shown, at: Math.min(found.at, text.length) });
    }
    return tiers.flat();
  };
  // The phrase whole (as written first): one pass over each message.
  const exact = holding(
    (lower) => ((work.steps += lower.length + phrase.length), bestOccurrence(lower, phrase)),
    written,
  );
  if (exact.length > 0) return exact;
  // A number asked for without its grouping (`1286`) is found as written (`$1,286`, `1 286`).
  if (/^\d{4,32}$/.test(phrase)) return grouped(rendered, phrase);
  // Else every word of it, each once: all of them in one pass over each message, however many.
  const words = [...new Set(phrase.split(" "))];
  return words.length < 2 ? exact : holding(allWordsSearch(words, work), undefined);
}

/** The messages that hold the digits of `number` with a thousands separator (`,`, `.`, a space) between any of them. */
function grouped(
  rendered: readonly { entry: ArchivedMessage; text: string; shown: string }[],
  number: string,
): Candidate[] {
  // One optional separator between digits: no nested repetition, so the search stays linear.
  const pattern = new RegExp(`(?<![0-9])${[...number].join("[,. \u00a0\u202f]?")}(?![0-9])`);
  const found: Candidate[] = [];
  for (const { entry, text, shown } of rendered) {
    const match = pattern.exec(text);
    if (match !== null) found.push({ entry, text: shown, at: match.index });
  }
  return found;
}

/**
 * `text` fenced, or the part of it around `at` that takes at most `tokens`, with markers saying what was left out
 * on either side; undefined when not even a short excerpt fits.
 */
function excerpt(text: string, at: number, tokens: number): string | undefined {
  // Fenced as shown: no text can close the fence (`</transcript>` becomes `&lt;/transcript>`).
  const whole = escapeFences(text);
  if (tokensOf(whole) <= tokens) return whole;
  let chars = tokens * 4 - 80;
  for (let attempt = 0; attempt < 8 && chars >= 40; attempt++) {
    // Between whole characters: half an emoji at either edge would be a lone surrogate.
    const start = cutPointBefore(text, Math.max(0, Math.min(at - Math.floor(chars / 4), text.length - chars)));
    const end = cutPointBefore(text, Math.min(text.length, start + chars));
    const before = start > 0 ? `[… ${start} characters left out …] ` : "";
    const after = end < text.length ? ` [… ${text.length - end} characters left out …]` : "";
    const cut = escapeFences(before + text.slice(start, end) + after);
    if (tokensOf(cut) <= tokens) return cut;
    // Text of many bytes a character: ask for less.
    chars = Math.floor(chars * 0.7);
  }
  return undefined;
}

/**
 * The answer of one recall: the archived messages that hold `query` (an identifier or a phrase,
 * matched without regard to case or spacing; a phrase no message holds whole matches messages
 * that hold each of its words) or that sit in the range it names, newest first, each under its
 * position, rendered as `renderTranscript` renders them with secrets redacted, inside a
 * `<transcript>` fence, and at most `maxTokens` in all: a message too large for what is left is
 * shown as an excerpt around the match, and the messages that do not fit are counted, not shown.
 * A query longer than `MAX_RECALL_QUERY_CHARS` is answered with a sentence that says so.
 */
/**
 * The work of a recall's search, counted (see `SearchWork`).
 *
 * @example
 * const work: RecallWork = { steps: 0 };
 * recallFromArchive(ranges, "ORD-1234", 2_000, work);
 */
export type RecallWork = SearchWork;

export function recallFromArchive(
  ranges: readonly ArchivedRange[],
  query: string,
  maxTokens: number,
  work: RecallWork = { steps: 0 },
): string {
  if (query.length > MAX_RECALL_QUERY_CHARS)
    return `The query is ${query.length} characters long; a recall reads at most ${MAX_RECALL_QUERY_CHARS}: ask for an identifier, a phrase or a range such as "12-40".`;
  const entries = ranges.flatMap((range) => range.messages);
  const shownQuery = headOf(escapeFences(redactSecrets(query).replace(spaces, " ").trim()), 200);
  if (entries.length === 0) return "Nothing of this conversation is archived.";
  const found = candidates(ranges, entries, query, work);
  if (found.length === 0) return `No archived message holds "${shownQuery}".`;
  const blocks: string[] = [];
  const frame = (shown: number) =>
    `Archived messages for "${shownQuery}", newest first (${shown} of ${found.length}):\n<transcript>\n\n</transcript>`;
  let left = maxTokens - tokensOf(frame(found.length));
  for (const { entry, text, at } of found) {
    const label = `[message ${entry.index}]\n`;
    const room = left - tokensOf(label) - 1;
    const shown = room > 0 ? excerpt(text, shownAt(text, at), room) : undefined;
    if (shown === undefined) break;
    blocks.push(label + shown);
    left -= tokensOf(label + shown) + 1;
  }
  if (blocks.length === 0) return `Archived messages hold "${shownQuery}", but none fits in ${maxTokens} tokens.`;
  return `Archived messages for "${shownQuery}", newest first (${blocks.length} of ${found.length}):\n<transcript>\n${blocks.join("\n\n")}\n</transcript>`;
}
