import { isLibraryMessage, leadingText } from "../dialects/messages.js";
import { SUMMARY_PREFIX } from "../hook/constants.js";
import { maskToolResults } from "./mask-tool-results.js";
import { resolveOptions, type Settings } from "../hook/options.js";
import { findInsideTurnTail } from "./split-inside-turn.js";
import { findTailStart, headLength } from "./split-at-user-boundary.js";
import { TranscriptTokens } from "../counting/token-counter.js";
import type { AnyMessage, PlanOptions } from "../hook/types.js";
import { assertTranscript } from "../validation/validate-messages.js";

/** What a compaction would do now. */
export type PlanAction = "none" | "mask" | "summarize" | "skip";

/** Why. */
export type PlanReason = "under-budget" | "over-budget" | "forced" | "nothing-to-summarize" | "no-progress";

/** The dry run of a compaction (see `planCompaction`). */
export interface CompactionPlan<M extends AnyMessage = AnyMessage> {
  /** `none`: at or under budget; `mask`: masking old tool results suffices; `summarize`: `summarize` would run; `skip`: over budget but nothing worth summarizing. */
  action: PlanAction;
  reason: PlanReason;
  /**
   * With `maskToolResults` on, the stage that would produce the result: `"mask"` when masking
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
  previousSummary: string | undefined;
  /** Index in `messages` where the kept suffix starts (`messages.length` when none is kept). */
  tailStart: number;
  /** Indices of messages before `tailStart` kept verbatim after the summary (the turn's request, in an in-turn split). */
  pinned: number[];
}

function previousSummaryIn(older: readonly object[]): string | undefined {
  for (let index = older.length - 1; index >= 0; index--) {
    const text = leadingText(older[index] as object);
    if (text?.startsWith(SUMMARY_PREFIX)) return text.slice(SUMMARY_PREFIX.length);
  }
  return undefined;
}

/** Plans a compaction with settings already validated. The engine behind the hook, `compact` and `planCompaction`. */
export function planWithSettings<M extends AnyMessage>(
  messages: readonly M[],
  settings: Settings<M>,
): EnginePlan<M> {
  assertTranscript(messages);
  const original = new TranscriptTokens(messages, settings.countTokens);
  const tokensBefore = original.total;
  const overBudget = tokensBefore > settings.maxTokens;
  const plan = (fields: Partial<EnginePlan<M>> & Pick<EnginePlan<M>, "action" | "reason">): EnginePlan<M> => ({
    tokensBefore,
    head: [],
    older: [],
    tail: [],
    tokens: original,
    keptTokens: undefined,
    previousSummary: undefined,
    tailStart: messages.length,
    pinned: [],
    ...fields,
  });
  if (!overBudget && !settings.force) return plan({ action: "none", reason: "under-budget" });
  const reason: PlanReason = overBudget ? "over-budget" : "forced";
  const head = headLength(messages);

  let tokens = original;
  if (settings.mask) {
    const masking = maskToolResults(messages, settings.mask);
    if (masking.masked > 0) {
      tokens = new TranscriptTokens(masking.messages, settings.countTokens, { from: original, changed: masking.changed });
      // A forced compaction (a user's `/compact`) asks for a summary: masking alone never answers it.
      if (!settings.force && tokens.total <= settings.maxTokens) {
        return plan({
          action: "mask",
          reason,
          stage: "mask",
          head: masking.messages.slice(0, head),
          tail: masking.messages.slice(head),
          tokens,
          keptTokens: tokens.isPerMessage ? tokens.total : undefined,
        });
      }
    }
  }

  const cutFrom = tokens.messages;
  const { start, fits } = findTailStart(tokens, head, settings.keepTail, settings.isBoundary);
  let older: M[] = messages.slice(head, start);
  let tail: M[] = cutFrom.slice(start);
  let keptTokens = tokens.isPerMessage ? tokens.countRange(0, head) + tokens.countRange(start, cutFrom.length) : undefined;
  let tailStart = start;
  let pinned: number[] = [];
  if (!fits && settings.splitInsideTurn) {
    const inside = findInsideTurnTail(tokens, head, settings.keepTail, settings.isBoundary);
    if (inside) {
      const { user, groupStart } = inside;
      older = messages.slice(head, user).concat(messages.slice(user + 1, groupStart));
      tail = [cutFrom[user] as M].concat(cutFrom.slice(groupStart));
      tailStart = groupStart;
      pinned = [user];
      if (tokens.isPerMessage) {
        keptTokens = tokens.countRange(0, head) + tokens.countAt(user) + tokens.countRange(groupStart, cutFrom.length);
      }
    }
  }
  const fields = { reason, head: cutFrom.slice(0, head), older, tail, tokens, keptTokens, tailStart, pinned };
  if (older.length === 0) return plan({ ...fields, action: "skip", reason: "nothing-to-summarize" });
  if (older.every((message) => isLibraryMessage(message))) {
    return plan({ ...fields, action: "skip", reason: "no-progress" });
  }
  const stage = settings.mask ? { stage: "summarize" as const } : {};
  return plan({ ...fields, action: "summarize", ...stage, previousSummary: previousSummaryIn(older) });
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
  const { action, reason, stage, tokensBefore, head, older, tail } = planWithSettings(
    messages,
    resolveOptions<M>(options, "plan"),
  );
  return stage === undefined
    ? { action, reason, tokensBefore, head, older, tail }
    : { action, reason, stage, tokensBefore, head, older, tail };
}
