import type { AnyMessage } from "../../ground/types.js";
import { finishedPlan, type EnginePlan } from "../compaction-plan.js";
import type { PlanContext } from "../plan-context.js";

/**
 * Rung 1, `maskToolResults`: the transcript with old tool results masked, and nothing else, when
 * that fits and frees enough at once; undefined otherwise. Masking changes the start of the
 * request, which the provider's prompt cache is keyed on: it is used alone only when it frees
 * enough (`minFreedTokens`) not to be needed again next turn. A forced compaction (a user's
 * `/compact`) asks for a summary: masking alone never answers it.
 */
export function maskAlone<M extends AnyMessage>(context: PlanContext<M>): EnginePlan<M> | undefined {
  const { options, messageBudget, original, tokens, head } = context;
  // The masked counts are the original ones when masking is off or masked nothing.
  if (tokens === original || options.force) return undefined;
  const freed = original.total - tokens.total;
  if (tokens.total > messageBudget.maxTokens || freed < messageBudget.minFreedTokens) return undefined;
  return finishedPlan(context, {
    action: "mask",
    reason: context.reason,
    head: tokens.messages.slice(0, head),
    tail: tokens.messages.slice(head),
    tokens,
    keptTokens: tokens.isPerMessage ? tokens.total : undefined,
    made: context.made,
  });
}
