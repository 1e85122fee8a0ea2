import { summaryTextOf } from "../dialects/library-messages.js";
import type { AnyMessage } from "../ground/types.js";
import { finishedPlan, type EnginePlan } from "./compaction-plan.js";
import type { PlanContext } from "./plan-context.js";
import type { KeptTail } from "./rungs/kept-tail.js";
import { summaryTokens } from "./summary-tokens.js";
import { truncateToolPayloads } from "./truncate-tool-payloads.js";

/**
 * The older part kept as it is, and every tool payload after the system prompt cut to fit: for an
 * older part too small for any summary to replace, and for a summary that was refused. With
 * `reachSmallest`, the smallest reachable is taken when nothing fits. Undefined with
 * `truncateToolResults` off, or when there is nothing to cut.
 */
export function olderKeptAsItIs<M extends AnyMessage>(
  context: PlanContext<M>,
  reachSmallest: boolean,
): EnginePlan<M> | undefined {
  const { options, messageBudget, tokens, head } = context;
  if (!options.truncateToolResults) return undefined;
  const { headTokens } = context.budget;
  const room = messageBudget.maxTokens - headTokens;
  const truncation = truncateToolPayloads(tokens.messages.slice(head), room, options.countTokens, {
    calibration: tokens.calibration,
    formats: context.view,
  });
  if (truncation === undefined || (!reachSmallest && truncation.tokens > room)) return undefined;
  const keptTokens = tokens.isPerMessage ? headTokens + truncation.tokens : undefined;
  return finishedPlan(context, {
    action: "truncate",
    reason: context.reason,
    head: tokens.messages.slice(0, head),
    tail: truncation.messages,
    tokens,
    keptTokens,
    tailStart: head,
    made: context.made,
  });
}

/**
 * An older part no larger than a summary of a few words stays as it is when cutting the tool
 * payloads then fits: a summary of a greeting would be refused as not smaller than it.
 */
export function olderTooSmallToSummarize<M extends AnyMessage>(
  context: PlanContext<M>,
  kept: KeptTail<M>,
): EnginePlan<M> | undefined {
  const { older } = kept;
  if (older.length === 0 || older.every((message) => context.made.has(message))) return undefined;
  if (context.olderTokens(kept) > context.smallestSummary()) return undefined;
  return olderKeptAsItIs(context, false);
}

/**
 * The plan for what the ladder kept: the summary's limit, and whether a summary is worth asking
 * for. Nothing to replace, or nothing but an earlier summary: skip (or keep the cut payloads). A
 * summary must be smaller than what it replaces: when not even an empty one is, the older part
 * stays as it is and the payloads are cut. Otherwise, summarize.
 */
export function decideOnSummary<M extends AnyMessage>(context: PlanContext<M>, kept: KeptTail<M>): EnginePlan<M> {
  const { messageBudget, tokens, original, made, budget } = context;
  const { older, tail, tailStart, pinned } = kept;
  const tailTokens = context.tailTokens(kept);
  // What the kept messages leave for the summary, when they take more than their share; never
  // less than a summary of a few words (a smaller limit holds no summary at all), so that the best
  // result is still a summary (over budget when the kept messages leave less).
  const left = messageBudget.maxTokens - budget.headTokens - budget.reminderTokens - tailTokens;
  // In whole tokens, one over: with usage the smallest summary's count is fractional (the report's
  // ratio), and a limit of that count floored to a whole token was read below as one token less than
  // the smallest summary: the hook skipped, "nothing-to-summarize", and sent requests up to 2.8 times
  // the window as they were. The token over covers the rounding of the summary's framing, so that
  // `summarize` is still told room for its few words (see `summaryTextBudget`).
  const summaryLimit = Math.max(
    Math.min(messageBudget.maxSummaryTokens, left),
    Math.ceil(context.smallestSummary()) + 1,
  );
  const keptTokens = tokens.isPerMessage ? budget.headTokens + tailTokens : undefined;
  // What the summary replaces, counted once here from the transcript's own counts (a summary must be smaller).
  const countedOlder = original.isPerMessage && older.length > 0 ? context.olderTokens(kept) : undefined;
  const head = tokens.messages.slice(0, context.head);
  const fields = {
    reason: context.reason,
    head,
    older,
    tail,
    tokens,
    keptTokens,
    olderTokens: countedOlder,
    tailStart,
    pinned,
    summaryLimit,
    made,
  };
  if (older.length === 0) {
    // Nothing to summarize, but the kept messages' payloads were cut to fit: that is the result.
    if (kept.truncated) return finishedPlan(context, { ...fields, action: "truncate" });
    return finishedPlan(context, { ...fields, action: "skip", reason: "nothing-to-summarize" });
  }
  if (older.every((message) => made.has(message))) {
    // Re-summarizing a summary gains nothing; cutting oversized tool payloads of the tail may.
    if (kept.truncated)
      return finishedPlan(context, { ...fields, action: "truncate", head: head.concat(older), older: [] });
    return finishedPlan(context, { ...fields, action: "skip", reason: "no-progress" });
  }
  // A summary must be smaller than what it replaces, so its limit is one token less; when not even
  // an empty one is, no summary is asked for and the older part stays.
  const olderTokens = countedOlder ?? context.olderTokens(kept);
  const smallerLimit = Math.max(1, Math.floor(Math.min(summaryLimit, Math.ceil(olderTokens) - 1)));
  // Nor is one asked for when what it must be smaller than leaves it less than a summary of a few
  // words in this format (its prefix, seal and message included): a limit of a token or two holds
  // no summary, and every summarizer, the model-free one too, would be refused.
  if (
    Math.ceil(summaryTokens(context, "")) >= Math.ceil(olderTokens) ||
    smallerLimit < Math.ceil(context.smallestSummary())
  ) {
    return (
      olderKeptAsItIs(context, true) ??
      finishedPlan(context, { ...fields, action: "skip", reason: "nothing-to-summarize" })
    );
  }
  return finishedPlan(context, {
    ...fields,
    olderTokens,
    summaryLimit: smallerLimit,
    action: "summarize",
    previousSummary: summaryTextOf(made, context.view),
    withoutSummary: () => olderKeptAsItIs(context, false),
  });
}
