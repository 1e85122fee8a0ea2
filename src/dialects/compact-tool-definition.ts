// The agent's own hand on compaction, as every framework's `compactTool` declares it: the tool shape
// the library writes, kept with the other shapes providers read.

/** The JSON schema of the tool's input: one `keep`, the model's note of what the summary must hold. */
export interface CompactToolInputSchema {
  type: "object";
  properties: { keep: { type: "string"; description: string } };
  required: ["keep"];
  additionalProperties: false;
}

/**
 * The framework-neutral definition of the `compact_context` tool: its name, description and JSON
 * schema, as `compactTool` of `context-compactor/ai-sdk`, `/openai-agents` and `/langchain` declare
 * it. The description carries a rubric of when to call it (a sub-task resolved, an exploration
 * done) and when not to (in the middle of a derivation, or while stuck): a compaction tool without
 * one is called at unhelpful moments or not at all ("Self-Compacting Language Model Agents", 2026).
 * Hand it to any tool-calling API, and answer a call with `answerCompactContext(hook, input.keep,
 * { messages })`: the next model call reads the call from the transcript and compacts.
 *
 * @example
 * ```ts
 * const { name, description, inputSchema } = compactToolDefinition; // declare them in your API's tool list
 * ```
 */
export const compactToolDefinition: {
  readonly name: "compact_context";
  readonly description: string;
  readonly inputSchema: CompactToolInputSchema;
} = {
  name: "compact_context",
  description:
    "Summarizes the earlier part of this conversation before your next step, so the context holds what still matters and not the stale steps that led to it. " +
    "Call it when a sub-task has been resolved (a fix is verified, a question answered, a file finished), or when a long search or exploration has converged and its findings are known. " +
    "Do not call it in the middle of a derivation or an edit whose intermediate results you still need, nor while you are stuck: what is summarized is no longer visible word for word. " +
    "In `keep`, say what the summary must hold: the goal, the decisions, the identifiers, paths and values you will need, and the next step.",
  inputSchema: {
    type: "object",
    properties: {
      keep: {
        type: "string",
        description:
          "What the summary must keep: the goal, decisions, identifiers, paths and values still needed, and the next step.",
      },
    },
    required: ["keep"],
    additionalProperties: false,
  },
};
