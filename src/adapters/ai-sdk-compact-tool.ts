import { compactToolDefinition } from "../dialects/compact-tool-definition.js";
import { compactAnswerer, type Requesting } from "./compact-answer.js";
import { stringFieldSchema, type ToolInputSchema } from "./ai-sdk-tool-schema.js";
import type { RecallToolCallOptions } from "./ai-sdk-recall-tool.js";

/** The input of `compact_context`: the model's note of what the summary must keep. */
export interface CompactInput {
  keep: string;
}

/** An AI SDK tool (what `tool({ description, inputSchema, execute })` of `ai` returns). */
export interface CompactContextTool {
  description: string;
  inputSchema: ToolInputSchema<CompactInput>;
  execute: (input: CompactInput, options: RecallToolCallOptions) => Promise<string>;
}

const inputSchema: ToolInputSchema<CompactInput> = stringFieldSchema("keep", compactToolDefinition.inputSchema);

/**
 * The `compact_context` tool for the Vercel AI SDK: the model calls it when a sub-task is done or
 * an exploration has converged (the rubric is in its description), and the next step's
 * `prepareStep` reads the call in the step's messages: it summarizes the finished work before the
 * tool group the call is in, with the model's note of what to keep passed to `summarize` as
 * instructions, when that frees at least the compactor's `compactTool.minTokens`. List it under the
 * compactor's `compactTool.name` (`compact_context` by default): that is the name its calls are read
 * under. The request lives in the conversation's own messages, so it can never reach another.
 *
 * @param compact - the `toPrepareStep` the same `generateText` call uses
 * @returns the tool, to list as `tools: { compact_context: compactTool(…) }`
 * @example
 * ```ts
 * const prepareStep = toPrepareStep({ maxTokens: 100_000, summarize, store, conversationId: chatId });
 * await generateText({ model, messages, prepareStep, tools: { compact_context: compactTool(prepareStep) } });
 * ```
 */
export function compactTool(compact: Requesting): CompactContextTool {
  const answer = compactAnswerer(compact);
  return {
    description: compactToolDefinition.description,
    inputSchema,
    execute: async (input) => answer(input),
  };
}
