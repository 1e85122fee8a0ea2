import { generateText, stepCountIs, tool, type LanguageModel, type ModelMessage } from "ai";
import { z } from "zod";
import { summarizeInPlace } from "context-compactor/summary-kit";
import { toPrepareStep } from "context-compactor/ai-sdk";

export function researcher(model: LanguageModel) {
  const system = "You are a research agent. Use search for every fact.";
  const tools = {
    search: tool({
      description: "Search the web",
      inputSchema: z.object({ query: z.string() }),
      execute: async ({ query }) => `results for ${query}: ${"fact ".repeat(4_000)}`,
    }),
  };
  // The summary request is the step just sent, with the same system prompt and tools, then the
  // instructions: a provider that caches prefixes serves all but the instructions from its cache.
  const summarize = summarizeInPlace<ModelMessage>(async (messages, { signal }) => {
    const { text } = await generateText({ model, system, messages, tools, toolChoice: "none", abortSignal: signal });
    return text;
  });
  return async (question: string): Promise<string> => {
    const { text } = await generateText({
      model,
      system,
      prompt: question,
      tools,
      stopWhen: stepCountIs(40),
      prepareStep: toPrepareStep({ maxTokens: 100_000, summarize }),
    });
    return text;
  };
}
