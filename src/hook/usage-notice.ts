import type { UsageHistory } from "../counting/usage-anchor.js";
import type { Settings } from "../ground/options.js";
import type { AnyMessage, UsageEvent } from "../ground/types.js";
import type { EnginePlan } from "../plan/plan.js";
import { warnReportedOverBudgetOnce, warnUnusableUsageOnce } from "./over-budget-warning.js";

/** The estimate is said to be under when a report is over it by more than this share. */
const UNDER_BY = 0.2;

/**
 * Says what the plan's usage report showed (`events.onUsage`), each kind once per history (a hook,
 * or a `statefulCompactor` conversation), and every new report of a request that went out over
 * budget; then lets the history learn from the report.
 */
export function sayUsage<M extends AnyMessage>(
  plan: EnginePlan<M>,
  settings: Settings<M>,
  history: UsageHistory,
): void {
  const anchor = plan.anchor;
  if (anchor === undefined) return;
  const { inputTokens, read, messageCount, estimatedTokens, fixedTokens, unusable } = anchor;
  const event = (kind: UsageEvent["kind"]): UsageEvent => ({
    kind,
    inputTokens,
    read,
    messageCount,
    estimatedTokens: Math.ceil(estimatedTokens),
    fixedTokens: Math.ceil(fixedTokens),
    maxTokens: settings.maxTokens,
    ...(unusable === undefined ? {} : { reason: unusable }),
  });
  if (unusable !== undefined) {
    if (!history.said.has("unusable")) {
      history.said.add("unusable");
      if (settings.onUsage) settings.onUsage(event("unusable"));
      else warnUnusableUsageOnce(unusable);
    }
    return;
  }
  if (inputTokens > (1 + UNDER_BY) * (estimatedTokens + settings.reserveTokens) && !history.said.has("calibrated")) {
    history.said.add("calibrated");
    settings.onUsage?.(event("calibrated"));
  }
  // The request this report describes went out over budget: said for every such report, once.
  const reportKey = `${inputTokens}/${messageCount}`;
  if (inputTokens > settings.maxTokens && history.overBudgetSaid !== reportKey) {
    history.overBudgetSaid = reportKey;
    if (settings.onUsage) settings.onUsage(event("over-budget"));
    else warnReportedOverBudgetOnce(settings.warnOverBudget, inputTokens, settings.maxTokens);
  }
  history.record(anchor);
}
