// What `compact.recall` answers from one conversation's archive: the archived messages that hold a
// fact, or that sit in a range of positions, rendered as the summary kit renders a transcript.

import { utf8ByteLength } from "../counting/utf8-length.js";
import { escapeFences } from "../summary-kit/escape-fences.js";
import { renderEach } from "../summary-kit/render-transcript.js";
import { redactSecrets } from "../text/redact-secrets.js";
import type { ArchivedMessage, ArchivedRange } from "./conversation-archive.js";

/** Tokens of a text as the estimator counts them: UTF-8 bytes / 4, rounded up. */
const tokensOf = (text: string): number => Math.ceil(utf8ByteLength(text) / 4);

/** `12-40`, `12–40`, `12..40`, `12 to 40`, `messages 12-40`, `#12-#40`. */
const RANGE_QUERY = /^\s*(?:messages?\s+)?#?(\d{1,9})\s*(?:-|–|—|\.\.|to)\s*#?(\d{1,9})\s*$/i;

/** Runs of whitespace, which a phrase may cross (a line break, the renderer's indentation). */
const spaces = /\s+/g;

/** A message as the recall shows it: its rendered text (secrets redacted) and where the query starts in it. */
interface Candidate {
  entry: ArchivedMessage;
  text: string;
  /** Where in `text` the first match starts (0 for a range). */
  at: number;
}

/**
 * The rendered, redacted text of each archived message (in archive order), with every run of
 * whitespace one space. They are rendered in order, so a tool result is named by its call, and as
 * their authors wrote them (`findSummary` off): nothing in the archive is taken for a summary of
 * the library's. Nothing is cut here: a recall shows an excerpt around the match instead.
 */
function renderedTexts(entries: readonly ArchivedMessage[]): Map<ArchivedMessage, string> {
  const rendered = renderEach(entries.map((entry) => entry.message), { maxResultChars: Number.MAX_SAFE_INTEGER }, false);
  return new Map(entries.map((entry, at) => [entry, redactSecrets(rendered[at] ?? "").replace(spaces, " ").trim()]));
}

/** The messages in `from`–`to`, or those that hold the phrase (else every word of it), newest first. */
function candidates(entries: readonly ArchivedMessage[], query: string): Candidate[] {
  const texts = renderedTexts(entries);
  const textOf = (entry: ArchivedMessage) => texts.get(entry) ?? "";
  const newestFirst = entries.slice().sort((a, b) => b.index - a.index);
  const range = RANGE_QUERY.exec(query);
  if (range !== null) {
    const from = Math.min(Number(range[1]), Number(range[2]));
    const to = Math.max(Number(range[1]), Number(range[2]));
    const inRange = newestFirst.filter((entry) => entry.index >= from && entry.index <= to);
    // A query like `2024-2025` may be a fact rather than positions: with none in range, it is searched.
    if (inRange.length > 0) return inRange.map((entry) => ({ entry, text: textOf(entry), at: 0 }));
  }
  const phrase = redactSecrets(query).replace(spaces, " ").trim().toLowerCase();
  if (phrase === "") return [];
  const rendered = newestFirst.map((entry) => ({ entry, text: textOf(entry) })).filter(({ text }) => text !== "");
  const holding = (needles: readonly string[]): Candidate[] => {
    // A message that holds the query as a whole word, as it was written, comes first; then one that
    // holds it whole in another case (`ast` for `AST`); then one that holds it only inside a longer
    // word (`10` in `100`). The excerpt is centred on the best of those places.
    const tiers: Candidate[][] = [[], [], []];
    for (const { entry, text } of rendered) {
      const lower = text.toLowerCase();
      // The query as written, whole: only a single needle (the phrase itself) can be found so.
      const written = needles.length === 1 ? text.indexOf(query.trim()) : -1;
      const exact = written === -1 ? -1 : wordAt(text, query.trim(), written);
      let first = -1;
      let tier = 0;
      for (const needle of needles) {
        const at = lower.indexOf(needle);
        if (at === -1) {
          first = -1;
          break;
        }
        const word = exact !== -1 ? exact : wordAt(lower, needle, at);
        tier = Math.max(tier, exact !== -1 ? 0 : word !== -1 ? 1 : 2);
        const found = word === -1 ? at : word;
        first = first === -1 ? found : Math.min(first, found);
      }
      if (first !== -1) tiers[tier]!.push({ entry, text, at: Math.min(first, text.length) });
    }
    return tiers.flat();
  };
  const exact = holding([phrase]);
  if (exact.length > 0) return exact;
  // A number asked for without its grouping (`1286`) is found as written (`$1,286`, `1 286`).
  if (/^\d{4,32}$/.test(phrase)) return grouped(rendered, phrase);
  const words = phrase.split(" ");
  return words.length < 2 ? exact : holding(words);
}

/** The messages that hold the digits of `number` with a thousands separator (`,`, `.`, a space) between any of them. */
function grouped(rendered: readonly { entry: ArchivedMessage; text: string }[], number: string): Candidate[] {
  // One optional separator between digits: no nested repetition, so the search stays linear.
  const pattern = new RegExp(`(?<![0-9])${[...number].join("[,. \u00a0\u202f]?")}(?![0-9])`);
  const found: Candidate[] = [];
  for (const { entry, text } of rendered) {
    const match = pattern.exec(text);
    if (match !== null) found.push({ entry, text, at: match.index });
  }
  return found;
}

/** A character that continues a word. */
function isWordCode(code: number): boolean {
  return ((code | 0x20) >= 97 && (code | 0x20) <= 122) || (code >= 48 && code <= 57) || code === 95;
}

/** A character that joins the parts of an identifier (`self.storage`, `src/app`, `gift-card`). */
function isJoinCode(code: number): boolean {
  return code === 46 || code === 47 || code === 45;
}

/**
 * The first place from `at` on where `needle` stands as a whole word or identifier in `lower`, or
 * -1: not inside a longer word (`10` in `100`) nor a part of a longer identifier (`storage.url` in
 * `self.storage.url`); a sentence's full stop after it still ends it. Each `indexOf` moves on past the last.
 */
function wordAt(lower: string, needle: string, at: number): number {
  for (let index = at; index !== -1; index = lower.indexOf(needle, index + 1)) {
    const before = index === 0 ? -1 : lower.charCodeAt(index - 1);
    const end = index + needle.length;
    const after = end >= lower.length ? -1 : lower.charCodeAt(end);
    const afterNext = end + 1 >= lower.length ? -1 : lower.charCodeAt(end + 1);
    const startsWord = before === -1 || (!isWordCode(before) && !isJoinCode(before)) || !isWordCode(needle.charCodeAt(0));
    const endsWord = after === -1 || (!isWordCode(after) && !(isJoinCode(after) && isWordCode(afterNext))) || !isWordCode(needle.charCodeAt(needle.length - 1));
    if (startsWord && endsWord) return index;
  }
  return -1;
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
    const start = Math.max(0, Math.min(at - Math.floor(chars / 4), text.length - chars));
    const end = Math.min(text.length, start + chars);
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
 */
export function recallFromArchive(ranges: readonly ArchivedRange[], query: string, maxTokens: number): string {
  const entries = ranges.flatMap((range) => range.messages);
  const shownQuery = escapeFences(redactSecrets(query).replace(spaces, " ").trim()).slice(0, 200);
  if (entries.length === 0) return "Nothing of this conversation is archived.";
  const found = candidates(entries, query);
  if (found.length === 0) return `No archived message holds "${shownQuery}".`;
  const blocks: string[] = [];
  const frame = (shown: number) => `Archived messages for "${shownQuery}", newest first (${shown} of ${found.length}):\n<transcript>\n\n</transcript>`;
  let left = maxTokens - tokensOf(frame(found.length));
  for (const { entry, text, at } of found) {
    const label = `[message ${entry.index}]\n`;
    const room = left - tokensOf(label) - 1;
    const shown = room > 0 ? excerpt(text, at, room) : undefined;
    if (shown === undefined) break;
    blocks.push(label + shown);
    left -= tokensOf(label + shown) + 1;
  }
  if (blocks.length === 0) return `Archived messages hold "${shownQuery}", but none fits in ${maxTokens} tokens.`;
  return `Archived messages for "${shownQuery}", newest first (${blocks.length} of ${found.length}):\n<transcript>\n${blocks.join("\n\n")}\n</transcript>`;
}
