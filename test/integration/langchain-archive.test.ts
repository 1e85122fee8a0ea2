// LangChain v1 `createAgent` with a middleware that compacts each model request through
// `statefulCompactor` with `archive: true`, and the `recall_context` tool, against `@langchain/core`'s fake chat model.
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { createAgent, createMiddleware } from "langchain";
import { describe, expect, it } from "vitest";
import { recallTool } from "../../src/adapters/langchain.js";
import { SUMMARY_PREFIX } from "../../src/expert.js";
import { memoryStore, statefulCompactor } from "../../src/index.js";
import { recallToolDefinition } from "../../src/tools.js";

function history(tag: string): BaseMessage[] {
  const messages: BaseMessage[] = [];
  for (let turn = 1; turn <= 8; turn++) {
    messages.push(new HumanMessage(`Check order ${tag}-${turn}. ${"context ".repeat(30)}`));
    messages.push(
      new AIMessage({
        content: "",
        tool_calls: [{ id: `c${turn}`, name: "lookup", args: { order: `${tag}-${turn}` }, type: "tool_call" }],
      }),
    );
    messages.push(
      new ToolMessage({
        tool_call_id: `c${turn}`,
        content: `Order ${tag}-${turn} ships with tracking ${tag}TRK${turn}99. ${"notes ".repeat(60)}`,
      }),
    );
    messages.push(new AIMessage(`Order ${tag}-${turn} checked.`));
  }
  messages.push(new HumanMessage(`What was the tracking number of order ${tag}-1?`));
  return messages;
}

describe("recall_context with createAgent", () => {
  it("the model calls recall_context, and its next request holds the archived fact of its own thread only", async () => {
    const store = memoryStore();
    const compact = statefulCompactor<BaseMessage>({
      maxTokens: 1500,
      summarize: () => "Orders were checked.",
      store,
      archive: true,
      summary: { role: "user" },
    });
    await compact(history("BOB"), { conversationId: "bob" });
    const model = fakeModel();
    model.respond(
      new AIMessage({
        content: "",
        tool_calls: [
          { id: "r1", name: "recall_context", args: { query: "TRK1", conversationId: "bob" }, type: "tool_call" },
        ],
      }),
    );
    // LangChain checks the input against the schema, which takes no other property: a call naming
    // a conversation fails as a whole, and the model calls again with the query alone.
    model.respond(
      new AIMessage({
        content: "",
        tool_calls: [{ id: "r2", name: "recall_context", args: { query: "TRK1" }, type: "tool_call" }],
      }),
    );
    model.respond(new AIMessage("It was ALICETRK199."));
    const archiving = createMiddleware({
      name: "ArchivingCompaction",
      wrapModelCall: async (request, handler) =>
        handler({
          ...request,
          messages: (await compact(request.messages, { conversationId: "alice" }))?.messages ?? request.messages,
        }),
    });
    const agent = createAgent({
      model,
      tools: [
        recallTool(compact, { conversationId: (config) => config.configurable?.["thread_id"] as string | undefined }),
      ],
      middleware: [archiving],
    });
    const result = await agent.invoke({ messages: history("ALICE") }, { configurable: { thread_id: "alice" } });
    expect(String(result.messages.at(-1)?.content)).toBe("It was ALICETRK199.");
    const calls = model.calls.map((call) => JSON.stringify(call.messages));
    expect(calls).toHaveLength(3);
    expect(calls[0]).not.toContain("ALICETRK199");
    expect(calls[0]).toContain(SUMMARY_PREFIX.trim().replace(/[[\]]/g, ""));
    expect(calls[1]).toContain("did not match expected schema");
    expect(calls[1]).not.toContain("TRK199");
    expect(calls[2]).toContain("ALICETRK199");
    expect(calls[2]).not.toContain("BOBTRK");
  });

  it("a LangChain tool with the shared name, description and schema, reading the conversation its config names", async () => {
    const store = memoryStore();
    const compact = statefulCompactor<BaseMessage>({
      maxTokens: 1500,
      summarize: () => "Orders were checked.",
      store,
      archive: true,
    });
    await compact(history("ALICE"), { conversationId: "alice" });
    await compact(history("BOB"), { conversationId: "bob" });
    const recall = recallTool(compact, { conversationId: (config) => config.configurable?.["thread_id"] as string });
    expect(recall.name).toBe(recallToolDefinition.name);
    expect(recall.description).toBe(recallToolDefinition.description);
    const answer = await recall.invoke({ query: "TRK1" }, { configurable: { thread_id: "alice" } });
    expect(answer).toContain("Tool result (lookup): Order ALICE-1 ships with tracking ALICETRK199.");
    expect(answer).not.toContain("BOBTRK");
  });
});
