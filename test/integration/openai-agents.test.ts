// `run()` from the real `@openai/agents`, with `toCallModelInputFilter`, against a stub Responses API.
import {
  Agent,
  run,
  setDefaultOpenAIClient,
  setOpenAIAPI,
  setTracingDisabled,
  tool,
  type AgentInputItem,
} from "@openai/agents";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { toCallModelInputFilter } from "../../src/adapters/openai-agents.js";
import { SUMMARY_PREFIX, findToolPairProblems } from "../../src/expert.js";
import { startStubModel } from "../../examples/stub-model.mjs";
import { responsesReply } from "../support/builders.js";

const instructions = "You are a travel agent. Use lookup for every fact.";

function history(turns: number): AgentInputItem[] {
  const items: AgentInputItem[] = [];
  for (let turn = 0; turn < turns; turn++) {
    items.push({ role: "user", content: `Earlier request ${turn}: ${"details ".repeat(30)}` });
    items.push({
      type: "function_call",
      callId: `old_${turn}`,
      name: "lookup",
      arguments: JSON.stringify({ q: `q${turn}` }),
      status: "completed",
    });
    items.push({
      type: "function_call_result",
      callId: `old_${turn}`,
      name: "lookup",
      status: "completed",
      output: { type: "text", text: "old result ".repeat(40) },
    });
    items.push({
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: `Earlier answer ${turn}.` }],
    });
  }
  items.push({ role: "user", content: "Plan the new trip." });
  return items;
}

describe("@openai/agents run with toCallModelInputFilter", () => {
  let stub: Awaited<ReturnType<typeof startStubModel>>;
  let turn = 0;
  beforeAll(async () => {
    stub = await startStubModel(() => {
      turn++;
      if (turn % 6 === 0)
        return responsesReply([
          {
            type: "message",
            id: `msg_${turn}`,
            role: "assistant",
            status: "completed",
            content: [{ type: "output_text", text: "Your trip is planned.", annotations: [] }],
          },
        ]);
      return responsesReply(
        [0, 1].slice(0, 1 + (turn % 2)).map((i) => ({
          type: "function_call",
          id: `fc_${turn}_${i}`,
          call_id: `call_${turn}_${i}`,
          name: "lookup",
          arguments: JSON.stringify({ q: `turn ${turn}` }),
          status: "completed",
        })),
      );
    });
    setTracingDisabled(true);
    setOpenAIAPI("responses");
    setDefaultOpenAIClient(new OpenAI({ baseURL: stub.baseURL, apiKey: "test", maxRetries: 0 }));
  });
  afterAll(() => stub.close());

  it("compacts the run's input; every request keeps the instructions and whole tool pairs", async () => {
    const lookup = tool({
      name: "lookup",
      description: "Look something up",
      parameters: z.object({ q: z.string() }),
      execute: async ({ q }) => `result for ${q}: ${"fact ".repeat(120)}`,
    });
    const agent = new Agent({ name: "travel", instructions, tools: [lookup], model: "stub-model" });
    const summarized: number[] = [];
    const callModelInputFilter = toCallModelInputFilter({
      maxTokens: 2500,
      summarize: (older) => `summary ${summarized.push(older.length)} of ${older.length} items`,
    });
    expect(callModelInputFilter.preserveInputIdentity).toBe(true);
    const result = await run(agent, history(12), { callModelInputFilter, maxTurns: 10 });
    expect(result.finalOutput).toBe("Your trip is planned.");
    expect(stub.requests).toHaveLength(6);
    expect(summarized.length).toBeGreaterThanOrEqual(1);
    expect(summarized.length).toBeLessThan(stub.requests.length);
    const sent = stub.requests.map(
      (r) => r.body as { instructions: string; input: { role?: string; content?: unknown }[] },
    );
    expect(
      sent.some(({ input }) =>
        input.some((item) => typeof item.content === "string" && item.content.startsWith(SUMMARY_PREFIX)),
      ),
    ).toBe(true);
    for (const body of sent) {
      expect(body.instructions).toBe(instructions);
      expect(findToolPairProblems(body.input)).toEqual([]);
    }
  });
});
