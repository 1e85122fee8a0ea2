import { compactToolDefinition, type CompactToolInputSchema } from "../dialects/compact-tool-definition.js";
import { compactAnswerer, type CompactToolOptions, type Requesting } from "./compact-answer.js";
import { functionTool, type FunctionToolOf } from "./openai-agents-function-tool.js";
import type { RecallRunContext } from "./openai-agents-recall-tool.js";

/** The compact tool as a function tool of `@openai/agents` (see `FunctionToolOf`). */
export type CompactFunctionTool = FunctionToolOf<typeof compactToolDefinition.name, CompactToolInputSchema, RecallRunContext>;

/**
 * The `compact_context` function tool for the OpenAI Agents SDK (`new Agent({ tools: [compactTool(…)] })`):
 * the model calls it when a sub-task is done or an exploration has converged (the rubric is in its
 * description), and the next model call's `callModelInputFilter` compacts, with the model's note of
 * what to keep passed to `summarize` as instructions. A call on a context under `minTokens`, or
 * right after a compaction it asked for, changes nothing and tells the model why. It acts on the
 * conversation named here (a string, or a function of `{ context }`, as `toCallModelInputFilter`'s
 * `conversationId` receives it), never one the model names.
 *
 * @param compact - the `toCallModelInputFilter` the same `run` uses
 * @param options - `conversationId` and `minTokens` (default a quarter of `maxTokens`)
 * @returns the function tool
 * @example
 * ```ts
 * const conversationId = ({ context }: { context?: unknown }) => (context as { chatId: string }).chatId;
 * const callModelInputFilter = toCallModelInputFilter({ maxTokens: 100_000, summarize, store, conversationId });
 * const agent = new Agent({ name: "support", instructions, tools: [compactTool(callModelInputFilter, { conversationId })] });
 * ```
 */
export function compactTool(compact: Requesting, options: CompactToolOptions<{ context?: unknown }> = {}): CompactFunctionTool {
  const answer = compactAnswerer<{ context?: unknown }>(compact, options);
  return functionTool(compactToolDefinition, async (input, runContext: RecallRunContext) => answer(input, { context: runContext?.context }));
}
