// summarizeInPlace with the real openai SDK against a stub model: the summary request starts with
// the very bytes of the previous main request, so a provider's prompt cache would serve that prefix.
import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUMMARY_PREFIX } from "../../src/expert.js";
import { compactor } from "../../src/index.js";
import { summarizeInPlace } from "../../src/summary-kit.js";
import {
  expectSummariesRepeatTheirPrefix,
  isSummaryRequest,
  type RequestBody as Body,
} from "../support/summary-requests.js";
import { chatCompletion, startStubModel } from "../../examples/stub-model.mjs";

const system: ChatCompletionMessageParam = {
  role: "system",
  content: "You are a support agent. Use lookup for order questions.",
};
const tools = [
  {
    type: "function" as const,
    function: { name: "lookup", parameters: { type: "object", properties: { q: { type: "string" } } } },
  },
];

describe("summarizeInPlace with the openai SDK", () => {
  let stub: Awaited<ReturnType<typeof startStubModel>>;
  let calls = 0;
  beforeAll(async () => {
    stub = await startStubModel(({ body }) => {
      calls++;
      if (isSummaryRequest(body)) return chatCompletion({ content: `summary ${calls}` });
      const last = body.messages.at(-1);
      if (last.role === "user")
        return chatCompletion({
          tool_calls: [
            {
              id: `call_${calls}`,
              type: "function",
              function: { name: "lookup", arguments: JSON.stringify({ q: String(last.content).slice(0, 20) }) },
            },
          ],
        });
      return chatCompletion({ content: `Here is what I found (${calls}).` });
    });
  });
  afterAll(() => stub.close());

  it("each summary request repeats the previous main request's messages byte for byte, then asks for the summary", async () => {
    const client = new OpenAI({ baseURL: stub.baseURL, apiKey: "test", maxRetries: 0 });
    const beforeLlm = compactor<ChatCompletionMessageParam>({
      maxTokens: 2500,
      summarize: summarizeInPlace(async (messages, { signal }) => {
        const response = await client.chat.completions.create(
          { model: "stub", messages, tools, tool_choice: "none" },
          { signal },
        );
        return response.choices[0]?.message.content ?? "";
      }),
    });
    let messages: ChatCompletionMessageParam[] = [system];
    for (let turn = 0; turn < 20; turn++) {
      messages.push({ role: "user", content: `Question ${turn}: where is order W${turn}? ${"details ".repeat(20)}` });
      for (;;) {
        const compacted = await beforeLlm({ messages });
        if (compacted) messages = compacted.messages;
        const response = await client.chat.completions.create({ model: "stub", messages, tools });
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
    const requests = stub.requests.map((request) => request.body as Body);
    expectSummariesRepeatTheirPrefix(requests);
    // The main requests carry the summaries the model wrote.
    expect(
      requests.some(
        (body) =>
          !isSummaryRequest(body) &&
          JSON.stringify(body.messages).includes(`${JSON.stringify(SUMMARY_PREFIX).slice(1, -1)}summary`),
      ),
    ).toBe(true);
  });
});
