// A Bedrock Converse loop through the real `@aws-sdk/client-bedrock-runtime` client (with its own
// HTTP/2 request handler) against a stub on 127.0.0.1: the request body carries the summary as a user message, and every toolResult answers
// a toolUse of the assistant message right before it.
import {
  BedrockRuntimeClient,
  ConverseCommand,
  type ContentBlock,
  type Message,
} from "@aws-sdk/client-bedrock-runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUMMARY_PREFIX, detectDialect, findToolPairProblems } from "../../src/expert.js";
import { compactor } from "../../src/index.js";
import { startStubModel } from "../../examples/stub-model.mjs";

/** Bedrock's own rule: the toolResult blocks of a user message answer the toolUse blocks of the assistant message before it. */
function bedrockProblems(messages: Message[]): string[] {
  const problems: string[] = [];
  messages.forEach((message, index) => {
    const results = (message.content ?? []).flatMap((block) => (block.toolResult ? [block.toolResult.toolUseId] : []));
    if (results.length === 0) return;
    const previous = messages[index - 1];
    const uses = new Set(
      (previous?.content ?? []).flatMap((block) => (block.toolUse ? [block.toolUse.toolUseId] : [])),
    );
    if (previous?.role !== "assistant" || results.some((id) => !uses.has(id)))
      problems.push(`message ${index}: results ${results.join(",")} without their toolUse`);
  });
  return problems;
}

describe("@aws-sdk/client-bedrock-runtime Converse loop", () => {
  let stub: Awaited<ReturnType<typeof startStubModel>>;
  let calls = 0;
  beforeAll(async () => {
    stub = await startStubModel(
      ({ body }) => {
        calls++;
        const last = body.messages.at(-1) as Message;
        const answeringTools = (last.content ?? []).some((block) => block.toolResult);
        const content: ContentBlock[] = answeringTools
          ? [{ text: `Done (${calls}).` }]
          : [
              { text: "Checking." },
              { toolUse: { toolUseId: `tu_${calls}_a`, name: "lookup", input: { q: "a" } } },
              { toolUse: { toolUseId: `tu_${calls}_b`, name: "lookup", input: { q: "b" } } },
            ];
        return {
          output: { message: { role: "assistant", content } },
          stopReason: answeringTools ? "end_turn" : "tool_use",
          usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
          metrics: { latencyMs: 1 },
        };
      },
      { http2: true },
    );
  });
  afterAll(() => stub.close());

  it("compacts into a user message and keeps every toolUse with its toolResult", async () => {
    const client = new BedrockRuntimeClient({
      region: "us-east-1",
      endpoint: stub.baseURL.replace(/\/v1$/, ""),
      credentials: { accessKeyId: "test", secretAccessKey: "test" },
      maxAttempts: 1,
    });
    let summaries = 0;
    const beforeLlm = compactor<Message>({
      maxTokens: 2500,
      summarize: (older) => `${++summaries}: ${older.length} messages`,
    });
    let messages: Message[] = [];
    for (let turn = 0; turn < 20; turn++) {
      messages.push({ role: "user", content: [{ text: `Question ${turn}: ${"context ".repeat(30)}` }] });
      for (;;) {
        const compacted = await beforeLlm({ messages });
        if (compacted) messages = compacted.messages;
        const response = await client.send(
          new ConverseCommand({
            modelId: "stub",
            messages,
            system: [{ text: "You are a support agent." }],
            toolConfig: { tools: [{ toolSpec: { name: "lookup", inputSchema: { json: { type: "object" } } } }] },
          }),
        );
        const reply = response.output!.message!;
        messages.push(reply);
        const uses = (reply.content ?? []).flatMap((block) => (block.toolUse ? [block.toolUse] : []));
        if (uses.length === 0) break;
        messages.push({
          role: "user",
          content: uses.map((use) => ({
            toolResult: {
              toolUseId: use.toolUseId,
              content: [{ text: `result for ${JSON.stringify(use.input)} `.repeat(8) }],
              status: "success",
            },
          })),
        });
      }
    }
    expect(summaries).toBeGreaterThan(2);
    const bodies = stub.requests.map((request) => request.body as { messages: Message[] });
    const summarized = bodies.filter(({ messages: sent }) => sent[0]?.content?.[0]?.text?.startsWith(SUMMARY_PREFIX));
    expect(summarized.length).toBeGreaterThan(0);
    for (const { messages: sent } of summarized) expect(sent[0]!.role).toBe("user");
    for (const { messages: sent } of bodies) {
      expect(detectDialect(sent)).toBe("bedrock-converse");
      expect(findToolPairProblems(sent)).toEqual([]);
      expect(bedrockProblems(sent)).toEqual([]);
    }
    expect(stub.requests[0]!.path).toBe("/model/stub/converse");
  });
});
