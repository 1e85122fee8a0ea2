// A Gemini loop through the real `@google/genai` client against a stub on 127.0.0.1: the request
// body carries the summary as a user content, and every function response follows its call turn.
import { GoogleGenAI, type Content } from "@google/genai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUMMARY_PREFIX, detectDialect, findToolPairProblems } from "../../src/expert.js";
import { compactor } from "../../src/index.js";
import { startStubModel } from "../../examples/stub-model.mjs";

type Part = NonNullable<Content["parts"]>[number];

/** Gemini's own rule: a content of function responses answers, one for one, the call turn right before it. */
function geminiProblems(contents: Content[]): string[] {
  const problems: string[] = [];
  contents.forEach((content, index) => {
    const responses = (content.parts ?? []).filter((part) => part.functionResponse).length;
    if (responses === 0) return;
    const calls = (contents[index - 1]?.parts ?? []).filter((part) => part.functionCall).length;
    if (contents[index - 1]?.role !== "model" || calls !== responses)
      problems.push(`content ${index}: ${responses} responses after ${calls} calls`);
  });
  return problems;
}

describe("@google/genai generateContent loop", () => {
  let stub: Awaited<ReturnType<typeof startStubModel>>;
  let calls = 0;
  beforeAll(async () => {
    stub = await startStubModel(({ body }) => {
      calls++;
      const last = body.contents.at(-1) as Content;
      const answeringTools = (last.parts ?? []).some((part) => part.functionResponse);
      // Every other round's calls carry no id: Gemini pairs those in order.
      const id = (suffix: string) => (calls % 2 === 0 ? {} : { id: `fc_${calls}_${suffix}` });
      const parts: Part[] = answeringTools
        ? [{ text: `Done (${calls}).` }]
        : [
            { text: "Checking." },
            { functionCall: { ...id("a"), name: "lookup", args: { q: "a" } } },
            { functionCall: { ...id("b"), name: "lookup", args: { q: "b" } } },
          ];
      return {
        candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
        usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
      };
    });
  });
  afterAll(() => stub.close());

  it("compacts into a user content and keeps every call with its responses", async () => {
    const ai = new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: stub.baseURL.replace(/\/v1$/, "") } });
    let summaries = 0;
    const beforeLlm = compactor<Content>({
      maxTokens: 2500,
      summarize: (older) => `${++summaries}: ${older.length} contents`,
    });
    let contents: Content[] = [];
    for (let turn = 0; turn < 20; turn++) {
      contents.push({ role: "user", parts: [{ text: `Question ${turn}: ${"context ".repeat(30)}` }] });
      for (;;) {
        const compacted = await beforeLlm({ messages: contents });
        if (compacted) contents = compacted.messages;
        const response = await ai.models.generateContent({
          model: "stub",
          contents,
          config: {
            systemInstruction: "You are a support agent.",
            tools: [{ functionDeclarations: [{ name: "lookup", description: "Looks a thing up" }] }],
          },
        });
        const reply = response.candidates![0]!.content!;
        contents.push(reply);
        const functionCalls = (reply.parts ?? []).filter((part) => part.functionCall);
        if (functionCalls.length === 0) break;
        contents.push({
          role: "user",
          parts: functionCalls.map(({ functionCall }) => ({
            functionResponse: {
              ...(functionCall!.id ? { id: functionCall!.id } : {}),
              name: functionCall!.name!,
              response: { output: `result for ${JSON.stringify(functionCall!.args)} `.repeat(8) },
            },
          })),
        });
      }
    }
    expect(summaries).toBeGreaterThan(2);
    const bodies = stub.requests.map((request) => request.body as { contents: Content[] });
    const summarized = bodies.filter(({ contents: sent }) => sent[0]?.parts?.[0]?.text?.startsWith(SUMMARY_PREFIX));
    expect(summarized.length).toBeGreaterThan(0);
    for (const { contents: sent } of summarized) expect(sent[0]!.role).toBe("user");
    for (const { contents: sent } of bodies) {
      expect(detectDialect(sent)).toBe("google-genai");
      expect(findToolPairProblems(sent)).toEqual([]);
      expect(geminiProblems(sent)).toEqual([]);
    }
    expect(stub.requests[0]!.path).toContain(":generateContent");
  });
});
