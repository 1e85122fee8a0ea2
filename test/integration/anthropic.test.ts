// An Anthropic SDK loop as the recipe writes it (`format: "anthropic"`): the summary goes in as a
// user message, and every request passes the Anthropic checker (written from Anthropic's docs).
import Anthropic from "@anthropic-ai/sdk";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUMMARY_PREFIX } from "../../src/expert.js";
import { compactor, estimateTokens } from "../../src/index.js";
import { startStubModel } from "../../examples/stub-model.mjs";
import { providerViolations } from "../support/provider-rules/index.js";
import { render, shapeArbitrary } from "../support/transcripts.js";

type MessageParam = Anthropic.MessageParam;

const anthropicProblems = (messages: readonly object[], system?: string) =>
  providerViolations("anthropic", { messages, ...(system === undefined ? {} : { system }) });

describe("Anthropic SDK loop with format: anthropic", () => {
  let stub: Awaited<ReturnType<typeof startStubModel>>;
  let calls = 0;
  beforeAll(async () => {
    stub = await startStubModel(({ body }) => {
      calls++;
      const last = body.messages.at(-1);
      const answeringTools =
        Array.isArray(last.content) && last.content.some((b: { type: string }) => b.type === "tool_result");
      const content = answeringTools
        ? [{ type: "text", text: `Done (${calls}).` }]
        : [
            { type: "text", text: "Checking." },
            { type: "tool_use", id: `toolu_${calls}_a`, name: "lookup", input: { q: "a" } },
            { type: "tool_use", id: `toolu_${calls}_b`, name: "lookup", input: { q: "b" } },
          ];
      return {
        id: `msg_${calls}`,
        type: "message",
        role: "assistant",
        model: "stub",
        content,
        stop_reason: answeringTools ? "end_turn" : "tool_use",
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      };
    });
  });
  afterAll(() => stub.close());

  it("compacts, and every request starts with a user turn and answers every tool_use next", async () => {
    const client = new Anthropic({ baseURL: stub.baseURL.replace(/\/v1$/, ""), apiKey: "test", maxRetries: 0 });
    let summaries = 0;
    const beforeLlm = compactor<MessageParam>({
      maxTokens: 2500,
      format: "anthropic",
      reserveTokens: 20,
      summarize: (older) => `${++summaries}: ${older.length} messages`,
    });
    let messages: MessageParam[] = [];
    for (let turn = 0; turn < 20; turn++) {
      messages.push({ role: "user", content: `Question ${turn}: ${"context ".repeat(30)}` });
      for (;;) {
        const compacted = await beforeLlm({ messages });
        if (compacted) messages = compacted.messages;
        const response = await client.messages.create({
          model: "stub",
          max_tokens: 100,
          system: "You are a support agent.",
          messages,
        });
        messages.push({ role: "assistant", content: response.content });
        const uses = response.content.filter((block) => block.type === "tool_use");
        if (uses.length === 0) break;
        messages.push({
          role: "user",
          content: uses.map((use) => ({
            type: "tool_result" as const,
            tool_use_id: use.id,
            content: "found ".repeat(50),
          })),
        });
      }
    }
    expect(summaries).toBeGreaterThan(1);
    expect(stub.requests.some((r) => r.body.messages[0].content.startsWith?.(SUMMARY_PREFIX))).toBe(true);
    for (const request of stub.requests) {
      expect(request.body.system).toBe("You are a support agent.");
      expect(anthropicProblems(request.body.messages, request.body.system)).toEqual([]);
    }
  });

  it("any compacted Anthropic transcript satisfies Anthropic's rules", async () => {
    await fc.assert(
      fc.asyncProperty(
        shapeArbitrary({ minTurns: 1, accepted: true }),
        fc.double({ min: 0.05, max: 1, noNaN: true }),
        fc.boolean(),
        async (shape, share, flushToMemory) => {
          const messages = render({ ...shape, summary: undefined }, "anthropic");
          expect(anthropicProblems(messages)).toEqual([]);
          const maxTokens = Math.max(1, Math.floor(estimateTokens(messages) * share));
          const result = await compactor({
            maxTokens,
            format: "anthropic",
            summary: { flushToMemory },
            summarize: () => "s",
            onError: "skip",
          })({ messages });
          if (result) expect(anthropicProblems(result.messages as never)).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });
});
