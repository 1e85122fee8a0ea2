import type { OverBudgetCause } from "../ground/types.js";

/** Set once the process has warned: the warning is said once, not on every call of a long agent. */
let warned = false;

/**
 * The first result over budget in a process, said through `console.warn` unless
 * `events: { warnOverBudget: false }`: the request still goes out, and a provider will reject it or cut it.
 */
export function warnOverBudgetOnce(enabled: boolean, tokens: number, maxTokens: number, cause: OverBudgetCause): void {
  if (!enabled || warned) return;
  warned = true;
  globalThis.console?.warn?.(
    `context-compactor: a request of ${tokens} tokens is still over \`maxTokens\` (${maxTokens}), \`overBudgetCause: "${cause}"\` (see the result's \`overBudget\`). Said once per process; \`events: { warnOverBudget: false }\` turns this off.`,
  );
}

/** For tests: the next result over budget warns again. */
export function resetOverBudgetWarning(): void {
  warned = false;
}
