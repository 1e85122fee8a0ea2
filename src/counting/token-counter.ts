import { estimateListlessMessageTokens, estimateMessageTokens, estimateTokens } from "./estimate-tokens.js";
import { messageWordPieces } from "./word-pieces.js";
import { messageLeadingText } from "../dialects/describe-message.js";
import { SUMMARY_PREFIX } from "../ground/constants.js";
import { describeValue, typeName } from "../ground/describe-value.js";
import { OPENAI_CHAT, PLAIN_TEXT, type MessageFormats } from "../dialects/format-claims.js";
import type { MessageRecord } from "../dialects/dialect.js";
import { isPlainJsonMessage } from "../dialects/provider-payload.js";
import type { AnyMessage, CountTokens } from "../ground/types.js";

// A counter that is a sum of per-message counts exposes its per-message function under this
// symbol (see createCachedCounter), so the tail search can sum counts instead of recounting suffixes.
export const perMessageCount = Symbol.for("context-compactor.perMessageCount");

type PerMessage = (message: unknown, index: number) => number;

/** The per-message function of a counter that is a sum over messages, if it is one. */
function perMessageOf<M extends AnyMessage>(countTokens: CountTokens<M> | undefined): PerMessage | undefined {
  if (countTokens === undefined || countTokens === (estimateTokens as unknown)) return estimateMessageTokens;
  const perMessage = (countTokens as unknown as Record<symbol, unknown>)[perMessageCount];
  return typeof perMessage === "function" ? (perMessage as PerMessage) : undefined;
}

/**
 * How counts are adjusted once a provider has reported what it counted (see `usage`): every count
 * multiplied by `scale`, and, with `floor`, no message of the default estimate the provider has
 * not counted below its word pieces at `FRESH_PIECE_RATE` (its dense text is what bytes / 4
 * under-counts most, and what no ratio sees before the provider has counted it).
 */
export interface Calibration {
  readonly scale: number;
  readonly floor: boolean;
  /**
   * Messages the provider has already counted (the first `messageCount` of the reported usage):
   * their total is known exactly, so they get no floor, which would only cost their word pieces.
   */
  readonly counted?: CountedMessages;
  /**
   * The report's ratio to its messages counted by their content (each at its bytes / 4 or its word
   * pieces, whichever is more), never under 1: how much finer than o200k's pieces the provider's
   * tokenizer splits text, where `scale` is mostly how dense the transcript is. Read only to count a
   * summary of this library's, as it reads every reported message's pieces (once a message object).
   */
  readonly pieceScale?: () => number;
}

/** The messages a usage report covered: the first `count` of the transcript it was reported for. */
export class CountedMessages {
  private byObject: Set<object> | undefined;

  constructor(
    private readonly messages: readonly object[],
    private readonly count: number,
  ) {}

  /**
   * True for a message the report covered. Asked with its index in that transcript, it is told by
   * position, without a set of every message (the call under budget counts only the ones added
   * since); any other message (a masked copy, a slice) is looked up by object.
   */
  has(message: object, index?: number): boolean {
    if (index !== undefined && this.messages[index] === message) return index < this.count;
    return (this.byObject ??= new Set(this.messages.slice(0, this.count))).has(message);
  }
}

/**
 * o200k tokens a word piece of a summary may take: 1.08–1.17 in the agents' own summaries of the
 * real Claude Code and pi sessions, 1.00–1.38 (p99 1.32) in the model-free summaries of what they
 * replaced (paths and ids split finer than words). Times the provider's rate against the word
 * pieces (`Calibration.pieceScale`), as its tokenizer may split finer than o200k.
 */
const SUMMARY_PIECE_RATE = 1.35;

/**
 * o200k tokens a word piece of a message no report has counted yet: the median over the real
 * sessions' messages is 1.10 (p10 1.03), as long words, paths and code split into more than one
 * token. At the pieces alone (a lower bound), a fresh tool output of code was under-counted often
 * enough that bench:fit sent 1.1% of moatless requests at a window of 25% over it with usage
 * (18 of 1,592, the SPEC's target is 1%); at 1.1 times, 5; at 1.15, 1, and bench:counted's worst
 * cell (the AI SDK on ids) reached its 10% limit.
 */
const FRESH_PIECE_RATE = 1.1;

/**
 * A summary message of this library's: its text opens with `SUMMARY_PREFIX`. Read from the content
 * or parts as they stand, not through `isSummaryMessage`, which tells the message's format again:
 * this is asked of every message added since the report, and a call tells each format once.
 */
function isLibrarySummary(message: unknown): boolean {
  return (
    typeof message === "object" &&
    message !== null &&
    (messageLeadingText(message)?.startsWith(SUMMARY_PREFIX) ?? false)
  );
}

/** Counts as the counter gives them. */
export const UNCALIBRATED: Calibration = { scale: 1, floor: false };

/** Checks what a caller's `countTokens` returned. */
export function checkedCount(value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new TypeError(
      `Expected \`countTokens\` to return a finite number from 0 and up, got ${describeValue(value)} (${typeName(value)})`,
    );
  }
  return value;
}

/**
 * Token counts of a transcript and of its suffixes, with as few counter calls as the counter
 * allows. A per-message counter (the default estimator) is called at most once per message, and
 * only for the messages asked about; a whole-list counter is called on the slices asked for.
 */
export class TranscriptTokens<M extends AnyMessage> {
  private readonly perMessage: PerMessage | undefined;
  /** Per-message counts for a per-message counter; NaN marks a message not counted yet. */
  private readonly counts: Float64Array | undefined;
  private readonly floored: boolean;
  private readonly estimates: boolean;
  /** How counts are adjusted once a provider has reported what it counted. */
  readonly calibration: Calibration;
  /** The formats of the call's messages, when read (see `MessageFormats`). */
  readonly formats: MessageFormats | undefined;
  private cachedTotal: number | undefined;

  /**
   * @param reuse - counts of a transcript that differs from this one only at `changed` indices
   * @param counting - `calibration`: what the provider's reported usage revealed (see `usage`);
   *   `formats`: the formats of the call's messages, read once (the estimate reads a message's
   *   images as its format holds them), else each looked up; by default those of `reuse`
   */
  constructor(
    readonly messages: readonly M[],
    private readonly countTokens: CountTokens<M> | undefined,
    reuse?: { from: TranscriptTokens<M>; changed: readonly number[] },
    counting: { calibration?: Calibration; formats?: MessageFormats | undefined } = {},
  ) {
    this.calibration = counting.calibration ?? reuse?.from.calibration ?? UNCALIBRATED;
    this.formats = "formats" in counting ? counting.formats : reuse?.from.formats;
    const { calibration } = this;
    this.perMessage = perMessageOf(countTokens);
    // Only the estimate reads formats: a caller's counter gets the message alone.
    this.estimates = this.perMessage === estimateMessageTokens;
    // Only the byte estimate has a floor: a caller's counter is taken at its word.
    this.floored = calibration.floor && this.estimates;
    if (this.perMessage === undefined) return;
    if (reuse?.from.counts && reuse.changed.length === 0 && reuse.from.messages === messages) {
      // The same messages: their uncalibrated counts are the same, so one array serves both.
      this.counts = reuse.from.counts;
    } else if (reuse?.from.counts) {
      this.counts = reuse.from.counts.slice();
      for (const index of reuse.changed) this.counts[index] = Number.NaN;
    } else {
      this.counts = new Float64Array(messages.length).fill(Number.NaN);
    }
  }

  /** The factor on every count. */
  get scale(): number {
    return this.calibration.scale;
  }

  /** True when suffix counts are sums of per-message counts (a linear walk beats a binary search). */
  get isPerMessage(): boolean {
    return this.counts !== undefined;
  }

  /** Tokens of the message at `index` (per-message counters only). Counts are cached uncalibrated, so a calibrated copy can reuse them. */
  countAt(index: number): number {
    const counts = this.counts as Float64Array;
    let count = counts[index] as number;
    const claim = this.estimates ? this.formats?.at(index) : undefined;
    if (Number.isNaN(count)) {
      count = this.estimates
        ? this.estimateAt(index, claim)
        : (this.perMessage as PerMessage)(this.messages[index], index);
      counts[index] = count;
    }
    return this.calibrated(count, this.messages[index], claim, index);
  }

  private calibrated(count: number, message: unknown, claim: number | undefined, index?: number): number {
    const { scale, counted } = this.calibration;
    const scaled = count * scale;
    if (counted?.has(message as object, index) ?? false) return scaled;
    if (!this.floored) return scaled;
    const pieces = messageWordPieces(message, count, claim);
    // A summary of this library's the provider has not counted yet is the summarizer's text, not
    // the transcript's: the report's ratio, mostly how dense the transcript is, put a prose summary
    // of a transcript of UUIDs (a ratio of 2) at twice what the provider counted. It counts by its
    // own content instead, its bytes / 4 or its word pieces at `SUMMARY_PIECE_RATE`, whichever is
    // more, at the provider's rate against content; never over what the ratio gives (so the room
    // `summarize` is told still holds what it writes), nor under its word pieces.
    if (this.calibration.pieceScale !== undefined && isLibrarySummary(message)) {
      const content = Math.max(count, pieces * SUMMARY_PIECE_RATE) * this.calibration.pieceScale();
      return Math.max(pieces, Math.min(scaled, content));
    }
    return Math.max(scaled, pieces * FRESH_PIECE_RATE);
  }

  /** The format of a message of this call, for the estimate, when the call has read it. */
  private claimOf(message: unknown): number | undefined {
    return this.estimates && this.formats !== undefined && typeof message === "object" && message !== null
      ? this.formats.of(message)
      : undefined;
  }

  /** Tokens of the whole transcript. */
  get total(): number {
    if (this.cachedTotal !== undefined) return this.cachedTotal;
    let total = 0;
    if (this.counts === undefined)
      total = checkedCount((this.countTokens as CountTokens<M>)(this.messages)) * this.calibration.scale;
    else total = this.countRange(0, this.messages.length);
    this.cachedTotal = total;
    return total;
  }

  /** Tokens of any list of messages, counted the way this transcript is. */
  countList(messages: readonly M[]): number {
    if (this.perMessage !== undefined) {
      let total = 0;
      for (let index = 0; index < messages.length; index++) {
        const message = messages[index];
        const claim = this.claimOf(message);
        total += this.calibrated(
          this.estimates ? estimateMessageTokens(message, index) : this.perMessage(message, index),
          message,
          claim,
        );
      }
      return total;
    }
    return checkedCount((this.countTokens as CountTokens<M>)(messages)) * this.calibration.scale;
  }

  /**
   * Tokens of the messages from `start` to the end, with the message at `extra` in front when
   * given, by one call of a whole-list counter. (Per-message counters sum `countAt` instead.)
   */
  countSuffix(start: number, extra?: number): number {
    const suffix = this.messages.slice(start);
    if (extra !== undefined) suffix.unshift(this.messages[extra] as M);
    return this.countList(suffix);
  }

  /** Tokens of the messages from `start` to `end` (exclusive), summed (per-message counters only). */
  countRange(start: number, end: number): number {
    let total = 0;
    if (this.calibration === UNCALIBRATED) return this.sumRange(start, end);
    for (let index = start; index < end; index++) total += this.countAt(index);
    return total;
  }

  /**
   * The uncalibrated sum of `countRange`, in one loop that calls the counter directly and asks no
   * calibration per message: a call under budget spends all its time here but for the count itself.
   */
  private sumRange(start: number, end: number): number {
    const counts = this.counts as Float64Array;
    const { messages, formats } = this;
    let total = 0;
    for (let index = start; index < end; index++) {
      let count = counts[index] as number;
      if (Number.isNaN(count)) {
        count = this.estimates
          ? this.estimateAt(index, formats?.at(index))
          : (this.perMessage as PerMessage)(messages[index], index);
        counts[index] = count;
      }
      total += count;
    }
    return total;
  }

  /**
   * The estimate of the message at `index`, with what the call's reading of its format (`claim`)
   * already showed. The content is looked at again: the message here may be a copy a rung made of the one
   * that was read (a masked or cut tool result), and only a content that is no list is counted as such.
   */
  private estimateAt(index: number, claim: number | undefined): number {
    const message = this.messages[index] as MessageRecord;
    const listless = (claim === PLAIN_TEXT || claim === OPENAI_CHAT) && isPlainJsonMessage(message);
    return listless ? estimateListlessMessageTokens(message, index) : estimateMessageTokens(message, index);
  }
}
