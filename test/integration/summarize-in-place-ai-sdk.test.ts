// The AI SDK recipe of summarizeInPlace with the real `ai` package and an OpenAI-compatible
// provider against a stub: each summary request starts with the previous step's request, byte for
// byte, with the same tools, then asks for the summary.
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatCompletion, startStubModel } from "../../examples/stub-model.mjs";
import { researcher } from "../../examples/recipes/cached-summary-ai-sdk.js";
import {
  expectSummariesRepeatTheirPrefix,
  isSummaryRequest,
  type RequestBody as Body,
} from "../support/summary-requests.js";

describe("summarizeInPlace with the AI SDK (the recipe)", () => {
  let stub: Awaited<ReturnType<typeof startStubModel>>;
  let step = 0;
  beforeAll(async () => {
    stub = await startStubModel(({ body }: { body: Body }) => {
      step++;
      if (isSummaryRequest(body)) return chatCompletion({ content: `summary ${step}` });
      if (step > 35) return chatCompletion({ content: "Here is the research." });
      return chatCompletion({
        tool_calls: [
          {
            id: `call_${step}`,
            type: "function",
            function: { name: "search", arguments: JSON.stringify({ query: `q${step}` }) },
          },
        ],
      });
    });
  });
  afterAll(() => stub.close());

  it("every summary request repeats the previous step's request and tools, then the instructions", async () => {
    const model = createOpenAICompatible({ name: "stub", baseURL: stub.baseURL, apiKey: "test" }).chatModel("m");
    expect(await researcher(model)("What is new?")).toBe("Here is the research.");
    expectSummariesRepeatTheirPrefix(
      stub.requests.map((request) => request.body as Body),
      { minShared: 3 },
    );
  });
});
