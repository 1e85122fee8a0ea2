import { recallToolDefinition, type RecallToolInputSchema } from "../dialects/recall-tool-definition.js";
import { recallAnswerer, type Recalling, type RecallToolOptions } from "./recall-answer.js";

/** What `@openai/agents` hands a function tool's `invoke` as its run context (the part this tool reads). */
export interface RecallRunContext {
  /** The value given to `run(…, { context })`. */
  context?: unknown;
}

/**
 * A function tool of `@openai/agents` (the shape `tool({ … })` returns, `type: "function"`): made
 * here, so this entry imports nothing of the SDK. Strict: the schema takes exactly one `query`.
 */
export interface RecallFunctionTool {
  type: "function";
  name: typeof recallToolDefinition.name;
  description: string;
  parameters: RecallToolInputSchema;
  strict: true;
  invoke: (runContext: RecallRunContext, input: string, details?: { signal?: AbortSignal }) => Promise<string>;
  needsApproval: (runContext: unknown, input: unknown, callId?: string) => Promise<boolean>;
  isEnabled: (runContext: unknown, agent: unknown) => Promise<boolean>;
}

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
export function recallTool(compact: Recalling, options: RecallToolOptions<{ context?: unknown }> = {}): RecallFunctionTool {
  const answer = recallAnswerer<{ context?: unknown }>(compact, options);
  return {
    type: "function",
    name: recallToolDefinition.name,
    description: recallToolDefinition.description,
    parameters: recallToolDefinition.inputSchema,
    strict: true,
    invoke: async (runContext, input, details) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(input);
      } catch {
        parsed = undefined;
      }
      return answer(parsed, { context: runContext?.context }, details?.signal);
    },
    needsApproval: async () => false,
    isEnabled: async () => true,
  };
}
