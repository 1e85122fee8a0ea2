import { tool, type DynamicStructuredTool } from "@langchain/core/tools";
import { compactToolDefinition } from "../dialects/compact-tool-definition.js";
import { compactAnswerer, type Requesting } from "./compact-answer.js";

/**
 * The `compact_context` tool for LangChain (`createAgent({ tools: [compactTool(…)] })`): the model
 * calls it when a sub-task is done or an exploration has converged (the rubric is in its
 * description), and `toAgentMiddleware` reads the call in the agent's messages before the next
 * model call: it summarizes the finished work before the tool group the call is in, with the
 * model's note of what to keep passed to `summarize` as instructions, when that frees at least the
 * compactor's `compactTool.minTokens`. The request lives in the thread's own messages, so it can
 * never reach another thread.
 *
 * @param compact - the `toAgentMiddleware` the same agent uses
 * @returns a LangChain tool made by `tool` of `@langchain/core/tools`
 * @example
 * ```ts
 * const middleware = toAgentMiddleware({ maxTokens: 100_000, summarize });
 * const agent = createAgent({ model, tools: [compactTool(middleware)], middleware: [middleware], checkpointer });
 * ```
 */
// The return type is written out, as `recallTool`'s is (test/types.test-d.ts checks it).
export function compactTool(
  compact: Requesting,
): DynamicStructuredTool<
  typeof compactToolDefinition.inputSchema,
  unknown,
  unknown,
  string,
  unknown,
  typeof compactToolDefinition.name
> {
  const answer = compactAnswerer(compact);
  return tool(async (input: unknown) => answer(input), {
    name: compactToolDefinition.name,
    description: compactToolDefinition.description,
    schema: { ...compactToolDefinition.inputSchema, properties: { ...compactToolDefinition.inputSchema.properties } },
  });
}
