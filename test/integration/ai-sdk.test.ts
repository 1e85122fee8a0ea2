// `generateText` from the real `ai` package, with `toPrepareStep`, against a stub OpenAI-compatible server.
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, stepCountIs, tool, type ModelMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { toPrepareStep } from "../../src/adapters/ai-sdk.js";
import { SUMMARY_PREFIX, findToolPairProblems } from "../../src/expert.js";
import { estimateTokens } from "../../src/index.js";
import { chatCompletion, startStubModel } from "../../examples/stub-model.mjs";
import { builders } from "../support/builders.js";

const system = "You are a research agent.";

// An earlier conversation in AI SDK messages: user questions, tool calls and results, answers.
function history(turns: number): ModelMessage[] {
  const { user, assistant, toolCall, toolResult } = builders["ai-sdk"];
  const messages: ModelMessage[] = [];
  for (let turn = 0; turn < turns; turn++) {
    messages.push(user(`Earlier question ${turn}: ${"context ".repeat(30)}`));
    messages.push(toolCall(`old_${turn}`, "lookup", { q: `q${turn}` }));
    messages.push(toolResult(`old_${turn}`, "old result ".repeat(40), { name: "lookup" }));
    messages.push(assistant(`Earlier answer ${turn}.`));
  }
  messages.push(user("Now research the new topic in depth."));
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
        tool_calls: [0, 1].slice(0, 1 + (step % 2)).map((i) => ({
          id: `call_${step}_${i}`,
          type: "function",
          function: { name: "lookup", arguments: JSON.stringify({ q: `step ${step}` }) },
        })),
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
      tools: {
        lookup: tool({
          description: "Look something up",
          inputSchema: z.object({ q: z.string() }),
          execute: async ({ q }) => `result for ${q}: ${"fact ".repeat(120)}`,
        }),
      },
      stopWhen: stepCountIs(10),
      prepareStep: toPrepareStep({
        maxTokens: 2500,
        summarize: (older) => `summary ${summarized.push(older.length)} of ${older.length} messages`,
      }),
    });
    expect(result.text).toBe("Here is the research summary.");
    expect(stub.requests).toHaveLength(7);
    expect(summarized.length).toBeGreaterThanOrEqual(1);
    // Without the rolling memory, every step over budget would call summarize again.
    expect(summarized.length).toBeLessThan(stub.requests.length);
    const sent = stub.requests.map((r) => r.body.messages as { role: string; content: unknown }[]);
    expect(
      sent.some((messages) =>
        messages.some(
          (m) => m.role === "user" && typeof m.content === "string" && m.content.startsWith(SUMMARY_PREFIX),
        ),
      ),
    ).toBe(true);
    for (const messages of sent) {
      expect(messages[0]).toEqual({ role: "system", content: system });
      expect(messages.filter((m) => m.role === "system")).toHaveLength(1);
      expect(findToolPairProblems(messages)).toEqual([]);
    }
    // The last request is within budget: it carries the summary and the newest steps, not the whole history.
    expect(JSON.stringify(sent.at(-1)).length).toBeLessThan(JSON.stringify(sent[0]).length * 2);
  });

  it("counts from the usage each step reports: the summary comes at the reported figure, not at the estimate", async () => {
    // A provider whose tokenizer counts four times the estimate, as it reports in `usage`.
    let steps = 0;
    const inflated = await startStubModel(({ body }) => {
      steps++;
      const answer =
        steps % 3 === 0
          ? chatCompletion({ content: "Done." })
          : chatCompletion({
              tool_calls: [
                {
                  id: `u_${steps}`,
                  type: "function",
                  function: { name: "lookup", arguments: JSON.stringify({ q: `s${steps}` }) },
                },
              ],
            });
      const promptTokens = 4 * Math.ceil(Buffer.byteLength(JSON.stringify(body.messages)) / 4);
      return {
        ...answer,
        usage: { prompt_tokens: promptTokens, completion_tokens: 1, total_tokens: promptTokens + 1 },
      };
    });
    try {
      const provider = createOpenAICompatible({ name: "stub", baseURL: inflated.baseURL, apiKey: "test" });
      const run = async (maxTokens: number) => {
        steps = 0;
        const compactedAt: number[] = [];
        const adapter = toPrepareStep({ maxTokens, summarize: () => "the earlier research" });
        await generateText({
          model: provider.chatModel("stub-model"),
          system,
          messages: history(4),
          tools: {
            lookup: tool({
              description: "Look something up",
              inputSchema: z.object({ q: z.string() }),
              execute: async ({ q }) => `result for ${q}: ${"fact ".repeat(60)}`,
            }),
          },
          stopWhen: stepCountIs(3),
          prepareStep: async (options) => {
            const result = await adapter(options);
            if (result.messages) compactedAt.push(options.stepNumber);
            return result;
          },
        });
        return compactedAt;
      };
      const estimated = estimateTokens(history(4));
      // By the estimate every step fits twice over; by the reported usage the second step does not.
      expect(await run(estimated * 2)).toEqual([1, 2]);
      expect(await run(estimated * 100)).toEqual([]);
    } finally {
      await inflated.close();
    }
  });

  it("returns {} under budget", async () => {
    const prepareStep = toPrepareStep({ maxTokens: 100_000, summarize: () => "unused" });
    expect(await prepareStep({ messages: history(1), stepNumber: 0 })).toEqual({});
  });
});
