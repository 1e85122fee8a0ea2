// The Anthropic recipe of summarizeInPlace with the real SDK against a stub: each summary request
// repeats the previous request's system prompt and messages byte for byte, with the cache
// breakpoint moved to its last older message, and then asks for the summary.
import type Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStubModel } from "../../examples/stub-model.mjs";
import {
  expectSummariesRepeatTheirPrefix,
  isSummaryRequest,
  type RequestBody as Body,
} from "../support/summary-requests.js";
/** A message without its cache breakpoint: what the provider's cache key is made of. */
const withoutBreakpoints = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (key, item) => (key === "cache_control" ? undefined : item)));

describe("summarizeInPlace with the Anthropic SDK (the recipe)", () => {
  let stub: Awaited<ReturnType<typeof startStubModel>>;
  let calls = 0;
  beforeAll(async () => {
    stub = await startStubModel(({ body }: { body: Body }) => {
      calls++;
      const text = isSummaryRequest(body) ? `summary ${calls}` : `Answer ${calls}: ${"detail ".repeat(40)}`;
      return {
        id: `msg_${calls}`,
        type: "message",
        role: "assistant",
        model: "stub",
        content: [{ type: "text", text }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      };
    });
    // The recipe makes its client as users do, from the environment.
    process.env["ANTHROPIC_API_KEY"] = "test";
    process.env["ANTHROPIC_BASE_URL"] = stub.baseURL.replace(/\/v1$/, "");
  });
  afterAll(async () => {
    delete process.env["ANTHROPIC_API_KEY"];
    delete process.env["ANTHROPIC_BASE_URL"];
    await stub.close();
  });

  it("every summary request is the previous request's prefix, breakpoint on its last older message", async () => {
    const { send } = await import("../../examples/recipes/cached-summary-anthropic.js");
    let messages: Anthropic.MessageParam[] = [];
    // The recipe's budget is 150,000 tokens: about 6,000 a turn crosses it after some 25 turns.
    for (let turn = 0; turn < 40; turn++) {
      messages = await send([...messages, { role: "user", content: `Question ${turn}: ${"context ".repeat(3000)}` }]);
    }
    // Byte for byte but for where the breakpoint sits, which moves to the last older message.
    const summaries = expectSummariesRepeatTheirPrefix(
      stub.requests.map((request) => request.body as Body),
      { normalize: withoutBreakpoints },
    );
    for (const body of summaries)
      expect(JSON.stringify(body.messages.at(-2))).toContain('"cache_control":{"type":"ephemeral"}');
  });
});
