import { isUserTurnIn } from "../dialects/messages.js";
import { dialectIn } from "../dialects/registry.js";
import type { Settings } from "../ground/options.js";
import type { AnyMessage, OverBudgetCause } from "../ground/types.js";
import type { EnginePlan } from "./compaction-plan.js";
import { latestIndex } from "./search-from-end.js";
import { headLength } from "./split-at-user-boundary.js";
import { SMALLEST_SUMMARY, summaryTokens } from "./summary-tokens.js";

/**
 * Why a transcript cannot be brought within budget: the system prompt alone exceeds it, or with
 * the latest user message it does; otherwise what was kept (a rung turned off, or an oversized
 * message that is not a tool payload).
 */
export function overBudgetCause<M extends AnyMessage>(plan: EnginePlan<M>, settings: Settings<M>): OverBudgetCause {
  const { tokens } = plan;
  const { formats } = tokens;
  const head = headLength(tokens.messages, plan.dialect, formats);
  const headTokens = head === 0 ? 0 : tokens.countList(tokens.messages.slice(0, head));
  if (headTokens > settings.maxTokens) return "system-prompt";
  const isCallerBoundary =
    settings.isBoundary ?? ((message: object) => isUserTurnIn(dialectIn(message, formats), message));
  const messages = tokens.messages;
  const user = latestIndex(
    messages.length,
    head,
    (index) => !plan.made.has(messages[index] as M) && isCallerBoundary(messages[index] as M),
  );
  const userTokens = user === -1 ? 0 : tokens.countList([tokens.messages[user] as M]);
  // The latest request is kept, and a summary of a few words must fit beside it and the system prompt.
  const smallest = summaryTokens(
    { dialect: plan.dialect, options: settings, tokens, sealed: plan.sealed },
    SMALLEST_SUMMARY,
  );
  if (user !== -1 && headTokens + userTokens + smallest > settings.maxTokens) return "latest-user-message";
  return "kept-messages";
}
