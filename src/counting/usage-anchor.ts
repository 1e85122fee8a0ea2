import type { AnyMessage, CountTokens, ReportedUsage } from "../ground/types.js";
import type { CheckedUsage } from "../validation/usage.js";
import type { MessageFormats } from "../dialects/format-claims.js";
import { CountedMessages, TranscriptTokens } from "./token-counter.js";
import { messageWordPieces } from "./word-pieces.js";

/**
 * What a usage report says of the request it describes: the reported input, the counter's own
 * count of the messages it held, and how the plan counts from it. A request is counted as
 * `fixedTokens` (what travels beside the messages: the system prompt passed apart, the tool
 * definitions) plus its messages, each multiplied by `scale`.
 */
export interface UsageAnchor {
  readonly inputTokens: number;
  /** The fields the input was read from. */
  readonly read: string;
  readonly messageCount: number;
  /** The counter's count of the first `messageCount` messages, uncalibrated. */
  readonly estimatedTokens: number;
  readonly fixedTokens: number;
  readonly scale: number;
  /** Why the report is not counted by, when it is not (the plan then counts as without usage). */
  readonly unusable?: string;
}

/** A report under this share of the counter's own count of its messages counts nothing: a cached prefix billed as zero, a proxy's placeholder. */
const SMALLEST_SHARE = 0.25;
/** Bounds of the per-message ratio two reports may show: past them, the two reports described different things. */
const LOWEST_RATIO = 0.5;
const HIGHEST_RATIO = 4;
/**
 * Two reports reveal the per-message ratio only when their messages differ by this much (and by a
 * tenth of the larger), so that one message the provider counts apart from the rest (a thinking
 * block it drops, a signature) does not make the ratio.
 */
const SMALLEST_SPAN = 1000;

/**
 * What a hook keeps of the usage reports it was given: the per-message ratio that two of them
 * reveal (a report alone cannot tell the messages from what travels beside them), and what it has
 * already said of them (`events.onUsage`), so that each thing is said once.
 */
export class UsageHistory {
  /** The report the next ratio is measured from: kept until one far enough from it comes. */
  private from: { inputTokens: number; estimatedTokens: number } | undefined;
  /** Provider tokens per counted token of the messages, once two reports have shown it. */
  ratio: number | undefined;
  /** The kinds of notice already said. */
  readonly said = new Set<string>();
  /** The last report of a request over budget that was said, so that the same report is not said twice. */
  overBudgetSaid: string | undefined;

  /** Learns from a report the plan counted by. */
  record(anchor: UsageAnchor): void {
    if (anchor.unusable !== undefined) return;
    const { inputTokens, estimatedTokens } = anchor;
    const from = this.from;
    if (from === undefined) {
      this.from = { inputTokens, estimatedTokens };
      return;
    }
    const span = estimatedTokens - from.estimatedTokens;
    if (Math.abs(span) < Math.max(SMALLEST_SPAN, 0.1 * Math.max(estimatedTokens, from.estimatedTokens))) return;
    const ratio = (inputTokens - from.inputTokens) / span;
    // Two reports of different conversations, or around a change of tools, show no ratio of messages.
    if (Number.isFinite(ratio) && ratio >= LOWEST_RATIO && ratio <= HIGHEST_RATIO) this.ratio = ratio;
    this.from = { inputTokens, estimatedTokens };
  }
}

/**
 * The transcript's counts anchored on a usage report. The report's input is the request as the
 * provider counted it: the first `messageCount` messages and what travelled beside them. One report
 * cannot tell the two apart, so it books beside the messages only what is known to travel there:
 * - the fixed part is `reserveTokens` (what the caller says travels apart: the system prompt
 *   passed apart, the tool definitions), or what two reports show (see `UsageHistory`), and never
 *   less than what the messages cannot plausibly hold (the report less four times their count);
 * - the rest of the report is the messages': they all count, the reported ones and the ones added
 *   since alike, at the report's ratio to the counter's count of them (`scale`). Booking the gap
 *   as fixed and counting the messages above the counter as well counted dense tool output twice:
 *   a compacted request was said to hold up to three times what the provider counted in it.
 * - a message the provider has not counted yet (added since, a cut payload) counts no less than
 *   1.1 times its word pieces with the default estimate (see `word-pieces.ts`, `FRESH_PIECE_RATE`):
 *   dense text is what bytes / 4 under-counts most, and what no ratio of other messages shows; a
 *   summary of the library's counts by its own content (see `calibrated` in token-counter.ts).
 *
 * The request as it is counts the report plus the messages added since; a compacted one counts the
 * fixed part plus its messages.
 *
 * @param counting - the counter, `reserveTokens`, and the formats of the call's messages when read once
 * @returns the counts, the messages' part of the request's count, the fixed part, and the anchor (undefined without usage)
 */
export function anchoredCounts<M extends AnyMessage>(
  messages: readonly M[],
  {
    countTokens,
    reserveTokens,
    formats,
  }: { countTokens: CountTokens<M> | undefined; reserveTokens: number; formats?: MessageFormats },
  usage: ReportedUsage | CheckedUsage | undefined,
  history: UsageHistory | undefined,
): { tokens: TranscriptTokens<M>; messagesTotal: number; fixedTokens: number; anchor: UsageAnchor | undefined } {
  const raw = new TranscriptTokens(messages, countTokens, undefined, { formats });
  const unanchored = (anchor?: UsageAnchor) => ({
    tokens: raw,
    messagesTotal: raw.total,
    fixedTokens: reserveTokens,
    anchor,
  });
  if (usage === undefined) return unanchored();
  const { inputTokens, messageCount } = usage;
  const read = "read" in usage ? usage.read : "inputTokens";
  const estimatedTokens =
    messageCount === 0
      ? 0
      : raw.isPerMessage
        ? raw.countRange(0, messageCount)
        : raw.countList(messages.slice(0, messageCount));
  const anchor = { inputTokens, read, messageCount, estimatedTokens, fixedTokens: reserveTokens, scale: 1 };
  if ("unusable" in usage && usage.unusable !== undefined) return unanchored({ ...anchor, unusable: usage.unusable });
  if (inputTokens < SMALLEST_SHARE * estimatedTokens) {
    return unanchored({
      ...anchor,
      unusable: `${inputTokens} tokens (\`${read}\`) is under a quarter of the estimate of the ${messageCount} messages it held (${Math.ceil(estimatedTokens)})`,
    });
  }
  const fixedTokens = fixedPartOf({ inputTokens, estimatedTokens, reserveTokens, ratio: history?.ratio });
  // With no message reported, nothing shows how the provider counts them: they count as estimated.
  const scale =
    estimatedTokens > 0
      ? Math.min(HIGHEST_RATIO, Math.max(SMALLEST_SHARE, (inputTokens - fixedTokens) / estimatedTokens))
      : 1;
  let pieceScale: number | undefined;
  const calibration = {
    scale,
    floor: true,
    counted: new CountedMessages(messages, messageCount),
    pieceScale: () => {
      if (pieceScale === undefined) {
        let content = 0;
        for (let index = 0; index < messageCount; index++) {
          const count = raw.countRange(index, index + 1);
          content += Math.max(count, messageWordPieces(messages[index], count, formats?.at(index)));
        }
        pieceScale = Math.max(1, Math.min(HIGHEST_RATIO, (inputTokens - fixedTokens) / Math.max(1, content)));
      }
      return pieceScale;
    },
  };
  const tokens = new TranscriptTokens(messages, countTokens, { from: raw, changed: [] }, { calibration });
  const added = tokens.isPerMessage
    ? tokens.countRange(messageCount, messages.length)
    : tokens.countList(messages.slice(messageCount));
  return {
    tokens,
    messagesTotal: inputTokens - fixedTokens + added,
    fixedTokens,
    anchor: { ...anchor, fixedTokens, scale },
  };
}

/**
 * What travels beside the messages, as far as can be known: what two reports show (the report less
 * the messages at the ratio they revealed), else `reserveTokens`; never more than the report, and
 * never less than what the messages cannot hold at the highest plausible ratio.
 */
function fixedPartOf({
  inputTokens,
  estimatedTokens,
  reserveTokens,
  ratio,
}: {
  inputTokens: number;
  estimatedTokens: number;
  reserveTokens: number;
  ratio: number | undefined;
}): number {
  const shown = ratio === undefined ? reserveTokens : Math.max(0, inputTokens - ratio * estimatedTokens);
  return Math.min(inputTokens, Math.max(shown, inputTokens - HIGHEST_RATIO * estimatedTokens));
}

/** How many conversations' histories a `statefulCompactor` keeps; the least recently used goes first. */
const KEPT_HISTORIES = 1000;

/** The usage history of each conversation, for a compactor that serves many. */
export class UsageHistories {
  private readonly byKey = new Map<string, UsageHistory>();

  /** The history of the conversation stored under `key`. */
  of(key: string): UsageHistory {
    let history = this.byKey.get(key);
    if (history !== undefined) this.byKey.delete(key);
    else history = new UsageHistory();
    this.byKey.set(key, history);
    if (this.byKey.size > KEPT_HISTORIES) this.byKey.delete(this.byKey.keys().next().value as string);
    return history;
  }
}
