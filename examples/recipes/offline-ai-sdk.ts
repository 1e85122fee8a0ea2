import { generateText, stepCountIs, tool, type ModelMessage } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { toPrepareStep } from "context-compactor/ai-sdk";

/** A model that calls `search` five times, then answers, and keeps every prompt it got. */
export function scriptedModel() {
  const prompts: unknown[][] = [];
  const usage = { inputTokens: { total: 100, noCache: 100, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 10, text: 10, reasoning: undefined } };
  const model = new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      prompts.push(prompt);
      if (prompts.length > 5) return { content: [{ type: "text", text: "Done." }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
      const call = { type: "tool-call" as const, toolCallId: `call-${prompts.length}`, toolName: "search", input: JSON.stringify({ query: `page ${prompts.length}` }) };
      return { content: [call], finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] };
    },
  });
  return { model, prompts };
}

/** An agent run with no network: the budget is small, so it compacts between steps. */
export async function runOffline() {
  const { model, prompts } = scriptedModel();
  const summaries: ModelMessage[][] = [];
  const { text } = await generateText({
    model,
    prompt: "Research the topic.",
    tools: { search: tool({ inputSchema: z.object({ query: z.string() }), execute: async ({ query }) => `results for ${query}: ${"fact ".repeat(300)}` }) },
    stopWhen: stepCountIs(10),
    prepareStep: toPrepareStep<ModelMessage>({
      maxTokens: 1_000,
      // A summarizer that records what it was given and answers at once: no model needed.
      summarize: async (older) => {
        summaries.push(older);
        return `searched ${older.length} messages`;
      },
    }),
  });
  return { text, prompts, summaries };
}
