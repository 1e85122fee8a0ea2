import type { OverBudgetCause } from "../ground/types.js";

/** What the process has warned of: each warning is said once, not on every call of a long agent. */
const warned = new Set<"result" | "reported" | "unusable">();

function warnOnce(topic: "result" | "reported" | "unusable", text: string): void {
  if (warned.has(topic)) return;
  warned.add(topic);
  globalThis.console?.warn?.(`context-compactor: ${text}`);
}

/**
 * The first result over budget in a process, said through `console.warn` unless
 * `events: { warnOverBudget: false }`: the request still goes out, and a provider will reject it or cut it.
 */
export function warnOverBudgetOnce(enabled: boolean, tokens: number, maxTokens: number, cause: OverBudgetCause): void {
  if (!enabled) return;
  warnOnce(
    "result",
    `a request of ${tokens} tokens is still over \`maxTokens\` (${maxTokens}), \`overBudgetCause: "${cause}"\` (see the result's \`overBudget\`). Said once per process; \`events: { warnOverBudget: false }\` turns this off.`,
  );
}

/**
 * The first request of a process that the provider's usage shows went out over budget, though the
 * hook's own count had let it through: said through `console.warn` unless `events.onUsage` is
 * given (it is told every such report) or `events: { warnOverBudget: false }`.
 */
export function warnReportedOverBudgetOnce(enabled: boolean, inputTokens: number, maxTokens: number): void {
  if (!enabled) return;
  warnOnce(
    "reported",
    `the provider counted ${inputTokens} input tokens for the last request, over \`maxTokens\` (${maxTokens}). Said once per process; \`events.onUsage\` is told each.`,
  );
}

/** The first usage report of a process that cannot be counted by, said through `console.warn` unless `events.onUsage` is given. */
export function warnUnusableUsageOnce(reason: string): void {
  warnOnce("unusable", `\`usage\` not counted by: ${reason}. Said once per process; \`events.onUsage\` is told each.`);
}

/** For tests: the next result over budget, or report, warns again. */
export function resetOverBudgetWarning(): void {
  warned.clear();
}
