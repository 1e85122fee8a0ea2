import { compactToolDefinition } from "../dialects/compact-tool-definition.js";
import { compactAnswerer, type CompactToolOptions, type Requesting } from "./compact-answer.js";
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
 * `prepareStep` compacts, with the model's note of what to keep passed to `summarize` as
 * instructions. A call on a context under `minTokens`, or right after a compaction it asked for,
 * changes nothing and tells the model why. It acts on the conversation named here (or the
 * compactor's own `conversationId`), never one the model names.
 *
 * @param compact - the `toPrepareStep` the same `generateText` call uses
 * @param options - `conversationId` (a string, or a function of `execute`'s options) and `minTokens` (default a quarter of `maxTokens`)
 * @returns the tool, to list as `tools: { compact_context: compactTool(…) }`
 * @example
 * ```ts
 * const prepareStep = toPrepareStep({ maxTokens: 100_000, summarize, store, conversationId: chatId });
 * await generateText({ model, messages, prepareStep, tools: { compact_context: compactTool(prepareStep, { conversationId: chatId }) } });
 * ```
 */
export function compactTool(compact: Requesting, options: CompactToolOptions<RecallToolCallOptions> = {}): CompactContextTool {
  const answer = compactAnswerer<RecallToolCallOptions>(compact, options);
  return {
    description: compactToolDefinition.description,
    inputSchema,
    execute: async (input, callOptions) => answer(input, callOptions),
  };
}
