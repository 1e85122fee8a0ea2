import { libraryMessagesOf } from "../dialects/library-messages.js";
import { isSystemPrompt, isUserBoundary } from "../dialects/messages.js";
import type { Dialect } from "../dialects/dialect.js";
import type { MessageFormats } from "../dialects/format-claims.js";
import { lastProviderCompaction } from "../dialects/provider-compaction.js";
import { transcriptDialect } from "../dialects/registry.js";
import { expectedMessage } from "../ground/describe-value.js";
import { smallestFittingFromEnd } from "./search-from-end.js";
import { TranscriptTokens } from "../counting/token-counter.js";
import type { AnyMessage, CountTokens } from "../ground/types.js";
import { integer, optionalFunction, optionsObject } from "../ground/checks.js";

/** A transcript cut in three: the kept system prompt, the part to summarize, the kept recent tail. */
export interface Split<M extends AnyMessage = AnyMessage> {
  /** `[messages[0]]` when it is a system prompt (not a summary), else empty. */
  head: M[];
  /** What the summary replaces. */
  older: M[];
  /** The kept recent tail; starts at a boundary, or is empty. */
  tail: M[];
}

/** Options of `splitAtUserBoundary`. */
export interface SplitOptions<M extends AnyMessage = AnyMessage> {
  /** Tokens of recent tail to keep: an integer from 0 and up. */
  keepTail: number;
  /**
   * Whole-list token counter; must be monotone.
   * @default estimateTokens
   */
  countTokens?: CountTokens<M>;
  /**
   * What may start a kept tail.
   * @default a user message that carries no tool result and was not made by this library
   */
  isBoundary?: (message: M) => boolean;
}

/** Where the tail starts, and whether it fits its budget. */
export interface TailStart {
  /** Index of the first tail message; `messages.length` for an empty tail. */
  start: number;
  /** False when no boundary tail fits `keepTail` and the most recent boundary (or none) was taken. */
  fits: boolean;
}

/**
 * Length of the kept head: the run of system and developer messages the transcript opens with
 * (none of them a summary), so a system prompt followed by a developer message is kept whole; and
 * when a provider's own compaction is in the transcript where that provider puts it (a top-level
 * Responses `compaction` item in a transcript read as Responses, a `compaction` block of an
 * assistant message in one read as Anthropic: `dialect` is the format the transcript is read in),
 * everything up to the last one: it is the summary in force, never cut, masked or truncated, and
 * the older part starts after it.
 */
export function headLength(messages: readonly object[], dialect: Dialect, formats?: MessageFormats): number {
  const prompt = systemPromptLength(messages, formats);
  return Math.max(prompt, lastProviderCompaction(messages, prompt, dialect) + 1);
}

/** Length of the run of system and developer messages the transcript opens with, none of them a summary. `formats`: the call's, when read. */
export function systemPromptLength(messages: readonly object[], formats?: MessageFormats): number {
  let length = 0;
  while (length < messages.length && isSystemPrompt(messages[length] as object, formats)) length++;
  return length;
}

/**
 * Finds the start of the largest boundary tail that fits `keepTail`, without recounting suffixes:
 * per-message counts are summed from the end (linear in the tail), and a whole-list counter is
 * searched over the boundaries from the end (O(log n) calls), which a monotone counter makes equal
 * to scanning every suffix from the end.
 */
export function findTailStart<M extends AnyMessage>(
  tokens: TranscriptTokens<M>,
  head: number,
  keepTail: number,
  isBoundary: (index: number) => boolean,
): TailStart {
  const { messages } = tokens;
  // The index right after the head never starts a tail: there would be nothing to summarize.
  const lowest = head + 1;
  if (tokens.isPerMessage) {
    let suffix = 0;
    let start = -1;
    let index = messages.length - 1;
    for (; index >= lowest; index--) {
      suffix += tokens.countAt(index);
      if (suffix > keepTail) break;
      if (isBoundary(index)) start = index;
    }
    if (start !== -1) return { start, fits: true };
    for (; index >= lowest; index--) if (isBoundary(index)) return { start: index, fits: false };
    return { start: messages.length, fits: false };
  }
  const boundaries: number[] = [];
  for (let index = lowest; index < messages.length; index++) if (isBoundary(index)) boundaries.push(index);
  if (boundaries.length === 0) return { start: messages.length, fits: false };
  const first = smallestFittingFromEnd(
    boundaries.length,
    (j) => tokens.countSuffix(boundaries[j] as number) <= keepTail,
  );
  if (first < boundaries.length) return { start: boundaries[first] as number, fits: true };
  return { start: boundaries[boundaries.length - 1] as number, fits: false };
}

/**
 * Splits a transcript into `{ head, older, tail }`: the leading system prompt, the older part to
 * summarize, and the largest tail starting at a user turn that fits `keepTail` tokens. When no
 * such tail fits, the tail is the most recent user turn (safety over size); with no user turn after
 * the head it is empty. A tail never starts between a tool call and its result.
 *
 * @param messages - the transcript; not changed
 * @param options - `keepTail`, and optionally `countTokens` (monotone) and `isBoundary`
 * @returns three new arrays whose concatenation is `messages`
 * @example
 * ```ts
 * const { head, older, tail } = splitAtUserBoundary(messages, { keepTail: 2_000 });
 * ```
 */
export function splitAtUserBoundary<M extends AnyMessage>(messages: readonly M[], options: SplitOptions<M>): Split<M> {
  if (!Array.isArray(messages)) throw new TypeError(expectedMessage("messages", "an array", messages));
  optionsObject(options, "options", ["keepTail", "countTokens", "isBoundary"]);
  const keepTail = integer(options.keepTail, "keepTail", 0);
  const countTokens = optionalFunction<CountTokens<M>>(options.countTokens, "countTokens");
  const isBoundary = optionalFunction<(message: M) => boolean>(options.isBoundary, "isBoundary") ?? isUserBoundary;
  const head = headLength(messages, transcriptDialect(messages));
  // The library's own summary and reminder, where the hook puts them, never start a tail.
  const made = libraryMessagesOf(messages, head);
  const tailStart = (index: number) => !made.has(messages[index] as M) && isBoundary(messages[index] as M);
  const { start } = findTailStart(new TranscriptTokens(messages, countTokens), head, keepTail, tailStart);
  return { head: messages.slice(0, head), older: messages.slice(head, start), tail: messages.slice(start) };
}
