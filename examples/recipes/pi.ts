import { Agent, type AgentMessage, type AgentTool } from "@earendil-works/pi-agent-core";
import { createModels } from "@earendil-works/pi-ai";
import { anthropicProvider } from "@earendil-works/pi-ai/providers/anthropic";
import { obj, str } from "@earendil-works/pi-schema";
import { summarizeWith } from "context-compactor";
import { toTransformContext } from "context-compactor/pi";

// Any pi-ai provider; this one reads ANTHROPIC_API_KEY.
export const models = createModels();
models.setProvider(anthropicProvider());

function modelOf(id: string) {
  const model = models.getModel("anthropic", id);
  if (!model) throw new Error(`pi-ai has no Anthropic model ${id}`);
  return model;
}
const model = modelOf("claude-sonnet-4-6");
const summarizer = modelOf("claude-haiku-4-5");

const summarize = summarizeWith(async ({ system, user }, { signal }) => {
  const reply = await models.completeSimple(summarizer, { systemPrompt: system, messages: [{ role: "user", content: user, timestamp: Date.now() }] }, { signal });
  // pi-ai reports a failed request in the reply instead of rejecting: the compaction falls back.
  if (reply.stopReason === "error" || reply.stopReason === "aborted") throw new Error(reply.errorMessage ?? reply.stopReason);
  return reply.content.map((part) => (part.type === "text" ? part.text : "")).join("");
});

const lookupParameters = obj({ q: str() });
const lookup: AgentTool<typeof lookupParameters> = {
  name: "lookup",
  label: "Lookup",
  description: "Look up a fact",
  parameters: lookupParameters,
  execute: async (_toolCallId, params) => ({ content: [{ type: "text", text: `facts about ${params.q}` }], details: {} }),
};

export const agent = new Agent({
  initialState: { systemPrompt: "You are a research agent. Look every fact up.", model, tools: [lookup] },
  streamFn: models.streamSimple.bind(models),
  // Compacts the context of every model call; pi's own transcript stays whole. The system prompt
  // and the tools are the transcript's leading system message: kept, and counted.
  transformContext: toTransformContext<AgentMessage>({ maxTokens: 100_000, summarize }),
});

export async function ask(question: string): Promise<string> {
  await agent.prompt(question);
  const last = agent.state.messages.at(-1);
  return last?.role === "assistant" ? last.content.map((part) => (part.type === "text" ? part.text : "")).join("") : "";
}
