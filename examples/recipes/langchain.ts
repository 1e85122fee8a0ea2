import { MemorySaver } from "@langchain/langgraph";
import { createAgent, initChatModel, tool } from "langchain";
import { z } from "zod";
import { summarizeWith } from "context-compactor";
import { toAgentMiddleware } from "context-compactor/langchain";

// Any LangChain chat model; these need @langchain/openai and OPENAI_API_KEY.
const summarizer = await initChatModel("openai:gpt-4.1-mini");
const summarize = summarizeWith(async ({ system, user }, { signal }) => {
  const reply = await summarizer.invoke([{ role: "system", content: system }, { role: "user", content: user }], { signal });
  return typeof reply.content === "string" ? reply.content : "";
});

const lookup = tool(async ({ q }) => `facts about ${q}`, { name: "lookup", description: "Look up a fact", schema: z.object({ q: z.string() }) });

export const agent = createAgent({
  model: "openai:gpt-4.1",
  tools: [lookup],
  // Compacts before each model call; the compaction is written into the thread's checkpoint.
  middleware: [toAgentMiddleware({ maxTokens: 100_000, summarize })],
  checkpointer: new MemorySaver(),
});

export async function reply(threadId: string, text: string): Promise<string> {
  const state = await agent.invoke({ messages: [{ role: "user", content: text }] }, { configurable: { thread_id: threadId } });
  return String(state.messages.at(-1)?.content ?? "");
}
