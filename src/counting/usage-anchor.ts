import type { AnyMessage, CountTokens, ReportedUsage } from "../ground/types.js";
import type { CheckedUsage } from "../validation/usage.js";
import type { MessageFormats } from "../dialects/format-claims.js";
import { CountedMessages, TranscriptTokens } from "./token-counter.js";

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
 * cannot tell the two apart; two reports can (see `UsageHistory`), and a request is counted so
 * that it is never less than the provider's count whenever the provider counts the messages at
 * least as the counter does, or as the ratio two reports showed:
 * - the fixed part is the report less the counter's count of its messages (times the ratio, when
 *   one under 1 was shown), at least `reserveTokens` and at most the report;
 * - the messages the report held count as the counter counts them, times the ratio when one over 1
 *   was shown;
 * - the messages added since (and the summary, and any message this library makes) count times
 *   that ratio, or, before two reports have shown one, times the report over the counter's count of
 *   its messages (what travels apart left out as far as `reserveTokens` says): the most any of them
 *   could count. With the default estimate, none counts less than its word pieces (see
 *   `word-pieces.ts`): dense tool output is what bytes / 4 under-counts most.
 *
 * The request as it is counts the report plus the messages added since; a compacted one counts the
 * fixed part plus its messages.
 *
 * @param counting - the counter, `reserveTokens`, and the formats of the call's messages when read once
 * @returns the counts, the messages' part of the request's count, the fixed part, and the anchor (undefined without usage)
 */
export function anchoredCounts<M extends AnyMessage>(
  messages: readonly M[],
  { countTokens, reserveTokens, formats }: { countTokens: CountTokens<M> | undefined; reserveTokens: number; formats?: MessageFormats },
  usage: ReportedUsage | CheckedUsage | undefined,
  history: UsageHistory | undefined,
): { tokens: TranscriptTokens<M>; messagesTotal: number; fixedTokens: number; anchor: UsageAnchor | undefined } {
  const raw = new TranscriptTokens(messages, countTokens, undefined, { formats });
  const unanchored = (anchor?: UsageAnchor) => ({ tokens: raw, messagesTotal: raw.total, fixedTokens: reserveTokens, anchor });
  if (usage === undefined) return unanchored();
  const { inputTokens, messageCount } = usage;
  const read = "read" in usage ? usage.read : "inputTokens";
  const estimatedTokens = messageCount === 0 ? 0 : raw.isPerMessage ? raw.countRange(0, messageCount) : raw.countList(messages.slice(0, messageCount));
  const anchor = { inputTokens, read, messageCount, estimatedTokens, fixedTokens: reserveTokens, scale: 1 };
  if ("unusable" in usage && usage.unusable !== undefined) return unanchored({ ...anchor, unusable: usage.unusable });
  if (inputTokens < SMALLEST_SHARE * estimatedTokens) {
    return unanchored({ ...anchor, unusable: `${inputTokens} tokens (\`${read}\`) is under a quarter of the estimate of the ${messageCount} messages it held (${Math.ceil(estimatedTokens)})` });
  }
  const ratio = history?.ratio;
  const fixedTokens = Math.min(inputTokens, Math.max(0, inputTokens - Math.min(1, ratio ?? 1) * estimatedTokens, reserveTokens));
  const countedScale = Math.min(HIGHEST_RATIO, Math.max(1, ratio ?? 1));
  const bound = estimatedTokens > 0 ? (inputTokens - Math.min(reserveTokens, inputTokens)) / estimatedTokens : 1;
  const scale = ratio === undefined ? Math.min(HIGHEST_RATIO, Math.max(1, bound)) : countedScale;
  const calibration = { scale, countedScale, floor: true, counted: new CountedMessages(messages, messageCount) };
  const tokens = new TranscriptTokens(messages, countTokens, { from: raw, changed: [] }, { calibration });
  const added = tokens.isPerMessage ? tokens.countRange(messageCount, messages.length) : tokens.countList(messages.slice(messageCount));
  return { tokens, messagesTotal: inputTokens - fixedTokens + added, fixedTokens, anchor: { ...anchor, fixedTokens, scale } };
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
