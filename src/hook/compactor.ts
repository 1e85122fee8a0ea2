import { optionalAbortSignal } from "../ground/abort-signal.js";
import { describeValue } from "../ground/describe-value.js";
import { runCompaction } from "./engine.js";
import { UsageHistory } from "../counting/usage-anchor.js";
import { definedFields } from "../ground/defined-fields.js";
import { resolveOptions } from "../ground/options.js";
import { checkedUsage } from "../validation/usage.js";
import type { AnyMessage, BeforeLlmEvent, BeforeLlmHook, CompactionResult, CompactorOptions } from "../ground/types.js";

function eventSignal(event: unknown): AbortSignal | undefined {
  if (Array.isArray(event)) {
    throw new TypeError(`Expected the before-LLM event \`{ messages }\`, got an array (of ${event.length} items): call \`hook({ messages })\`, not \`hook(messages)\``);
  }
  if (typeof event !== "object" || event === null) {
    const what = event === undefined ? "(is an `await` missing where the event was made?)" : `(${event === null ? "null" : typeof event})`;
    throw new TypeError(`Expected the before-LLM event \`{ messages }\`, got ${describeValue(event)} ${what}`);
  }
  return optionalAbortSignal((event as BeforeLlmEvent).signal, "event.signal");
}

/** What the hook resolves: the messages, and `overBudget` with its cause when they still do not fit. */
export function resultOf<M extends AnyMessage>(outcome: CompactionResult<M>): CompactionResult<M> {
  const { messages, overBudget, overBudgetCause } = outcome;
  return overBudget === true && overBudgetCause !== undefined ? { messages, overBudget, overBudgetCause } : { messages };
}

/**
 * Builds a before-LLM hook that keeps a transcript within `maxTokens`. At or under budget it
 * resolves `null` and touches nothing. Over budget it keeps the leading system prompt verbatim,
 * replaces the older messages with one summary from your `summarize`, and keeps the largest recent
 * tail that starts at a user turn, so no tool result is separated from its call.
 *
 * Options are validated once, here: a wrong type throws `TypeError`, a value out of range `RangeError`.
 *
 * @param options - see `CompactorOptions`; `maxTokens` and `summarize` are required
 * @returns the hook: `(event) => Promise<{ messages } | null>`
 * @example
 * ```ts
 * const beforeLlm = compactor({ maxTokens: 100_000, summarize: (older) => mySummary(older) });
 * const compacted = await beforeLlm({ messages });
 * if (compacted) messages = compacted.messages;
 * ```
 */
export function compactor<M extends AnyMessage = AnyMessage>(options: CompactorOptions<M>): BeforeLlmHook<M> {
  const settings = resolveOptions<M>(options, "compactor");
  // The per-message ratio that two usage reports show, and what was said of them, last as long as the hook.
  const history = new UsageHistory();
  return async <T extends M>(event: BeforeLlmEvent<T>) => {
    const signal = eventSignal(event);
    const usage = Array.isArray(event.messages) ? checkedUsage(event.usage, event.messages.length, "event.usage") : undefined;
    const outcome = await runCompaction<M>(event.messages, settings, definedFields({ signal, usage, history }));
    // The summary is written in the transcript's own format, so every message is of the caller's type.
    return outcome === null ? null : (resultOf(outcome) as CompactionResult<T>);
  };
}
