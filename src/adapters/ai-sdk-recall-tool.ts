import { recallToolDefinition } from "../dialects/recall-tool-definition.js";
import { recallAnswerer, type Recalling, type RecallToolOptions } from "./recall-answer.js";
import { stringFieldSchema, type ToolInputSchema } from "./ai-sdk-tool-schema.js";

/** The input of `recall_context`. */
export interface RecallInput {
  query: string;
}

/** What the AI SDK hands a tool's `execute` (the part this tool reads). */
export interface RecallToolCallOptions {
  toolCallId?: string;
  messages?: readonly unknown[];
  abortSignal?: AbortSignal;
  experimental_context?: unknown;
}

/** The tool's input schema (see `ToolInputSchema`). */
export type RecallInputSchema = ToolInputSchema<RecallInput>;

/** An AI SDK tool (what `tool({ description, inputSchema, execute })` of `ai` returns). */
export interface RecallContextTool {
  description: string;
  inputSchema: RecallInputSchema;
  execute: (input: RecallInput, options: RecallToolCallOptions) => Promise<string>;
}

const inputSchema: RecallInputSchema = stringFieldSchema("query", recallToolDefinition.inputSchema);

/**
 * The `recall_context` tool for the Vercel AI SDK (`generateText`, `streamText`, agents): the
 * model calls it with a query and gets the archived messages that hold it. It reads only the
 * archive of the conversation named here (or the compactor's own `conversationId`), never one the
 * model names.
 *
 * @param compact - the `toPrepareStep` (or `statefulCompactor`) made with `archive: true`
 * @param options - `conversationId` (a string, or a function of `execute`'s options) and `maxTokens` (default 2000)
 * @returns the tool, to list as `tools: { recall_context: recallTool(…) }`
 * @example
 * ```ts
 * const prepareStep = toPrepareStep({ maxTokens: 100_000, summarize, store, archive: true, conversationId: chatId });
 * await generateText({ model, messages, prepareStep, tools: { recall_context: recallTool(prepareStep, { conversationId: chatId }) } });
 * ```
 */
export function recallTool(
  compact: Recalling,
  options: RecallToolOptions<RecallToolCallOptions> = {},
): RecallContextTool {
  const answer = recallAnswerer<RecallToolCallOptions>(compact, options);
  return {
    description: recallToolDefinition.description,
    inputSchema,
    execute: (input, callOptions) => answer(input, callOptions, callOptions?.abortSignal),
  };
}
