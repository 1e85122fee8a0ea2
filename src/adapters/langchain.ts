import { HumanMessage, RemoveMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import { createMiddleware } from "langchain";
import { isSummaryMessage } from "../dialects/messages.js";
import { compactor } from "../hook/compactor.js";
import type { CompactorOptions } from "../hook/types.js";
import { FLUSH_TO_MEMORY_REMINDER } from "../hook/constants.js";

/**
 * LangGraph's marker for "remove every message" (`REMOVE_ALL_MESSAGES` of `@langchain/langgraph`,
 * which `langchain` depends on): written as a value so this entry needs no import of LangGraph.
 */
const REMOVE_ALL_MESSAGES = "__remove_all__";

/** Options of `compactionMiddleware`: those of `compactor`; `summaryRole` defaults to `"user"`. */
export type CompactionMiddlewareOptions = CompactorOptions<BaseMessage>;

// The messages the hook made are plain objects; LangChain's state holds instances with ids.
function asLangChainMessage(message: BaseMessage): BaseMessage {
  const plain = message as unknown as { type?: string; content?: unknown; lc_kwargs?: unknown };
  if (plain.lc_kwargs !== undefined) return message;
  const isMade = isSummaryMessage(plain) || plain.content === FLUSH_TO_MEMORY_REMINDER;
  if (!isMade || typeof plain.content !== "string") return message;
  const fields = { content: plain.content, id: globalThis.crypto.randomUUID() };
  return plain.type === "system" ? new SystemMessage(fields) : new HumanMessage(fields);
}

/**
 * A LangChain v1 agent middleware (`createAgent({ model, tools, middleware })`) that compacts the
 * agent's messages before each model call. When it compacts, it replaces the state's messages
 * (`RemoveMessage` with LangGraph's `REMOVE_ALL_MESSAGES`, then the compacted ones), so the
 * compaction is written into the agent's state and kept by its checkpointer; `summarize` runs
 * again only when the budget is crossed again. The summary is a `HumanMessage` (or a
 * `SystemMessage` with `summaryRole: "system"`) with an id. A failed `summarize` leaves the
 * state's messages exactly as they were, and no tool message is ever separated from its call.
 *
 * @param options - the options of `compactor` (`maxTokens` and `summarize` required)
 * @returns the middleware
 * @example
 * ```ts
 * import { createAgent } from "langchain";
 * import { compactionMiddleware } from "context-compactor/langchain";
 * const agent = createAgent({ model, tools, middleware: [compactionMiddleware({ maxTokens: 100_000, summarize })] });
 * ```
 */
export function compactionMiddleware(options: CompactionMiddlewareOptions) {
  const hook = compactor<BaseMessage>({ summaryRole: "user", ...options });
  return createMiddleware({
    name: "ContextCompactorMiddleware",
    beforeModel: async (state: { messages: BaseMessage[] }) => {
      const result = await hook({ messages: state.messages });
      if (result === null) return undefined;
      return { messages: [new RemoveMessage({ id: REMOVE_ALL_MESSAGES }), ...result.messages.map(asLangChainMessage)] };
    },
  });
}
