import { HumanMessage, RemoveMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import type { ClientTool, ServerTool } from "@langchain/core/tools";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { compactor } from "../hook/compactor.js";
import { HOOK_SETTINGS } from "../hook/hook-settings.js";
import type { CompactorOptions } from "../ground/types.js";
import { withDefaults } from "../ground/option-defaults.js";
import { plainTextMessage } from "../dialects/langchain.js";
import { readProviderVerdicts } from "../hook/provider-verdict-reader.js";

/**
 * LangGraph's marker for "remove every message" (`REMOVE_ALL_MESSAGES` of `@langchain/langgraph`,
 * which `langchain` depends on): written as a value so this entry needs no import of LangGraph.
 */
const REMOVE_ALL_MESSAGES = "__remove_all__";

/** Options of `toAgentMiddleware`: those of `compactor`; `summary.role` defaults to `"user"`. */
export type AgentMiddlewareCompactionOptions = CompactorOptions<BaseMessage>;

// The messages the hook made (the summary, the flush reminder) are plain `{ type, content }`
// objects; LangChain's state holds instances with ids. Only those become instances: every other
// message is the caller's own or a masked or cut copy of one, which keeps its type and its id.
function asLangChainMessage(message: BaseMessage, input: ReadonlySet<BaseMessage>): BaseMessage {
  if (input.has(message)) return message;
  const plain = plainTextMessage(message);
  if (plain === undefined) return message;
  const fields = { content: plain.content, id: globalThis.crypto.randomUUID() };
  return plain.type === "system" ? new SystemMessage(fields) : new HumanMessage(fields);
}

/**
 * The provider's last response as the agent's state keeps it: the `response_metadata` of the last
 * AI message, once. `@langchain/anthropic` puts there every field of the Anthropic `Message` but
 * its content (`const { content, ...additionalKwargs } = message`, `response_metadata:
 * additionalKwargs`): `stop_reason`, `usage`, `input_transformations`, `diagnostics`;
 * `@langchain/openai` the Responses `Response`'s fields (all of them when streamed). A message
 * already read (a model call retried from the same state) is not read again.
 */
function lastResponse(messages: readonly BaseMessage[], read: WeakSet<object>): { response?: unknown } {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as BaseMessage & { response_metadata?: unknown };
    if (message?.getType?.() !== "ai") continue;
    const metadata = message.response_metadata;
    if (typeof metadata !== "object" || metadata === null || read.has(metadata)) return {};
    read.add(metadata);
    return { response: metadata };
  }
  return {};
}

/**
 * A LangChain v1 agent middleware (`createAgent({ model, tools, middleware })`) that compacts the
 * agent's messages before each model call. When it compacts, it replaces the state's messages
 * (`RemoveMessage` with LangGraph's `REMOVE_ALL_MESSAGES`, then the compacted ones), so the
 * compaction is written into the agent's state and kept by its checkpointer; `summarize` runs
 * again only when the budget is crossed again. The summary is a `HumanMessage` (or a
 * `SystemMessage` with `summary: { role: "system" }`) with an id. A failed `summarize` leaves the
 * state's messages exactly as they were, and no tool message is ever separated from its call.
 * The last AI message's `response_metadata` (what the chat model kept of the provider's response)
 * is read as the hook's `event.response`: its verdicts reach `events.onProviderVerdict`, and a stop
 * at the context window makes this call compact.
 *
 * @param options - the options of `compactor` (`maxTokens` and `summarize` required)
 * @returns the middleware
 * @example
 * ```ts
 * import { createAgent } from "langchain";
 * import { toAgentMiddleware } from "context-compactor/langchain";
 * const agent = createAgent({ model, tools, middleware: [toAgentMiddleware({ maxTokens: 100_000, summarize })] });
 * ```
 */
// The return type is written out (it is what `createMiddleware` returns here with the hook's
// its checked options under a symbol, test/types.test-d.ts checks it): the declarations are emitted without the
// LangChain packages (build.mjs), where an inferred type would be lost.
export function toAgentMiddleware(
  options: AgentMiddlewareCompactionOptions,
): AgentMiddleware<undefined, undefined, unknown, readonly (ClientTool | ServerTool)[], readonly []> {
  // The agent's state carries the provider's response: its verdicts are read, as the stateful adapters read them.
  const hook = compactor<BaseMessage>(
    withDefaults({ summary: { role: "user" }, verdicts: readProviderVerdicts() }, options),
  );
  const read = new WeakSet<object>();
  const middleware = createMiddleware({
    name: "ContextCompactorMiddleware",
    // Everything the hook needs is in the thread's own messages: a compaction its agent asked for
    // (`compactTool`) is the tool call in them, so no thread's request can reach another.
    beforeModel: async (state: { messages: BaseMessage[] }) => {
      const result = await hook({ messages: state.messages, ...lastResponse(state.messages, read) });
      if (result === null) return undefined;
      const input = new Set(state.messages);
      return {
        messages: [
          new RemoveMessage({ id: REMOVE_ALL_MESSAGES }),
          ...result.messages.map((message) => asLangChainMessage(message, input)),
        ],
      };
    },
  });
  // Its checked options, for `answerCompactContext` and `compactTool` (what a `compact_context` call returns).
  return Object.defineProperty(middleware, HOOK_SETTINGS, {
    value: (hook as unknown as Record<symbol, unknown>)[HOOK_SETTINGS],
  });
}

export { recallTool } from "./langchain-recall-tool.js";
export { compactTool } from "./langchain-compact-tool.js";
export type { Requesting } from "./compact-answer.js";
export type { RecallToolConfig } from "./langchain-recall-tool.js";
export type { Recalling, RecallToolOptions } from "./recall-answer.js";
