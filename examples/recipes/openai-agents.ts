import { Agent, RunContext, run, tool, type AgentInputItem } from "@openai/agents";
import OpenAI from "openai";
import { z } from "zod";
import { memoryStore, summarizeWith } from "context-compactor";
import { toCallModelInputFilter } from "context-compactor/openai-agents";

const openai = new OpenAI(); // reads OPENAI_API_KEY

const agent = new Agent({
  name: "travel agent",
  instructions: "You plan trips. Use lookup for every fact.",
  tools: [
    tool({
      name: "lookup",
      description: "Look up a fact",
      parameters: z.object({ q: z.string() }),
      execute: async ({ q }) => `facts about ${q}`,
    }),
  ],
});

const summarize = summarizeWith(async ({ system, user }, { signal }) => {
  const response = await openai.responses.create({ model: "gpt-4.1-mini", instructions: system, input: user }, { signal });
  return response.output_text;
});

// One store for every run: each run's filter continues from the last compaction.
const store = memoryStore();
let history: AgentInputItem[] = [];

export async function reply(userText: string): Promise<string> {
  // The run's context: the filter reads the provider's count of each request from its usage.
  const context = new RunContext();
  const callModelInputFilter = toCallModelInputFilter({ maxTokens: 100_000, summarize, store, runContext: () => context });
  const result = await run(agent, [...history, { role: "user", content: userText }], { context, callModelInputFilter });
  history = result.history;
  return String(result.finalOutput ?? "");
}
