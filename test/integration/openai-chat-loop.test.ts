// A plain `openai` chat-completions loop with the compactor as its before-LLM hook.
import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUMMARY_PREFIX, findToolPairProblems } from "../../src/expert.js";
import { compactor } from "../../src/index.js";
import { chatCompletion, startStubModel } from "../../examples/stub-model.mjs";

const system: ChatCompletionMessageParam = {
  role: "system",
  content: "You are a support agent. Use lookup for order questions.",
};

describe("openai SDK loop", () => {
  let stub: Awaited<ReturnType<typeof startStubModel>>;
  let calls = 0;
  beforeAll(async () => {
    // The model looks something up after every user message, then answers; parallel calls every other time.
    stub = await startStubModel(({ body }) => {
      const last = body.messages.at(-1);
      calls++;
      if (last.role === "user") {
        const count = calls % 2 === 0 ? 2 : 1;
        return chatCompletion({
          tool_calls: Array.from({ length: count }, (_, i) => ({
            id: `call_${calls}_${i}`,
            type: "function",
            function: { name: "lookup", arguments: JSON.stringify({ q: last.content }) },
          })),
        });
      }
      return chatCompletion({ content: `Here is what I found (${calls}).` });
    });
  });
  afterAll(() => stub.close());

  it("compacts a long history; every request keeps the system prompt and whole tool pairs", async () => {
    const client = new OpenAI({ baseURL: stub.baseURL, apiKey: "test", maxRetries: 0 });
    let summaries = 0;
    const beforeLlm = compactor<ChatCompletionMessageParam>({
      maxTokens: 3000,
      summarize: (older, { previousSummary }) =>
        `${++summaries}: ${older.length} messages${previousSummary ? ` after "${previousSummary}"` : ""}`,
    });
    let messages: ChatCompletionMessageParam[] = [system];
    for (let turn = 0; turn < 25; turn++) {
      messages.push({ role: "user", content: `Question ${turn}: where is order W${turn}? ${"details ".repeat(20)}` });
      for (;;) {
        const compacted = await beforeLlm({ messages });
        if (compacted) messages = compacted.messages;
        const response = await client.chat.completions.create({
          model: "stub",
          messages,
          tools: [
            {
              type: "function",
              function: { name: "lookup", parameters: { type: "object", properties: { q: { type: "string" } } } },
            },
          ],
        });
        const reply = response.choices[0]!.message;
        messages.push(reply);
        if (!reply.tool_calls) break;
        for (const call of reply.tool_calls)
          messages.push({
            role: "tool",
            tool_call_id: call.id,
            content: `result for ${call.id}: ${"data ".repeat(60)}`,
          });
      }
    }
    expect(summaries).toBeGreaterThan(1);
    const withSummary = stub.requests.filter((r) =>
      r.body.messages.some(
        (m: { content?: unknown }) => typeof m.content === "string" && m.content.startsWith(SUMMARY_PREFIX),
      ),
    );
    expect(withSummary.length).toBeGreaterThan(0);
    for (const request of stub.requests) {
      expect(request.body.messages[0]).toEqual(system);
      expect(findToolPairProblems(request.body.messages)).toEqual([]);
    }
  });
});
