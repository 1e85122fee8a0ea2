// `generateText` from the real `ai` package, with `toPrepareStep`, against a stub OpenAI-compatible server.
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, stepCountIs, tool, type ModelMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { toPrepareStep } from "../../src/adapters/ai-sdk.js";
import { SUMMARY_PREFIX, findToolPairProblems } from "../../src/index.js";
import { chatCompletion, startStubModel } from "../../examples/stub-model.mjs";

const system = "You are a research agent.";

// An earlier conversation in AI SDK messages: user questions, tool calls and results, answers.
function history(turns: number): ModelMessage[] {
  const messages: ModelMessage[] = [];
  for (let turn = 0; turn < turns; turn++) {
    messages.push({ role: "user", content: `Earlier question ${turn}: ${"context ".repeat(30)}` });
    messages.push({ role: "assistant", content: [{ type: "tool-call", toolCallId: `old_${turn}`, toolName: "lookup", input: { q: `q${turn}` } }] });
    messages.push({ role: "tool", content: [{ type: "tool-result", toolCallId: `old_${turn}`, toolName: "lookup", output: { type: "text", value: "old result ".repeat(40) } }] });
    messages.push({ role: "assistant", content: `Earlier answer ${turn}.` });
  }
  messages.push({ role: "user", content: "Now research the new topic in depth." });
  return messages;
}

describe("AI SDK generateText with toPrepareStep", () => {
  let stub: Awaited<ReturnType<typeof startStubModel>>;
  let step = 0;
  beforeAll(async () => {
    // Six rounds of (parallel) tool calls, then an answer.
    stub = await startStubModel(() => {
      step++;
      if (step % 7 === 0) return chatCompletion({ content: "Here is the research summary." });
      return chatCompletion({
        tool_calls: [0, 1].slice(0, 1 + (step % 2)).map((i) => ({ id: `call_${step}_${i}`, type: "function", function: { name: "lookup", arguments: JSON.stringify({ q: `step ${step}` }) } })),
      });
    });
  });
  afterAll(() => stub.close());

  it("summarizes once per budget crossing, and every request keeps the system prompt and whole tool pairs", async () => {
    const provider = createOpenAICompatible({ name: "stub", baseURL: stub.baseURL, apiKey: "test" });
    const summarized: number[] = [];
    const result = await generateText({
      model: provider.chatModel("stub-model"),
      system,
      messages: history(12),
      tools: { lookup: tool({ description: "Look something up", inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => `result for ${q}: ${"fact ".repeat(120)}` }) },
      stopWhen: stepCountIs(10),
      prepareStep: toPrepareStep({ maxTokens: 2500, summarize: (older) => `summary ${summarized.push(older.length)} of ${older.length} messages` }),
    });
    expect(result.text).toBe("Here is the research summary.");
    expect(stub.requests).toHaveLength(7);
    expect(summarized.length).toBeGreaterThanOrEqual(1);
    // Without the rolling memory, every step over budget would call summarize again.
    expect(summarized.length).toBeLessThan(stub.requests.length);
    const sent = stub.requests.map((r) => r.body.messages as { role: string; content: unknown }[]);
    expect(sent.some((messages) => messages.some((m) => m.role === "user" && typeof m.content === "string" && m.content.startsWith(SUMMARY_PREFIX)))).toBe(true);
    for (const messages of sent) {
      expect(messages[0]).toEqual({ role: "system", content: system });
      expect(messages.filter((m) => m.role === "system")).toHaveLength(1);
      expect(findToolPairProblems(messages)).toEqual([]);
    }
    // The last request is within budget: it carries the summary and the newest steps, not the whole history.
    expect(JSON.stringify(sent.at(-1)).length).toBeLessThan(JSON.stringify(sent[0]).length * 2);
  });

  it("returns {} under budget", async () => {
    const prepareStep = toPrepareStep({ maxTokens: 100_000, summarize: () => "unused" });
    expect(await prepareStep({ messages: history(1), stepNumber: 0 })).toEqual({});
  });
});
