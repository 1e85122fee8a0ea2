import { Agent, type AgentMessage, type AgentTool } from "@mariozechner/pi-agent-core";
import { completeSimple, getModel } from "@mariozechner/pi-ai";
import { Type } from "typebox";
import { summarizeWith } from "context-compactor";
import { toTransformContext } from "context-compactor/pi";

// Any pi-ai model; these read ANTHROPIC_API_KEY.
const model = getModel("anthropic", "claude-sonnet-4-6");
const summarizer = getModel("anthropic", "claude-haiku-4-5");

const summarize = summarizeWith(async ({ system, user }, { signal }) => {
  const reply = await completeSimple(summarizer, { systemPrompt: system, messages: [{ role: "user", content: user, timestamp: Date.now() }] }, { signal });
  return reply.content.map((part) => (part.type === "text" ? part.text : "")).join("");
});

const lookup: AgentTool = {
  name: "lookup",
  label: "Lookup",
  description: "Look up a fact",
  parameters: Type.Object({ q: Type.String() }),
  execute: async (_toolCallId, params) => ({ content: [{ type: "text", text: `facts about ${(params as { q: string }).q}` }], details: {} }),
};

export const agent = new Agent({
  initialState: { systemPrompt: "You are a research agent. Look every fact up.", model, tools: [lookup] },
  // Compacts the context of every model call; pi's own history stays whole. `systemPrompt` and the
  // tools travel beside the messages: room is kept for them until an assistant message reports usage.
  transformContext: toTransformContext<AgentMessage>({ maxTokens: 100_000, reserveTokens: 1_000, summarize }),
});

export async function ask(question: string): Promise<string> {
  await agent.prompt(question);
  const last = agent.state.messages.at(-1);
  return last?.role === "assistant" ? last.content.map((part) => (part.type === "text" ? part.text : "")).join("") : "";
}
