import { libraryMessagesOf, summaryRoleIn, summaryTextOf } from "../dialects/library-messages.js";
import type { Dialect } from "../dialects/dialect.js";
import { readTranscript } from "../dialects/transcript-format.js";
import { isUserBoundary } from "../dialects/messages.js";
import { truncateToolPayloads } from "./truncate-tool-payloads.js";
import { FLUSH_TO_MEMORY_REMINDER, SUMMARY_PREFIX } from "../ground/constants.js";
import { maskToolResults } from "./mask-tool-output.js";
import { resolveOptions, withReserve, type Settings } from "../ground/options.js";
import { findInsideTurnTail } from "./split-inside-turn.js";
import { findTailStart, headLength } from "./split-at-user-boundary.js";
import { TranscriptView } from "./transcript-view.js";
import { TranscriptTokens } from "../counting/token-counter.js";
import type { AnyMessage, OverBudgetCause, PlanOptions, ReportedUsage } from "../ground/types.js";
import { SEAL_PLACEHOLDER } from "../text/summary-seal.js";
import { assertTranscript } from "../validation/validate-messages.js";
import { checkedUsage } from "../validation/usage.js";

/** What a compaction would do now. */
export type PlanAction = "none" | "mask" | "truncate" | "summarize" | "skip";

/** Why. */
export type PlanReason = "under-budget" | "over-budget" | "forced" | "nothing-to-summarize" | "no-progress";

/** The dry run of a compaction (see `planCompaction`). */
export interface CompactionPlan<M extends AnyMessage = AnyMessage> {
  /**
   * `none`: at or under budget; `mask`: masking old tool results suffices; `truncate`: nothing new
   * to summarize, but cutting oversized tool payloads of the tail brings it closer (the earlier
   * summary is kept, in `head`); `summarize`: `summarize` would run; `skip`: over budget but nothing
   * worth summarizing.
   */
  action: PlanAction;
  reason: PlanReason;
  /**
   * With `ladder.maskToolResults` on, the stage that would produce the result: `"mask"` when masking
   * suffices, `"summarize"` when `summarize` would run. Absent otherwise, and when nothing would run.
   */
  stage?: "mask" | "summarize";
  /** Token count of the transcript as it is. */
  tokensBefore: number;
  /** The kept system prompt (empty when `action` is `none`). */
  head: M[];
  /** What the summary would replace: the original messages, never masked (empty for `none` and `mask`). */
  older: M[];
  /** What would be kept after the summary (masked where masking ran; empty for `none`). */
  tail: M[];
}

/** A plan plus what the engine needs to carry it out without counting again. */
export interface EnginePlan<M extends AnyMessage> extends CompactionPlan<M> {
  /** Token counts of the transcript the tail is cut from (masked, when masking ran). */
  tokens: TranscriptTokens<M>;
  /** Tokens of `head` and `tail` together, for per-message counters. */
  keptTokens: number | undefined;
  /** Tokens of `older` as they were (unmasked), from the counts already taken; undefined for a whole-list counter. */
  olderTokens: number | undefined;
  previousSummary: string | undefined;
  /** Index in `messages` where the kept suffix starts (`messages.length` when none is kept). */
  tailStart: number;
  /** Indices of messages before `tailStart` kept verbatim after the summary (the turn's request, in an in-turn split). */
  pinned: number[];
  /** The longest summary that fits beside what is kept (`context.maxSummaryTokens`). */
  summaryLimit: number;
  /** The messages of the transcript that this library made (an earlier summary, its reminder). */
  made: ReadonlySet<object>;
  /** True when a user-role summary would be sealed (no stored state vouches for it). */
  sealed: boolean;
  /** The transcript's format: the summary is written in it. */
  dialect: Dialect;
  /**
   * The request with `older` kept as it is and the tool payloads after the system prompt cut to
   * fit the budget, when that fits: what is sent when the summary is refused. Made on demand.
   */
  withoutSummary?: () => EnginePlan<M> | undefined;
}

/** Plans a compaction with settings already validated. The engine behind the hook, `compact` and `planCompaction`. */
export function planWithSettings<M extends AnyMessage>(
  messages: readonly M[],
  settings: Settings<M>,
  usage?: ReportedUsage,
  stored?: ReadonlySet<object>,
): EnginePlan<M> {
  assertTranscript(messages);
  const dialect = readTranscript(messages, settings.format);
  settings = withReserve(settings, usage);
  const { tokens: original, total } = countedWith(messages, settings, usage);
  const tokensBefore = Math.ceil(total);
  const overBudget = tokensBefore > settings.maxTokens;
  const plan = (fields: Partial<EnginePlan<M>> & Pick<EnginePlan<M>, "action" | "reason">): EnginePlan<M> => ({
    tokensBefore,
    head: [],
    older: [],
    tail: [],
    tokens: original,
    keptTokens: undefined,
    olderTokens: undefined,
    previousSummary: undefined,
    tailStart: messages.length,
    pinned: [],
    summaryLimit: settings.maxSummaryTokens,
    made: new Set(),
    sealed: stored === undefined,
    dialect,
    ...fields,
  });
  if (!overBudget && !settings.force) return plan({ action: "none", reason: "under-budget" });
  const reason: PlanReason = overBudget ? "over-budget" : "forced";
  const head = headLength(messages);

  // The library's own summary counts by position and role; a boundary must also not cut a pair
  // (a duplicate result after a user turn would be left without its call).
  const made = libraryMessagesOf(messages, head, settings.summaryRole, { stored, sealKey: settings.sealKey, dialect });
  // Every stage below asks about messages by index, through one reading of the transcript. Masking
  // keeps roles, calls and ids, so what it says of a message holds for its masked copy too.
  const view = new TranscriptView(messages, settings.isBoundary);
  const safe = view.safeCuts();
  const isBoundary = (index: number) => !made.has(messages[index] as M) && view.isBoundaryAt(index);
  const isTailStart = (index: number) => safe[index] === 1 && isBoundary(index);

  let tokens = original;
  if (settings.mask) {
    const masking = maskToolResults(messages, settings.mask);
    if (masking.masked > 0) {
      tokens = new TranscriptTokens(masking.messages, settings.countTokens, { from: original, changed: masking.changed });
      // A forced compaction (a user's `/compact`) asks for a summary: masking alone never answers it.
      // Masking changes the start of the request, which the provider's prompt cache is keyed on: it
      // is used alone only when it frees enough at once (`ladder.maskToolResults.minFreedTokens`) not to be needed next turn.
      const freed = original.total - tokens.total;
      if (!settings.force && tokens.total <= settings.maxTokens && freed >= settings.minFreedTokens) {
        return plan({
          action: "mask",
          reason,
          stage: "mask",
          head: masking.messages.slice(0, head),
          tail: masking.messages.slice(head),
          tokens,
          keptTokens: tokens.isPerMessage ? tokens.total : undefined,
          made,
        });
      }
    }
  }

  const cutFrom = tokens.messages;
  const headTokens = tokens.isPerMessage ? tokens.countRange(0, head) : head === 0 ? 0 : tokens.countList(cutFrom.slice(0, head));
  // What the hook adds besides the summary: the reminder, and the reply where turns must alternate.
  const besides = [...(settings.flushToMemory ? [dialect.textMessage(settings.summaryRole, FLUSH_TO_MEMORY_REMINDER)] : []), ...(dialect.replyToSummary ? [dialect.replyToSummary()] : [])];
  const reminderTokens = besides.length > 0 ? tokens.countList(besides as M[]) : 0;
  // Room for the summary is reserved when the tail is chosen, so that summary and tail fit together.
  const tailRoom = settings.maxTokens - headTokens - settings.maxSummaryTokens - reminderTokens;
  const tailBudget = settings.turnsOnly ? settings.keepTail : Math.max(0, Math.min(settings.keepTail, tailRoom));

  const { start, fits } = findTailStart(tokens, head, tailBudget, isTailStart);
  let older: M[] = messages.slice(head, start);
  let tail: M[] = cutFrom.slice(start);
  let tailStart = start;
  let pinned: number[] = [];
  let tailTokens = tokens.isPerMessage ? tokens.countRange(start, cutFrom.length) : undefined;
  const keepOnly = (user: number, groupStart: number) => {
    older = messages.slice(head, user).concat(messages.slice(user + 1, groupStart));
    tail = [cutFrom[user] as M].concat(cutFrom.slice(groupStart));
    tailStart = groupStart;
    pinned = [user];
    tailTokens = tokens.isPerMessage ? tokens.countAt(user) + tokens.countRange(groupStart, cutFrom.length) : undefined;
  };
  if (!fits && settings.splitInsideTurn) {
    const inside = findInsideTurnTail(tokens, head, tailBudget, isTailStart, view);
    if (inside) keepOnly(inside.user, inside.groupStart);
  }
  if (!settings.turnsOnly) {
    // The latest user message is never summarized away: with no tail holding it, keep it alone.
    const user = latestBoundary(cutFrom.length, head, isBoundary);
    if (user !== -1 && user < tailStart && !pinned.includes(user)) keepOnly(user, cutFrom.length);
  }

  // The older part kept as it is, and every tool payload after the system prompt cut to fit: for an
  // older part too small for any summary to replace, and for a summary that was refused. With
  // `overBudget`, the smallest reachable is taken when nothing fits.
  const keepOlder = (overBudget: boolean): EnginePlan<M> | undefined => {
    if (!settings.truncateToolResults) return undefined;
    const room = settings.maxTokens - headTokens;
    const truncation = truncateToolPayloads(cutFrom.slice(head), room, settings.countTokens, tokens.calibration);
    if (truncation === undefined || (!overBudget && truncation.tokens > room)) return undefined;
    const keptTokens = tokens.isPerMessage ? headTokens + truncation.tokens : undefined;
    return plan({ action: "truncate", reason, head: cutFrom.slice(0, head), tail: truncation.messages, tokens, keptTokens, tailStart: head, made });
  };
  // What the summary would replace, as the transcript counts it (masking aside); a whole-list
  // counter is called once for each older part.
  let counted: { of: readonly M[]; count: number } | undefined;
  const olderCount = (): number => {
    if (counted?.of === older) return counted.count;
    let count = original.isPerMessage ? original.countRange(head, tailStart) : original.countList(older);
    if (original.isPerMessage) for (const index of pinned) count -= original.countAt(index);
    counted = { of: older, count };
    return count;
  };
  let smallest: number | undefined;
  const smallestSummary = () => (smallest ??= summaryTokens(dialect, settings, tokens, stored === undefined, SMALLEST_SUMMARY));

  let summaryLimit = settings.maxSummaryTokens;
  let truncated = false;
  if (!settings.turnsOnly) {
    // An older part no larger than a summary of a few words stays as it is when cutting the tool
    // payloads then fits: a summary of a greeting would be refused as not smaller than it.
    if (older.length > 0 && !older.every((message) => made.has(message)) && olderCount() <= smallestSummary()) {
      const kept = keepOlder(false);
      if (kept !== undefined) return kept;
    }
    tailTokens ??= tokens.countList(tail);
    // With nothing but an earlier summary to replace, that summary stays: the room is what it leaves.
    const keepsSummary = older.length > 0 && older.every((message) => made.has(message));
    const room = Math.max(0, keepsSummary ? settings.maxTokens - headTokens - tokens.countList(older) : tailRoom);
    if (settings.truncateToolResults && tailTokens > room) {
      const truncation = truncateToolPayloads(tail, room, settings.countTokens, tokens.calibration);
      if (truncation) {
        tail = truncation.messages;
        tailTokens = truncation.tokens;
        truncated = true;
      }
    }
    if (tailTokens > room && !(pinned.length === 1 && tail.length === 1)) {
      // The last resort of the ladder: the request alone, everything after it summarized.
      const user = latestBoundary(cutFrom.length, head, isBoundary);
      if (user !== -1) {
        keepOnly(user, cutFrom.length);
        tailTokens = tokens.countList(tail);
        truncated = false;
      }
    }
    // What the kept messages leave for the summary, when they take more than their share; never
    // less than a summary of a few words, so that the best result is still a summary (over budget).
    const left = settings.maxTokens - headTokens - reminderTokens - tailTokens;
    if (left < summaryLimit) summaryLimit = Math.max(left, smallestSummary());
  }
  const keptTokens = tokens.isPerMessage && tailTokens !== undefined ? headTokens + tailTokens : undefined;
  // What the summary replaces, counted once here from the transcript's own counts (a summary must be smaller).
  let olderTokens = original.isPerMessage && older.length > 0 ? olderCount() : undefined;
  const fields = { reason, head: cutFrom.slice(0, head), older, tail, tokens, keptTokens, olderTokens, tailStart, pinned, summaryLimit, made };
  if (older.length === 0) return plan({ ...fields, action: "skip", reason: "nothing-to-summarize" });
  if (older.every((message) => made.has(message))) {
    // Re-summarizing a summary gains nothing; cutting oversized tool payloads of the tail may.
    if (truncated) return plan({ ...fields, action: "truncate", head: fields.head.concat(older), older: [] });
    return plan({ ...fields, action: "skip", reason: "no-progress" });
  }
  if (!settings.turnsOnly) {
    // A summary must be smaller than what it replaces, so its limit is one token less; when not even
    // an empty one is, no summary is asked for and the older part stays.
    olderTokens ??= olderCount();
    summaryLimit = Math.max(1, Math.floor(Math.min(summaryLimit, Math.ceil(olderTokens) - 1)));
    if (Math.ceil(summaryTokens(dialect, settings, tokens, stored === undefined, "")) >= Math.ceil(olderTokens)) {
      return keepOlder(true) ?? plan({ ...fields, action: "skip", reason: "nothing-to-summarize" });
    }
  }
  const stage = settings.mask ? { stage: "summarize" as const } : {};
  return plan({ ...fields, olderTokens, summaryLimit, action: "summarize", ...stage, previousSummary: summaryTextOf(made), withoutSummary: () => keepOlder(false) });
}

/**
 * The transcript's counts, and its total, anchored on the provider's reported usage when there is
 * one. The first `messageCount` messages held `inputTokens`: the total is that figure plus the
 * count of what was added since. The ratio of the figure to the counter's own count of those
 * messages calibrates every other count (the tail search, the fit check) when the provider counts
 * more than the counter does; when it counts less, the counter's larger figures are kept, so a
 * calibration never makes a request look smaller than the counter says. The ratio is capped at 4.
 * With the default estimate, no message then counts less than its word pieces (see
 * `word-pieces.ts`): a fresh tool output of dense text is under-counted by bytes / 4 far more than
 * the transcript's average, and the ratio, which only knows the messages already counted, cannot
 * see it.
 */
function countedWith<M extends AnyMessage>(
  messages: readonly M[],
  settings: Settings<M>,
  usage: ReportedUsage | undefined,
): { tokens: TranscriptTokens<M>; total: number } {
  const raw = new TranscriptTokens(messages, settings.countTokens);
  if (usage === undefined) return { tokens: raw, total: raw.total };
  const held = usage.messageCount === 0 ? 0 : raw.isPerMessage ? raw.countRange(0, usage.messageCount) : raw.countList(messages.slice(0, usage.messageCount));
  const ratio = held > 0 ? usage.inputTokens / held : 1;
  // A report under a quarter of the counter's own count is no count of these messages (a cache hit
  // reported as zero, a proxy's placeholder): it is left out rather than let turn compaction off.
  if (ratio < 0.25) return { tokens: raw, total: raw.total };
  const calibration = { scale: Math.min(4, Math.max(1, ratio)), floor: true, counted: new Set<object>(messages.slice(0, usage.messageCount)) };
  const tokens = new TranscriptTokens(messages, settings.countTokens, { from: raw, changed: [] }, calibration);
  const added = tokens.isPerMessage ? tokens.countRange(usage.messageCount, messages.length) : tokens.countList(messages.slice(usage.messageCount));
  return { tokens, total: usage.inputTokens + added };
}

/** The text of a summary of a few words: less room than its message takes holds no summary at all. */
const SMALLEST_SUMMARY = "a few words ".repeat(5);

/** Tokens of a summary message with `text` in the transcript's format (prefix, seal and message included). */
function summaryTokens<M extends AnyMessage>(dialect: Dialect, settings: Settings<M>, tokens: TranscriptTokens<M>, sealed: boolean, text: string): number {
  // A user-role summary made without stored state carries a seal (see `summary-seal.ts`).
  const seal = sealed && summaryRoleIn(dialect, settings.summaryRole) !== "system" ? SEAL_PLACEHOLDER : "";
  const summary = dialect.textMessage(settings.summaryRole, `${SUMMARY_PREFIX}${text}${seal}`);
  return tokens.countList([summary as M]);
}

/** Index of the latest boundary at or after `from` among `length` messages, or -1. */
function latestBoundary(length: number, from: number, isBoundary: (index: number) => boolean): number {
  for (let index = length - 1; index >= from; index--) if (isBoundary(index)) return index;
  return -1;
}

/**
 * Why a transcript cannot be brought within budget: the system prompt alone exceeds it, or with
 * the latest user message it does; otherwise what was kept (a rung turned off, or an oversized
 * message that is not a tool payload).
 */
export function overBudgetCause<M extends AnyMessage>(plan: EnginePlan<M>, settings: Settings<M>): OverBudgetCause {
  const { tokens } = plan;
  const head = headLength(tokens.messages);
  const headTokens = head === 0 ? 0 : tokens.countList(tokens.messages.slice(0, head));
  if (headTokens > settings.maxTokens) return "system-prompt";
  const isCallerBoundary = settings.isBoundary ?? isUserBoundary;
  const messages = tokens.messages;
  const user = latestBoundary(messages.length, head, (index) => !plan.made.has(messages[index] as M) && isCallerBoundary(messages[index] as M));
  const userTokens = user === -1 ? 0 : tokens.countList([tokens.messages[user] as M]);
  // The latest request is kept, and a summary of a few words must fit beside it and the system prompt.
  if (user !== -1 && headTokens + userTokens + summaryTokens(plan.dialect, settings, tokens, plan.sealed, SMALLEST_SUMMARY) > settings.maxTokens) {
    return "latest-user-message";
  }
  return "kept-messages";
}

/**
 * Plans a compaction without running it: a synchronous dry run that never calls `summarize`.
 * The hook does exactly this, then summarizes, then assembles.
 *
 * @param messages - the transcript; not changed
 * @param options - the options of `compactor` (`summarize` optional), plus `force`
 * @returns what would happen, why, the token count, and the three parts
 * @example
 * ```ts
 * const plan = planCompaction(messages, { maxTokens: 8_000 });
 * if (plan.action === "summarize") console.log(`${plan.older.length} messages would be summarized`);
 * ```
 */
export function planCompaction<M extends AnyMessage>(
  messages: readonly M[],
  options: PlanOptions<M>,
): CompactionPlan<M> {
  const settings = resolveOptions<M>(options, "plan");
  const usage = Array.isArray(messages) ? checkedUsage(options.usage, messages.length) : undefined;
  const { action, reason, stage, tokensBefore, head, older, tail } = planWithSettings(messages, settings, usage);
  return stage === undefined
    ? { action, reason, tokensBefore, head, older, tail }
    : { action, reason, stage, tokensBefore, head, older, tail };
}
