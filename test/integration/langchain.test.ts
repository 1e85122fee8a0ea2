// LangChain v1 `createAgent` with the real `langchain` package, `@langchain/core`'s fake chat model,
// tools, a MemorySaver checkpointer and toAgentMiddleware.
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver, REMOVE_ALL_MESSAGES } from "@langchain/langgraph";
import { createAgent, createMiddleware, tool } from "langchain";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { toAgentMiddleware } from "../../src/adapters/langchain.js";
import { SUMMARY_PREFIX, findToolPairProblems } from "../../src/expert.js";

const lookup = tool(async ({ q }) => `result for ${q}: ${"fact ".repeat(60)}`, {
  name: "lookup",
  description: "Look something up",
  schema: z.object({ q: z.string() }),
});

/** The messages the checkpointer holds for a thread. */
async function stateMessages(
  agent: { graph: { getState: (config: object) => Promise<{ values: unknown }> } } | object,
  config: object,
): Promise<BaseMessage[]> {
  const graph = (agent as { graph: { getState: (config: object) => Promise<{ values: { messages: BaseMessage[] } }> } })
    .graph;
  return (await graph.getState(config)).values.messages;
}

/** `@langchain/core`'s fake chat model: a tool call for each question, then an answer once the tool has replied. */
function fakeAgentModel(invocations = 60) {
  const model = fakeModel();
  for (let call = 1; call <= invocations; call++) {
    model.respond((messages: BaseMessage[]) =>
      messages.at(-1)?.type === "tool"
        ? new AIMessage({ content: `Answer ${call}: ${"detail ".repeat(30)}` })
        : new AIMessage({
            content: "",
            tool_calls: [{ id: `call_${call}`, name: "lookup", args: { q: `q${call}` }, type: "tool_call" }],
          }),
    );
  }
  return model;
}

function agentWith(summarize: (older: BaseMessage[]) => string | Promise<string>) {
  const model = fakeAgentModel();
  const checkpointer = new MemorySaver();
  const agent = createAgent({
    model,
    tools: [lookup],
    middleware: [toAgentMiddleware({ maxTokens: 1500, summarize })],
    checkpointer,
  });
  // What the model received on each call, as `fakeModel` records it.
  return {
    agent,
    seen: {
      get all() {
        return model.calls.map((call) => call.messages as BaseMessage[]);
      },
    },
    checkpointer,
  };
}

describe("toAgentMiddleware with createAgent", () => {
  it("the marker it writes is LangGraph's REMOVE_ALL_MESSAGES", () => {
    expect(REMOVE_ALL_MESSAGES).toBe("__remove_all__");
  });

  it("compacts into the checkpointed state: the model gets the summary, every request is pair-valid, summarize runs once per crossing", async () => {
    const summarize = vi.fn((older: BaseMessage[]) => `the earlier ${older.length} messages`);
    const { agent, seen } = agentWith(summarize);
    const config = { configurable: { thread_id: "thread-1" } };
    const summariesAt: number[] = [];
    for (let turn = 0; turn < 12; turn++) {
      const before = summarize.mock.calls.length;
      await agent.invoke(
        { messages: [{ role: "user", content: `Question ${turn}: ${"context ".repeat(30)}` }] },
        config,
      );
      if (summarize.mock.calls.length > before) summariesAt.push(turn);
    }
    expect(summarize.mock.calls.length).toBeGreaterThanOrEqual(2);
    // Not on every turn: the compaction persisted in the checkpoint, so the next turns continue from it.
    expect(summarize.mock.calls.length).toBeLessThan(12);
    expect(seen.all.length).toBeGreaterThanOrEqual(24);
    expect(
      seen.all.some((messages) =>
        messages.some((m) => typeof m.content === "string" && m.content.startsWith(SUMMARY_PREFIX)),
      ),
    ).toBe(true);
    for (const messages of seen.all) expect(findToolPairProblems(messages)).toEqual([]);
    const messages = await stateMessages(agent, config);
    expect(messages[0]!.type).toBe("human");
    // A room this small holds one summary, rolled; its header says what it stands for once it has rolled.
    expect(String(messages[0]!.content)).toMatch(
      /^\[Summary of earlier conversation\]\n(?:\[Summary part: \d+ compactions, depth \d+\]\n)?the earlier \d+ messages/,
    );
    expect(messages.every((m) => typeof m.id === "string")).toBe(true);
    // The earlier summary is never summarized again as a message: it stays in the state (as the
    // summary's first section), or, where the room holds one summary, comes in as previousSummary.
    for (const [older] of summarize.mock.calls)
      expect(older.some((m) => String(m.content).startsWith(SUMMARY_PREFIX))).toBe(false);
  });

  it("a summarize that throws leaves the state's messages exactly as they were", async () => {
    let fail = false;
    const { agent } = agentWith(() => {
      if (fail) throw new Error("summarizer down");
      return "s";
    });
    const config = { configurable: { thread_id: "thread-2" } };
    await agent.invoke({ messages: [{ role: "user", content: `First ${"context ".repeat(30)}` }] }, config);
    await agent.invoke({ messages: [{ role: "user", content: `Second ${"context ".repeat(30)}` }] }, config);
    const before = await stateMessages(agent, config);
    fail = true;
    let rejected = false;
    for (let turn = 0; turn < 10 && !rejected; turn++) {
      try {
        await agent.invoke({ messages: [{ role: "user", content: `More ${turn} ${"context ".repeat(60)}` }] }, config);
      } catch {
        rejected = true;
      }
    }
    expect(rejected).toBe(true);
    const after = await stateMessages(agent, config);
    // Everything that was there is still there, untouched; nothing was replaced by an error text.
    expect(after.slice(0, before.length).map((m) => m.id)).toEqual(before.map((m) => m.id));
    expect(after.some((m) => String(m.content).includes("summarizer down"))).toBe(false);
  });
});

// The same scenarios with LangChain's own summarizationMiddleware, so the README compares measured facts.
describe("for comparison: LangChain's summarizationMiddleware", () => {
  function summaryModel(fail: boolean) {
    const model = fakeModel();
    if (fail) return model.alwaysThrow(new Error("summarizer down"));
    for (let i = 0; i < 50; i++) model.respond(new AIMessage("a summary"));
    return model;
  }

  async function runWith(fail: boolean, turns: number) {
    const seen: BaseMessage[][] = [];
    const recorder = createMiddleware({
      name: "Recorder",
      wrapModelCall: async (request, handler) => (seen.push([...request.messages]), handler(request)),
    });
    // Its config type and this project's strict optional properties disagree; the call is as documented.
    const { summarizationMiddleware } = (await import("langchain")) as unknown as {
      summarizationMiddleware: (options: object) => typeof recorder;
    };
    const agent = createAgent({
      model: fakeAgentModel(),
      tools: [lookup],
      middleware: [
        summarizationMiddleware({ model: summaryModel(fail), trigger: { tokens: 1500 }, keep: { messages: 3 } }),
        recorder,
      ],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "compare" } };
    for (let turn = 0; turn < turns; turn++)
      await agent.invoke(
        { messages: [{ role: "user", content: `Question ${turn}: ${"context ".repeat(30)}` }] },
        config,
      );
    return { seen, messages: await stateMessages(agent, config) };
  }

  it("on a failed summary, writes the error text as the summary and drops the history", async () => {
    const { messages } = await runWith(true, 8);
    expect(messages.some((m) => String(m.content).includes("Error generating summary: Error: summarizer down"))).toBe(
      true,
    );
    expect(messages.length).toBeLessThan(8 * 4);
  });

  it("keeps tool pairs whole in what the model receives", async () => {
    const { seen } = await runWith(false, 12);
    for (const messages of seen) expect(findToolPairProblems(messages)).toEqual([]);
  });
});
