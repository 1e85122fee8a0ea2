import { tool, type DynamicStructuredTool } from "@langchain/core/tools";
import { compactToolDefinition } from "../dialects/compact-tool-definition.js";
import { compactAnswerer, type CompactToolOptions, type Requesting } from "./compact-answer.js";
import type { RecallToolConfig } from "./langchain-recall-tool.js";

/** A LangGraph thread's id, the conversation of a checkpointer, from a tool's `RunnableConfig`. */
const threadOf = (config: RecallToolConfig): string | undefined => {
  const id = config?.configurable?.["thread_id"];
  return typeof id === "string" && id !== "" ? id : undefined;
};

/**
 * The `compact_context` tool for LangChain (`createAgent({ tools: [compactTool(…)] })`): the model
 * calls it when a sub-task is done or an exploration has converged (the rubric is in its
 * description), and `compactionMiddleware` compacts before the next model call, with the model's
 * note of what to keep passed to `summarize` as instructions. A call on a context under
 * `minTokens`, or right after a compaction it asked for, changes nothing and tells the model why.
 * It acts on the call's thread (`configurable.thread_id`, the one the middleware reads), or on the
 * conversation `conversationId` names, never one the model names.
 *
 * @param compact - the `compactionMiddleware` the same agent uses
 * @param options - `conversationId` (default: the call's `thread_id`) and `minTokens` (default a quarter of `maxTokens`)
 * @returns a LangChain tool made by `tool` of `@langchain/core/tools`
 * @example
 * ```ts
 * const middleware = compactionMiddleware({ maxTokens: 100_000, summarize });
 * const agent = createAgent({ model, tools: [compactTool(middleware)], middleware: [middleware], checkpointer });
 * ```
 */
// The return type is written out, as `recallTool`'s is (test/types.test-d.ts checks it).
export function compactTool(
  compact: Requesting,
  options: CompactToolOptions<RecallToolConfig> = {},
): DynamicStructuredTool<typeof compactToolDefinition.inputSchema, unknown, unknown, string, unknown, typeof compactToolDefinition.name> {
  const answer = compactAnswerer<RecallToolConfig>(compact, { conversationId: threadOf, ...options });
  return tool(async (input: unknown, config: RecallToolConfig) => answer(input, config), {
    name: compactToolDefinition.name,
    description: compactToolDefinition.description,
    schema: { ...compactToolDefinition.inputSchema, properties: { ...compactToolDefinition.inputSchema.properties } },
  });
}
