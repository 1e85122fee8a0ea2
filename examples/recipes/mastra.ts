import { Agent } from "@mastra/core/agent";
import { createTool } from "@mastra/core/tools";
import { z } from "zod";
import { summarizeWith } from "context-compactor";
import { toInputProcessor } from "context-compactor/mastra";

// Mastra's model router ids; these read OPENAI_API_KEY.
const summarizer = new Agent({ id: "summarizer", name: "summarizer", instructions: "You summarize conversations.", model: "openai/gpt-4.1-mini" });
const summarize = summarizeWith(async ({ system, user }, { signal }) => {
  const { text } = await summarizer.generate([{ role: "system", content: system }, { role: "user", content: user }], { abortSignal: signal });
  return text;
});

const lookup = createTool({
  id: "lookup",
  description: "Look up a fact",
  inputSchema: z.object({ q: z.string() }),
  execute: async ({ q }) => `facts about ${q}`,
});

// Compacts the prompt of every model call, keyed by the memory thread; as an error processor too,
// it compacts and retries once when the provider rejects a call as too long.
const compaction = toInputProcessor({ maxTokens: 100_000, summarize });

export const researcher = new Agent({
  id: "researcher",
  name: "researcher",
  instructions: "You are a research agent. Look every fact up.",
  model: "openai/gpt-4.1",
  tools: { lookup },
  inputProcessors: [compaction],
  errorProcessors: [compaction],
});
