import { resolveOptions, type Settings } from "../ground/options.js";
import { sealerOf } from "../text/seal-signer.js";
import type { AnyMessage, PlanOptions } from "../ground/types.js";
import { assertTranscript } from "../dialects/validate-messages.js";
import { checkedUsage } from "../validation/usage.js";
import { finishedPlan, type CompactionPlan, type EnginePlan } from "./compaction-plan.js";
import { measureTranscript, planContext, type PlanCall } from "./plan-context.js";
import { boundaryTail } from "./rungs/boundary-tail.js";
import { inTurnSplit } from "./rungs/in-turn-split.js";
import {
  holdsLatestUserMessage,
  isLatestUserMessageAlone,
  latestUserMessageAlone,
} from "./rungs/latest-user-message.js";
import { maskAlone } from "./rungs/mask.js";
import { latestTurnCut, truncation } from "./rungs/truncation.js";
import { decideOnSummary, olderTooSmallToSummarize } from "./summary-decision.js";
import { TranscriptView } from "./transcript-view.js";
import type { requestedCompactionIn, requestedPlan } from "./requested-compaction.js";

export type { CompactionPlan, EnginePlan, PlanAction, PlanReason } from "./compaction-plan.js";
export { overBudgetCause } from "./over-budget-cause.js";

/**
 * Plans a compaction with settings already validated. The engine behind the hook, `compact` and
 * `planCompaction`. Over budget, it climbs the ladder of `docs/fit-ladder.md`, one rung a line.
 */
export function planWithSettings<M extends AnyMessage>(
  messages: readonly M[],
  settings: Settings<M>,
  call: PlanCall = {},
): EnginePlan<M> {
  assertTranscript(messages);
  // Each message's format is read once, here; every later step of the call asks the view.
  const view = new TranscriptView(messages, settings.isBoundary, call.formats);
  const measured = measureTranscript(messages, settings, call, view);
  // The agent's own request (`compact_context`), read from its latest reply.
  const tool = settings.compactTool;
  // The agent's own request, when its compactor reads them (`compactTool`).
  const request =
    tool === undefined
      ? undefined
      : (call.request ?? (tool.find as typeof requestedCompactionIn)(view, messages, { from: 0, toolName: tool.name }));
  const due = measured.overBudget || measured.options.force;
  if (!due && request === undefined) return finishedPlan(measured, { action: "none", reason: "under-budget" });
  const context = planContext(measured);
  if (request !== undefined) {
    const requested = ((tool as NonNullable<typeof tool>).plan as typeof requestedPlan<M>)(
      context,
      request,
      (tool as NonNullable<typeof tool>).minTokens,
    );
    if (requested !== undefined) return requested;
    if (!due) return finishedPlan(measured, { action: "none", reason: "under-budget" });
  }

  // 1. Old tool results masked, alone, when that fits and frees enough.
  const masked = maskAlone(context);
  if (masked !== undefined) return masked;
  // 2. The largest tail from a user turn that fits beside the summary's room;
  const atUserTurn = boundaryTail(context);
  // 3. else the latest user message and the newest whole tool groups that fit.
  let kept = inTurnSplit(context, atUserTurn) ?? atUserTurn;
  // The latest user message is never summarized away: a tail without it gives way to it alone.
  if (!holdsLatestUserMessage(context, kept)) kept = latestUserMessageAlone(context) ?? kept;
  // An older part no larger than a summary of a few words stays as it is, its payloads cut, when that fits.
  const tooSmall = olderTooSmallToSummarize(context, kept);
  if (tooSmall !== undefined) return tooSmall;
  // 4. The oversized tool payloads of the kept tail cut to fit its room;
  kept = truncation(context, kept) ?? kept;
  // and the latest turn kept whole, its oversized payloads cut, rather than summarized away.
  kept = latestTurnCut(context, kept) ?? kept;
  // 5. The last resort: the latest user message alone, everything after it summarized.
  if (context.tailTokens(kept) > context.roomFor(kept) && !isLatestUserMessageAlone(kept))
    kept = latestUserMessageAlone(context) ?? kept;
  return decideOnSummary(context, kept);
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
  settings.sealer = sealerOf(settings.sealKey);
  const usage = Array.isArray(messages) ? checkedUsage(options.usage, messages.length) : undefined;
  const { action, reason, tokensBefore, head, older, tail } = planWithSettings(
    messages,
    settings,
    usage === undefined ? {} : { usage },
  );
  return { action, reason, tokensBefore, head, older, tail };
}
