import { compactToolDefinition, type CompactToolInputSchema } from "../dialects/compact-tool-definition.js";
import { compactAnswerer, type Requesting } from "./compact-answer.js";
import { functionTool, type FunctionToolOf } from "./openai-agents-function-tool.js";
import type { RecallRunContext } from "./openai-agents-recall-tool.js";

/** The compact tool as a function tool of `@openai/agents` (see `FunctionToolOf`). */
export type CompactFunctionTool = FunctionToolOf<
  typeof compactToolDefinition.name,
  CompactToolInputSchema,
  RecallRunContext
>;

/**
 * The `compact_context` function tool for the OpenAI Agents SDK (`new Agent({ tools: [compactTool(…)] })`):
 * the model calls it when a sub-task is done or an exploration has converged (the rubric is in its
 * description), and the next model call's `callModelInputFilter` reads the call in the run's
 * items: it summarizes the finished work before the tool group the call is in, with the model's
 * note of what to keep passed to `summarize` as instructions, when that frees at least the
 * compactor's `compactTool.minTokens`. The request lives in the run's own items, so it can never
 * reach another conversation.
 *
 * @param compact - the `toCallModelInputFilter` the same `run` uses
 * @returns the function tool
 * @example
 * ```ts
 * const callModelInputFilter = toCallModelInputFilter({ maxTokens: 100_000, summarize, store, conversationId });
 * const agent = new Agent({ name: "support", instructions, tools: [compactTool(callModelInputFilter)] });
 * ```
 */
export function compactTool(compact: Requesting): CompactFunctionTool {
  const answer = compactAnswerer(compact);
  return functionTool(compactToolDefinition, async (input) => answer(input));
}
