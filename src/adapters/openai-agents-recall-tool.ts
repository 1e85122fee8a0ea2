import { recallToolDefinition, type RecallToolInputSchema } from "../dialects/recall-tool-definition.js";
import { recallAnswerer, recallToolNameOf, type Recalling, type RecallToolOptions } from "./recall-answer.js";
import { functionTool, type FunctionToolOf } from "./openai-agents-function-tool.js";

/** What `@openai/agents` hands a function tool's `invoke` as its run context (the part this tool reads). */
export interface RecallRunContext {
  /** The value given to `run(…, { context })`. */
  context?: unknown;
}

/** The recall tool as a function tool of `@openai/agents` (see `FunctionToolOf`). */
export type RecallFunctionTool = FunctionToolOf<string, RecallToolInputSchema, RecallRunContext>;

/**
 * The `recall_context` function tool for the OpenAI Agents SDK (`new Agent({ tools: [recallTool(…)] })`):
 * the model calls it with a query and gets the archived messages that hold it. It reads only the
 * archive of the conversation named here (a string, or a function of `{ context }`, the value
 * given to `run(…, { context })`, as `toCallModelInputFilter`'s `conversationId` receives it), never
 * one the model names.
 *
 * @param compact - the `toCallModelInputFilter` (or `statefulCompactor`) made with `archive: true`
 * @param options - `conversationId` and `maxTokens` (default 2000)
 * @returns the function tool
 * @example
 * ```ts
 * const callModelInputFilter = toCallModelInputFilter({ maxTokens: 100_000, summarize, store, archive: true, conversationId: ({ context }) => (context as { chatId: string }).chatId });
 * const agent = new Agent({ name: "support", instructions, tools: [recallTool(callModelInputFilter, { conversationId: ({ context }) => (context as { chatId: string }).chatId })] });
 * ```
 */
export function recallTool(
  compact: Recalling,
  options: RecallToolOptions<{ context?: unknown }> = {},
): RecallFunctionTool {
  const answer = recallAnswerer<{ context?: unknown }>(compact, options);
  // Registered under the name the compactor's summaries give the model.
  return functionTool(
    { ...recallToolDefinition, name: recallToolNameOf(compact, options) },
    (input, runContext: RecallRunContext, signal) => answer(input, { context: runContext?.context }, signal),
  );
}
