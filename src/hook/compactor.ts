import { optionalAbortSignal } from "../ground/abort-signal.js";
import { describeValue, expectedMessage } from "../ground/describe-value.js";
import { runCompaction } from "./engine.js";
import { definedFields } from "../ground/defined-fields.js";
import { resolveOptions } from "../ground/options.js";
import { reportedRequest } from "./reported-request.js";
import { sealerOf } from "../text/seal-signer.js";
import { HOOK_SETTINGS } from "./hook-settings.js";
import type {
  AnyMessage,
  BeforeLlmEvent,
  BeforeLlmHook,
  CompactionResult,
  CompactorOptions,
  ProviderVerdictReader,
} from "../ground/types.js";

/**
 * The hook `compactor` builds. It carries its checked options under a symbol, for
 * `answerCompactContext` (what a `compact_context` tool call returns), which is not in the hook's
 * own bundle: the request itself is the call in the transcript, which the next call reads.
 */
export type CompactorHook<M extends AnyMessage = AnyMessage> = BeforeLlmHook<M>;

function eventSignal(event: unknown): AbortSignal | undefined {
  if (Array.isArray(event)) {
    throw new TypeError(
      `Expected the before-LLM event \`{ messages }\`, got an array (of ${event.length} items): call \`hook({ messages })\`, not \`hook(messages)\``,
    );
  }
  if (typeof event !== "object" || event === null) {
    const what =
      event === undefined
        ? "(is an `await` missing where the event was made?)"
        : `(${event === null ? "null" : typeof event})`;
    throw new TypeError(`Expected the before-LLM event \`{ messages }\`, got ${describeValue(event)} ${what}`);
  }
  return optionalAbortSignal((event as BeforeLlmEvent).signal, "event.signal");
}

/**
 * `verdicts`: the reader `readProviderVerdicts` makes, or none (then `events.onProviderVerdict`
 * hears only the stop at the context window, which the hook reads itself). `statefulCompactor`
 * reads verdicts with a reader of its own, and its bundle carries none of this.
 */
function checkedVerdictReader(value: unknown): ProviderVerdictReader | undefined {
  if (value !== undefined && typeof (value as Partial<ProviderVerdictReader> | null)?.read !== "function") {
    throw new TypeError(
      expectedMessage("verdicts", "what `readProviderVerdicts()` (context-compactor/expert) returns", value),
    );
  }
  return value as ProviderVerdictReader | undefined;
}

/** What the hook resolves: the messages, and `overBudget` with its cause when they still do not fit. */
export function resultOf<M extends AnyMessage>(outcome: CompactionResult<M>): CompactionResult<M> {
  const { messages, overBudget, overBudgetCause } = outcome;
  return overBudget === true && overBudgetCause !== undefined
    ? { messages, overBudget, overBudgetCause }
    : { messages };
}

/**
 * Builds a before-LLM hook that keeps a transcript within `maxTokens`. At or under budget it
 * resolves `null` and touches nothing. Over budget it keeps the leading system prompt verbatim,
 * replaces the older messages with one summary from your `summarize`, and keeps the largest recent
 * tail that starts at a user turn, so no tool result is separated from its call.
 *
 * The hook keeps nothing between calls: the same event gives the same result, whichever
 * conversation it belongs to. What it needs of an earlier call travels in the event (`usage`,
 * `response`) or in the transcript itself (its sealed summary, the agent's `compact_context` call).
 * Memory across calls (a store, an archive) is `statefulCompactor`'s.
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
export function compactor<M extends AnyMessage = AnyMessage>(options: CompactorOptions<M>): CompactorHook<M> {
  const settings = resolveOptions<M>(options, "compactor");
  settings.verdicts = checkedVerdictReader(options.verdicts);
  settings.sealer = sealerOf(settings.sealKey);
  const hook = async <T extends M>(event: BeforeLlmEvent<T>) => {
    const signal = eventSignal(event);
    // The provider's report and verdicts on the request this transcript starts with.
    const reported = reportedRequest(event, settings);
    const callSettings = reported.overflowed ? { ...settings, force: true } : settings;
    const messages = reported.messages ?? event.messages;
    const outcome = await runCompaction<M>(messages, callSettings, definedFields({ signal, usage: reported.usage }));
    // The summary is written in the transcript's own format, so every message is of the caller's type.
    if (outcome === null)
      return reported.messages === undefined ? null : ({ messages: reported.messages } as CompactionResult<T>);
    return resultOf(outcome) as CompactionResult<T>;
  };
  return Object.defineProperty(hook, HOOK_SETTINGS, { value: settings }) as CompactorHook<M>;
}
