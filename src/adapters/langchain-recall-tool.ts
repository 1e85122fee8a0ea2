import { tool, type DynamicStructuredTool } from "@langchain/core/tools";
import { recallToolDefinition } from "../dialects/recall-tool-definition.js";
import { recallAnswerer, recallToolNameOf, type Recalling, type RecallToolOptions } from "./recall-answer.js";

/** What LangChain hands a tool on each call: its `RunnableConfig` (the part this tool reads). */
export interface RecallToolConfig {
  /** `configurable.thread_id` is the conversation of a LangGraph checkpointer. */
  configurable?: Record<string, unknown>;
  signal?: AbortSignal;
}

/**
 * The `recall_context` tool for LangChain (`createAgent({ tools: [recallTool(…)] })`, or any
 * `bindTools`): the model calls it with a query and gets the archived messages that hold it. It
 * reads only the archive of the conversation named here (a string, or a function of the call's
 * `RunnableConfig`, such as `(config) => config.configurable?.thread_id`), never one the model names.
 *
 * @param compact - a `statefulCompactor` made with `archive: true`
 * @param options - `conversationId` and `maxTokens` (default 2000)
 * @returns a LangChain tool made by `tool` of `@langchain/core/tools`
 * @example
 * ```ts
 * const recall = recallTool(compact, { conversationId: (config) => config.configurable?.thread_id as string });
 * ```
 */
// The return type is written out (it is what `tool` returns here, test/types.test-d.ts checks it):
// the declarations are emitted without the LangChain packages (build.mjs), where an inferred type
// would be lost.
export function recallTool(
  compact: Recalling,
  options: RecallToolOptions<RecallToolConfig> = {},
): DynamicStructuredTool<typeof recallToolDefinition.inputSchema, unknown, unknown, string, unknown, string> {
  const answer = recallAnswerer<RecallToolConfig>(compact, options);
  return tool(async (input: unknown, config: RecallToolConfig) => answer(input, config, config?.signal), {
    name: recallToolNameOf(compact, options),
    description: recallToolDefinition.description,
    schema: { ...recallToolDefinition.inputSchema, properties: { ...recallToolDefinition.inputSchema.properties } },
  });
}
