// The offline-testing recipes of docs/testing-offline.md, run: each drives a real framework with its
// own mock model, compacts, and shows the model received the summary with every tool pair whole.
import { describe, expect, it } from "vitest";
import { runOffline } from "../../examples/recipes/offline-ai-sdk.js";
import { agentOffline } from "../../examples/recipes/offline-langchain.js";
import { chatOffline } from "../../examples/recipes/offline-openai.js";
import { SUMMARY_PREFIX, findToolPairProblems } from "../../src/expert.js";
import { estimateTokens } from "../../src/index.js";

const holdsSummary = (messages: readonly unknown[]) =>
  JSON.stringify(messages).includes(JSON.stringify(SUMMARY_PREFIX).slice(1, -1));

describe("offline-testing recipes", () => {
  it("the AI SDK's MockLanguageModelV3: compacts between steps, and the model gets the summary", async () => {
    const { text, prompts, summaries } = await runOffline();
    expect(text).toBe("Done.");
    expect(summaries.length).toBeGreaterThan(0);
    expect(holdsSummary(prompts.at(-1)!)).toBe(true);
    expect(prompts.length).toBe(6);
  });

  it("the OpenAI SDK with its own fetch: every request fits the budget and the summary reaches it", async () => {
    const { requests } = await chatOffline();
    expect(requests).toHaveLength(12);
    for (const { messages } of requests) expect(estimateTokens(messages)).toBeLessThanOrEqual(1_000);
    expect(holdsSummary(requests.at(-1)!.messages)).toBe(true);
    expect(requests.at(-1)!.messages[0]).toEqual({ role: "system", content: "You are terse." });
  });

  it("LangChain's fakeModel: the agent's model receives the summary and whole tool pairs", async () => {
    const { calls } = await agentOffline();
    expect(calls).toHaveLength(12);
    expect(calls.some((messages) => holdsSummary(messages.map((message) => message.content)))).toBe(true);
    for (const messages of calls) expect(findToolPairProblems(messages)).toEqual([]);
  });
});
