import { optionalAbortSignal } from "../ground/abort-signal.js";
import { optionalNonEmptyString } from "../ground/checks.js";
import { describeValue } from "../ground/describe-value.js";
import { runCompaction } from "./engine.js";
import { UsageHistory } from "../counting/usage-anchor.js";
import { definedFields } from "../ground/defined-fields.js";
import { resolveOptions } from "../ground/options.js";
import { checkedUsage } from "../validation/usage.js";
import { boundedMap } from "../ground/bounded-map.js";
import { MAX_REMEMBERED_REQUESTS, readVerdict } from "./read-verdict.js";
import { checkedRequest, compactionRequests, withRequest, type CompactionRequestOptions } from "./compaction-requests.js";
import { shadowBook, withRefusedItemShadow } from "./refused-item-shadow.js";
import type { AnyMessage, BeforeLlmEvent, BeforeLlmHook, CompactionRequestAnswer, CompactionResult, CompactorOptions } from "../ground/types.js";

/**
 * The hook `compactor` builds, with the agent's own hand on it: `requestCompaction(keep)` makes the
 * next call compact, with `keep` (the model's note of what the summary must hold) as the
 * `instructions` `summarize` receives. What a `compact_context` tool call answers.
 */
export type CompactorHook<M extends AnyMessage = AnyMessage> = BeforeLlmHook<M> & {
  requestCompaction(keep: string, options?: CompactionRequestOptions & { conversationId?: string }): CompactionRequestAnswer;
};

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
export function compactor<M extends AnyMessage = AnyMessage>(options: CompactorOptions<M>): CompactorHook<M> {
  const settings = resolveOptions<M>(options, "compactor");
  // A request waits for its conversation's next call: the event's `conversationId`, or the one slot
  // of a hook that serves a single conversation.
  const requests = compactionRequests();
  // What each conversation's last call handed back: the request a provider's response answers.
  const sent = boundedMap<readonly object[]>(MAX_REMEMBERED_REQUESTS);
  // The per-message ratio that two usage reports show, and what was said of them, per conversation.
  const histories = boundedMap<UsageHistory>(MAX_REMEMBERED_REQUESTS);
  // The readable shadows of the encrypted items this hook made, for when the provider refuses one.
  const shadows = shadowBook();
  const hook = async <T extends M>(event: BeforeLlmEvent<T>) => {
    const signal = eventSignal(event);
    const conversation = requestSlot(event.conversationId, "event.conversationId");
    const verdict = readVerdict(event.response, sent.get(conversation), event.messages, settings.onProviderVerdict);
    // A provider compaction the provider refused gives way to the summary of its readable text.
    const shadowed = verdict.refused && Array.isArray(event.messages) ? withRefusedItemShadow(event.messages, settings, (message) => shadows.of(conversation, message)) : undefined;
    const messages = shadowed ?? event.messages;
    const usage = Array.isArray(event.messages) && shadowed === undefined ? checkedUsage(event.usage ?? verdict.usage, event.messages.length, "event.usage") : undefined;
    const history = histories.get(conversation) ?? new UsageHistory();
    histories.set(conversation, history);
    const note = requests.take(conversation);
    // A stop at the context window means the estimate let an oversized request through: compact now.
    const callSettings = verdict.overflowed ? { ...withRequest(settings, note), force: true } : withRequest(settings, note);
    let tokens = 0;
    const outcome = await runCompaction<M>(messages, callSettings, definedFields({ signal, usage, history, measured: (measured: number) => (tokens = measured) }));
    requests.saw(conversation, tokens, note !== undefined && outcome !== null);
    sent.set(conversation, outcome === null ? messages : outcome.messages);
    shadows.keep(conversation, outcome?.replacement);
    // The summary is written in the transcript's own format, so every message is of the caller's type.
    if (outcome === null) return shadowed === undefined ? null : ({ messages: shadowed } as CompactionResult<T>);
    return resultOf(outcome) as CompactionResult<T>;
  };
  const requestCompaction = (keep: string, requestOptions: CompactionRequestOptions & { conversationId?: string } = {}) => {
    const { minTokens } = checkedRequest(keep, requestOptions, ["conversationId", "minTokens"], settings.maxTokens);
    return requests.ask(requestSlot(requestOptions.conversationId, "conversationId"), keep, minTokens);
  };
  return Object.assign(hook, { requestCompaction });
}

/** The slot of a conversation's requests: its id, or the one slot of a hook without ids. */
function requestSlot(conversationId: unknown, name: string): string {
  const id = optionalNonEmptyString(conversationId, name);
  return id === undefined ? "" : `id:${id}`;
}
