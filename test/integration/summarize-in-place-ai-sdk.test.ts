// The AI SDK recipe of summarizeInPlace with the real `ai` package and an OpenAI-compatible
// provider against a stub: each summary request starts with the previous step's request, byte for
// byte, with the same tools, then asks for the summary.
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatCompletion, startStubModel } from "../../examples/stub-model.mjs";
import { researcher } from "../../examples/recipes/cached-summary-ai-sdk.js";
import { findToolPairProblems } from "../../src/index.js";

type Body = { messages: { role: string; content: unknown }[]; tools?: unknown };
const isSummaryRequest = (body: Body) => JSON.stringify(body.messages.at(-1)?.content ?? "").includes("Stop here:");

describe("summarizeInPlace with the AI SDK (the recipe)", () => {
  let stub: Awaited<ReturnType<typeof startStubModel>>;
  let step = 0;
  beforeAll(async () => {
    stub = await startStubModel(({ body }: { body: Body }) => {
      step++;
      if (isSummaryRequest(body)) return chatCompletion({ content: `summary ${step}` });
      if (step > 35) return chatCompletion({ content: "Here is the research." });
      return chatCompletion({ tool_calls: [{ id: `call_${step}`, type: "function", function: { name: "search", arguments: JSON.stringify({ query: `q${step}` }) } }] });
    });
  });
  afterAll(() => stub.close());

  it("every summary request repeats the previous step's request and tools, then the instructions", async () => {
    const model = createOpenAICompatible({ name: "stub", baseURL: stub.baseURL, apiKey: "test" }).chatModel("m");
    expect(await researcher(model)("What is new?")).toBe("Here is the research.");
    const requests = stub.requests.map((request) => request.body as Body);
    const summaries = requests.map((body, index) => ({ body, index })).filter(({ body }) => isSummaryRequest(body));
    expect(summaries.length).toBeGreaterThan(0);
    for (const { body, index } of summaries) {
      const previous = requests[index - 1]!;
      expect(isSummaryRequest(previous)).toBe(false);
      const sent = body.messages.slice(0, -1);
      const shared = Math.min(sent.length, previous.messages.length);
      expect(shared).toBeGreaterThan(2);
      expect(JSON.stringify(sent.slice(0, shared))).toBe(JSON.stringify(previous.messages.slice(0, shared)));
      expect(JSON.stringify(body.tools)).toBe(JSON.stringify(previous.tools));
      expect(findToolPairProblems(sent)).toEqual([]);
    }
  });
});
