/**
 * A function tool of `@openai/agents` (the shape `tool({ … })` returns, `type: "function"`): made
 * here, so this entry imports nothing of the SDK. Strict: the schema takes exactly its declared input.
 */
export interface FunctionToolOf<Name extends string, Parameters, RunContext> {
  type: "function";
  name: Name;
  description: string;
  parameters: Parameters;
  strict: true;
  invoke: (runContext: RunContext, input: string, details?: { signal?: AbortSignal }) => Promise<string>;
  needsApproval: (runContext: unknown, input: unknown, callId?: string) => Promise<boolean>;
  isEnabled: (runContext: unknown, agent: unknown) => Promise<boolean>;
}

/** A strict function tool whose `answer` gets the parsed input (undefined when it is not JSON). */
export function functionTool<Name extends string, Parameters, RunContext>(
  definition: { name: Name; description: string; inputSchema: Parameters },
  answer: (input: unknown, runContext: RunContext, signal: AbortSignal | undefined) => Promise<string>,
): FunctionToolOf<Name, Parameters, RunContext> {
  return {
    type: "function",
    name: definition.name,
    description: definition.description,
    parameters: definition.inputSchema,
    strict: true,
    invoke: async (runContext, input, details) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(input);
      } catch {
        parsed = undefined;
      }
      return answer(parsed, runContext, details?.signal);
    },
    needsApproval: async () => false,
    isEnabled: async () => true,
  };
}
