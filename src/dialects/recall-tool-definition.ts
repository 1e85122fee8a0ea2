// The agent's tool over the archive, as every framework's `recallTool` declares it: the one tool shape the
// library writes, kept with the other shapes providers read.

/** The JSON schema of the tool's input: one `query`, and nothing that could name a conversation. */
export interface RecallToolInputSchema {
  type: "object";
  properties: { query: { type: "string"; description: string } };
  required: ["query"];
  additionalProperties: false;
}

/**
 * The framework-neutral definition of the `recall_context` tool: its name, description and JSON
 * schema, as `recallTool` of `context-compactor/ai-sdk`, `/openai-agents` and `/langchain` declare
 * it. Hand it to any tool-calling API, and answer a call with `compact.recall(input.query, {
 * conversationId })`, where the id is the conversation's own, never one the model supplies.
 *
 * @example
 * ```ts
 * const { name, description, inputSchema } = recallToolDefinition; // declare them in your API's tool list
 * ```
 */
export const recallToolDefinition: {
  readonly name: "recall_context";
  readonly description: string;
  readonly inputSchema: RecallToolInputSchema;
} = {
  name: "recall_context",
  description:
    'Reads earlier messages of this conversation that were compacted out of view, verbatim. Query with an identifier or a phrase from the summary (an id, a path, a name, an error) to get the messages that hold it, newest first, or with a range of message positions such as "12-40".',
  inputSchema: {
    type: "object",
    properties: {
      query: {
        type: "string",
        description: 'An identifier, a phrase, or a range of message positions such as "12-40".',
      },
    },
    required: ["query"],
    additionalProperties: false,
  },
};
