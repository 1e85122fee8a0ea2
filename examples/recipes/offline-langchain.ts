import { AIMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import { createAgent, tool } from "langchain";
import { z } from "zod";
import { toAgentMiddleware } from "context-compactor/langchain";

/** `@langchain/core`'s fake chat model, scripted: a tool call for each of six turns, each followed by an answer. */
function scriptedModel() {
  let model = fakeModel();
  for (let turn = 1; turn <= 6; turn++) {
    model = model.respondWithTools([{ name: "lookup", args: { q: `topic ${turn}` }, id: `call-${turn}` }]).respond(new AIMessage(`Answer ${turn}.`));
  }
  return model;
}

/** Six turns of a LangChain agent with no network; the middleware compacts the thread's checkpoint. */
export async function agentOffline() {
  const model = scriptedModel();
  const lookup = tool(async ({ q }) => `facts about ${q}: ${"fact ".repeat(200)}`, { name: "lookup", description: "Look up a fact", schema: z.object({ q: z.string() }) });
  const agent = createAgent({ model, tools: [lookup], middleware: [toAgentMiddleware({ maxTokens: 1_500, summarize: async (older) => `looked up ${older.length} messages` })], checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: "offline" } };
  for (let turn = 1; turn <= 6; turn++) await agent.invoke({ messages: [{ role: "user", content: `Question ${turn}` }] }, config);
  // What the model received on each call, as the fake model records it.
  return { calls: model.calls.map((call) => call.messages) };
}
