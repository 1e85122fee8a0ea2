// The provider rejects the first request as over its window: the turn still completes, after one
// forced compaction, with a retried request within the smaller budget. Real SDKs, stubs on 127.0.0.1.
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import {
  Agent,
  OpenAIResponsesModel,
  run,
  setTracingDisabled,
  tool as agentTool,
  type AgentInputItem,
} from "@openai/agents";
import { generateText, wrapLanguageModel, type ModelMessage } from "ai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { overflowRecovery } from "../../src/adapters/ai-sdk.js";
import { withOverflowRecovery } from "../../src/adapters/openai-agents.js";
import { SUMMARY_PREFIX, findToolPairProblems } from "../../src/expert.js";
import { estimateTokens } from "../../src/index.js";
import { chatCompletion, errorResponse, startStubModel } from "../../examples/stub-model.mjs";
import { createWithRecovery } from "../../examples/recipes/overflow-recovery.js";
import { openaiErrors } from "../fixtures/provider-errors/index.js";
import { providerViolations } from "../support/provider-rules/index.js";
import { builders, responsesReply } from "../support/builders.js";

const overflow = () => errorResponse(openaiErrors.overflow.status, openaiErrors.overflow.body);
const history = (turns: number) =>
  Array.from({ length: turns }, (_, i) => [
    builders["openai-chat"].user(`Question ${i}: ${"context ".repeat(40)}`),
    builders["openai-chat"].assistant(`Answer ${i}: ${"detail ".repeat(40)}`),
  ]).flat();
const mentionsSummary = (value: unknown) => JSON.stringify(value).includes(JSON.stringify(SUMMARY_PREFIX).slice(1, -1));

describe("a plain openai loop (the recipe)", () => {
  let stub: Awaited<ReturnType<typeof startStubModel>>;
  beforeAll(async () => {
    stub = await startStubModel(() =>
      stub.requests.length === 1 ? overflow() : chatCompletion({ content: "Here you are." }),
    );
  });
  afterAll(() => stub.close());

  it("compacts once and retries within the smaller budget", async () => {
    const client = new OpenAI({ baseURL: stub.baseURL, apiKey: "test", maxRetries: 0 });
    const messages = [
      { role: "system" as const, content: "You are a support agent." },
      ...history(12),
      { role: "user" as const, content: "And now?" },
    ];
    const summarize = vi.fn(() => "the earlier questions and answers");
    const { messages: sent, response } = await createWithRecovery(client, "m", messages, {
      maxTokens: 100_000,
      summarize,
    });
    expect(response.choices[0]!.message.content).toBe("Here you are.");
    expect(summarize).toHaveBeenCalledTimes(1);
    expect(stub.requests).toHaveLength(2);
    const retried = stub.requests[1]!.body.messages;
    expect(estimateTokens(retried)).toBeLessThanOrEqual(Math.floor(estimateTokens(messages) * 0.6));
    expect(mentionsSummary(retried)).toBe(true);
    expect(retried.at(-1)).toEqual({ role: "user", content: "And now?" });
    expect(sent).toEqual(retried);
    expect(providerViolations("openai-chat", { messages: retried })).toEqual([]);
  });
});

describe("the AI SDK: overflowRecovery through wrapLanguageModel", () => {
  let stub: Awaited<ReturnType<typeof startStubModel>>;
  beforeAll(async () => {
    stub = await startStubModel(() =>
      stub.requests.length === 1 ? overflow() : chatCompletion({ content: "Recovered." }),
    );
  });
  afterAll(() => stub.close());

  it("the turn completes after one forced compaction, the retry within the smaller budget", async () => {
    const summarize = vi.fn(() => "the earlier questions and answers");
    const model = wrapLanguageModel({
      model: createOpenAICompatible({ name: "stub", baseURL: stub.baseURL, apiKey: "test" }).chatModel("m"),
      middleware: overflowRecovery({ summarize }),
    });
    const messages: ModelMessage[] = [...history(12), { role: "user", content: "And now?" }];
    const result = await generateText({ model, system: "You are a support agent.", messages, maxRetries: 0 });
    expect(result.text).toBe("Recovered.");
    expect(summarize).toHaveBeenCalledTimes(1);
    const [first, second] = stub.requests.map((request) => request.body.messages as object[]);
    expect(estimateTokens(second!)).toBeLessThanOrEqual(Math.ceil(estimateTokens(first!) * 0.6));
    expect(mentionsSummary(second)).toBe(true);
    expect(second![0]).toEqual({ role: "system", content: "You are a support agent." });
    expect(providerViolations("openai-chat", { messages: second! })).toEqual([]);
  });

  it("passes any other error through", async () => {
    const other = await startStubModel(() => errorResponse(openaiErrors.rateLimit.status, openaiErrors.rateLimit.body));
    try {
      const model = wrapLanguageModel({
        model: createOpenAICompatible({ name: "stub", baseURL: other.baseURL, apiKey: "test" }).chatModel("m"),
        middleware: overflowRecovery({ summarize: () => "s" }),
      });
      await expect(generateText({ model, prompt: "hi", maxRetries: 0 })).rejects.toThrow(/tokens per min/);
      expect(other.requests).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});

describe("@openai/agents: withOverflowRecovery around the model", () => {
  let stub: Awaited<ReturnType<typeof startStubModel>>;
  beforeAll(async () => {
    setTracingDisabled(true);
    stub = await startStubModel(({ body }) => {
      const input = body.input as { type?: string }[];
      if (stub.requests.length === 2) return overflow();
      if (input.at(-1)?.type === "function_call_output")
        return responsesReply([
          {
            type: "message",
            id: "msg",
            role: "assistant",
            status: "completed",
            content: [{ type: "output_text", text: "Trip planned.", annotations: [] }],
          },
        ]);
      return responsesReply([
        {
          type: "function_call",
          id: "fc_1",
          call_id: "call_1",
          name: "lookup",
          arguments: '{"q":"x"}',
          status: "completed",
        },
      ]);
    });
  });
  afterAll(() => stub.close());

  it("the run completes after one forced compaction, the retry within the smaller budget", async () => {
    const summarize = vi.fn(() => "the earlier trip requests");
    const base = new OpenAIResponsesModel(new OpenAI({ baseURL: stub.baseURL, apiKey: "test", maxRetries: 0 }), "m");
    const lookup = agentTool({
      name: "lookup",
      description: "Look up",
      parameters: z.object({ q: z.string() }),
      execute: async () => `facts ${"fact ".repeat(50)}`,
    });
    const agent = new Agent({
      name: "travel",
      instructions: "Plan trips.",
      tools: [lookup],
      model: withOverflowRecovery(base, { summarize }),
    });
    const input: AgentInputItem[] = [
      ...Array.from({ length: 12 }, (_, i): AgentInputItem[] => [
        { role: "user", content: `Earlier trip ${i}: ${"details ".repeat(40)}` },
        {
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: `Booked ${i}: ${"detail ".repeat(40)}` }],
        },
      ]).flat(),
      { role: "user", content: "Plan the new trip." },
    ];
    const result = await run(agent, input, { maxTurns: 5 });
    expect(result.finalOutput).toBe("Trip planned.");
    expect(summarize).toHaveBeenCalledTimes(1);
    const [, rejected, retried] = stub.requests.map((request) => request.body.input as object[]);
    expect(estimateTokens(retried!)).toBeLessThanOrEqual(Math.ceil(estimateTokens(rejected!) * 0.6));
    expect(mentionsSummary(retried)).toBe(true);
    expect(findToolPairProblems(retried!)).toEqual([]);
    expect(providerViolations("openai-responses", { messages: retried! })).toEqual([]);
  });
});
