// The compaction outlives the adapter: chat routes build a fresh adapter per request, and one
// module-level adapter serves many conversations. Real `ai` and `@openai/agents` against stubs.
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import {
  Agent,
  run,
  setDefaultOpenAIClient,
  setOpenAIAPI,
  setTracingDisabled,
  tool as agentTool,
  type AgentInputItem,
} from "@openai/agents";
import { generateText, stepCountIs, tool, type ModelMessage } from "ai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { toPrepareStep } from "../../src/adapters/ai-sdk.js";
import { toCallModelInputFilter } from "../../src/adapters/openai-agents.js";
import { findToolPairProblems } from "../../src/expert.js";
import { memoryStore } from "../../src/index.js";
import { chatCompletion, startStubModel } from "../../examples/stub-model.mjs";
import { responsesReply } from "../support/builders.js";

/** What a summarizer was asked to do over a whole scenario. */
function summarizerLog() {
  const inputs: number[] = [];
  return {
    inputs,
    summarize: (older: readonly object[]) => {
      inputs.push(JSON.stringify(older).length);
      const markers = [...new Set(JSON.stringify(older).match(/conv-\d+/g) ?? [])];
      return `summary ${inputs.length} of ${older.length} messages (${markers.join(", ")})`;
    },
    get calls() {
      return inputs.length;
    },
    get largest() {
      return Math.max(0, ...inputs);
    },
  };
}

describe("AI SDK: a fresh toPrepareStep per request over a shared store", () => {
  let stub: Awaited<ReturnType<typeof startStubModel>>;
  let calls = 0;
  beforeAll(async () => {
    // One tool call per user turn, then an answer.
    stub = await startStubModel(({ body }) => {
      calls++;
      const last = body.messages.at(-1);
      if (last.role === "tool") return chatCompletion({ content: `Answer ${calls}: ${"detail ".repeat(20)}` });
      return chatCompletion({
        tool_calls: [
          {
            id: `call_${calls}`,
            type: "function",
            function: { name: "lookup", arguments: JSON.stringify({ q: `step ${calls}` }) },
          },
        ],
      });
    });
  });
  afterAll(() => stub.close());

  async function chat(prepareStepFor: (turn: number) => ReturnType<typeof toPrepareStep>, turns = 40) {
    const provider = createOpenAICompatible({ name: "stub", baseURL: stub.baseURL, apiKey: "test" });
    const history: ModelMessage[] = [];
    const from = stub.requests.length;
    for (let turn = 0; turn < turns; turn++) {
      history.push({ role: "user", content: `Question ${turn}: ${"context ".repeat(30)}` });
      const result = await generateText({
        model: provider.chatModel("stub-model"),
        system: "You are a support agent.",
        messages: history,
        tools: {
          lookup: tool({
            description: "Look up",
            inputSchema: z.object({ q: z.string() }),
            execute: async ({ q }) => `result for ${q}: ${"fact ".repeat(40)}`,
          }),
        },
        stopWhen: stepCountIs(3),
        prepareStep: prepareStepFor(turn),
      });
      history.push(...result.response.messages);
    }
    return stub.requests.slice(from).map((request) => request.body.messages as object[]);
  }

  it("summarizes as often as one long-lived adapter, with inputs of the same size", async () => {
    const longLived = summarizerLog();
    const adapter = toPrepareStep({ maxTokens: 2500, summarize: longLived.summarize });
    const longLivedRequests = await chat(() => adapter);

    const perRequest = summarizerLog();
    const store = memoryStore();
    const perRequestRequests = await chat(() =>
      toPrepareStep({ maxTokens: 2500, summarize: perRequest.summarize, store, conversationId: "chat-1" }),
    );

    expect(longLived.calls).toBeGreaterThan(2);
    expect(Math.abs(perRequest.calls - longLived.calls)).toBeLessThanOrEqual(1);
    expect(perRequest.largest).toBeLessThanOrEqual(1.5 * longLived.largest);
    for (const messages of [...longLivedRequests, ...perRequestRequests])
      expect(findToolPairProblems(messages)).toEqual([]);
    // What a chat route got before: a fresh adapter with nothing shared summarizes on every request over budget.
    const forgetful = summarizerLog();
    await chat(() => toPrepareStep({ maxTokens: 2500, summarize: forgetful.summarize }));
    expect(forgetful.calls).toBeGreaterThan(3 * longLived.calls);
  });
});

describe("@openai/agents: state across runs and between concurrent runs", () => {
  let stub: Awaited<ReturnType<typeof startStubModel>>;
  // Each conversation's model answers by its own count, whatever the interleaving.
  const turnsOf = new Map<string, number>();
  beforeAll(async () => {
    stub = await startStubModel(({ body }) => {
      const text = JSON.stringify(body.input);
      const markers = [...new Set(text.match(/conv-\d+/g) ?? [])];
      const key = markers.length === 1 ? markers[0]! : "mixed";
      const turn = (turnsOf.get(key) ?? 0) + 1;
      turnsOf.set(key, turn);
      const last = (body.input as { type?: string }[]).at(-1);
      if (last?.type === "function_call_output" && turn % 6 === 0) {
        return responsesReply([
          {
            type: "message",
            id: `msg_${turn}`,
            role: "assistant",
            status: "completed",
            content: [{ type: "output_text", text: `Done ${key}.`, annotations: [] }],
          },
        ]);
      }
      return responsesReply([
        {
          type: "function_call",
          id: `fc_${key}_${turn}`,
          call_id: `call_${key}_${turn}`,
          name: "lookup",
          arguments: JSON.stringify({ q: `${key} step ${turn}` }),
          status: "completed",
        },
      ]);
    });
    setTracingDisabled(true);
    setOpenAIAPI("responses");
    setDefaultOpenAIClient(new OpenAI({ baseURL: stub.baseURL, apiKey: "test", maxRetries: 0 }));
  });
  afterAll(() => stub.close());

  const lookup = agentTool({
    name: "lookup",
    description: "Look up",
    parameters: z.object({ q: z.string() }),
    execute: async ({ q }) => `result for ${q}: ${"fact ".repeat(40)}`,
  });
  const agent = new Agent({
    name: "support",
    instructions: "You are a support agent.",
    tools: [lookup],
    model: "stub-model",
  });

  it("a fresh filter per run over a shared store summarizes as often as one long-lived filter", async () => {
    // Twenty turns cross the budget nine times. At forty (nineteen crossings) the Agents SDK's own
    // bookkeeping of the history each run is given (@openai/agents-core's runner/items.mjs, which
    // keys every item of it on every run) took three quarters of this file's time.
    async function conversation(filterFor: () => ReturnType<typeof toCallModelInputFilter>, name: string, turns = 20) {
      turnsOf.clear();
      let history: AgentInputItem[] = [];
      for (let turn = 0; turn < turns; turn++) {
        const result = await run(
          agent,
          [...history, { role: "user", content: `${name} question ${turn}: ${"context ".repeat(30)}` }],
          { callModelInputFilter: filterFor(), maxTurns: 10 },
        );
        history = result.history;
      }
    }
    const longLived = summarizerLog();
    const filter = toCallModelInputFilter({ maxTokens: 2500, summarize: longLived.summarize });
    await conversation(() => filter, "conv-1");
    const perRun = summarizerLog();
    const store = memoryStore();
    await conversation(() => toCallModelInputFilter({ maxTokens: 2500, summarize: perRun.summarize, store }), "conv-1");
    expect(longLived.calls).toBeGreaterThan(2);
    expect(Math.abs(perRun.calls - longLived.calls)).toBeLessThanOrEqual(1);
    expect(perRun.largest).toBeLessThanOrEqual(1.5 * longLived.largest);
  });

  it("one filter shared by 50 concurrent runs: no more summaries than 50 filters, and no run ever sees another's text", async () => {
    const runAll = async (filterFor: (i: number) => ReturnType<typeof toCallModelInputFilter>) => {
      turnsOf.clear();
      const from = stub.requests.length;
      await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          run(agent, [{ role: "user", content: `conv-${i}: plan my trip ${"details ".repeat(60)}` }], {
            callModelInputFilter: filterFor(i),
            maxTurns: 12,
          }),
        ),
      );
      return stub.requests.slice(from);
    };
    const separate = summarizerLog();
    const filters = Array.from({ length: 50 }, () =>
      toCallModelInputFilter({ maxTokens: 500, summarize: separate.summarize }),
    );
    await runAll((i) => filters[i]!);
    const shared = summarizerLog();
    const one = toCallModelInputFilter({ maxTokens: 500, summarize: shared.summarize });
    const requests = await runAll(() => one);
    expect(separate.calls).toBeGreaterThanOrEqual(50);
    expect(shared.calls).toBeLessThanOrEqual(separate.calls);
    for (const { body } of requests) {
      expect(new Set(JSON.stringify(body.input).match(/conv-\d+/g)).size).toBe(1);
      expect(findToolPairProblems(body.input)).toEqual([]);
    }
    expect(turnsOf.has("mixed")).toBe(false);
  });
});
