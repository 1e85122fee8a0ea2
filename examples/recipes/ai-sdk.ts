import { generateText, stepCountIs, tool } from "ai";
import { z } from "zod";
import { summarizeWith } from "context-compactor";
import { toPrepareStep } from "context-compactor/ai-sdk";

// Any AI SDK model works; these ids go through the AI Gateway (AI_GATEWAY_API_KEY).
const summarize = summarizeWith(async ({ system, user }, { signal }) => {
  const { text } = await generateText({ model: "openai/gpt-4.1-mini", system, prompt: user, abortSignal: signal });
  return text;
});

export async function research(question: string): Promise<string> {
  const { text } = await generateText({
    model: "openai/gpt-4.1",
    system: "You are a research agent. Use search for every fact.",
    prompt: question,
    tools: {
      search: tool({
        description: "Search the web",
        inputSchema: z.object({ query: z.string() }),
        execute: async ({ query }) => `results for ${query}`,
      }),
    },
    stopWhen: stepCountIs(50),
    // Compacts between steps; the summary is a user message, as AI SDK 7 expects. `system` and the
    // tool definitions travel beside the messages: room is kept for them until the first step
    // reports its usage, which measures them.
    prepareStep: toPrepareStep({ maxTokens: 100_000, reserveTokens: 1_000, summarize }),
  });
  return text;
}
