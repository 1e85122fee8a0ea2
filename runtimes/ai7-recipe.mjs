// docs/recipes/ai-sdk.md as written (examples/recipes/ai-sdk.ts, imported as it is: Node 22 strips
// its types) on AI SDK 7: `ai` resolves to ai@7 (ai-sdk-hook.mjs), and the recipe's model ids to
// scripted models through `AI_SDK_DEFAULT_PROVIDER`, which the AI SDK reads for a model id string
// in place of the AI Gateway. One `research` call of 50 steps, each answering at length and
// searching again. Prints the checks and the run's figures, as mastra-end-to-end.mjs does.
import { register } from "node:module";
import { assert, check, results } from "./checks.mjs";
import { crossingsOf } from "./crossings.mjs";
import { SUMMARY_PREFIX, findToolPairProblems } from "../dist/expert.js";

register(new URL("./ai-sdk-hook.mjs", import.meta.url));

const budget = 100_000;
const summarizerInputs = [];
const requests = [];
const usageOf = (prompt) => {
  const tokens = Math.ceil(JSON.stringify(prompt).length / 4);
  return {
    inputTokens: { total: tokens, noCache: tokens, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 10, text: 10, reasoning: undefined },
  };
};
const scripted = (respond) => ({
  specificationVersion: "v3",
  provider: "scripted",
  modelId: "scripted",
  supportedUrls: {},
  doGenerate: async ({ prompt }) => ({ ...respond(prompt), usage: usageOf(prompt), warnings: [] }),
  doStream: async () => {
    throw new Error("not streamed");
  },
});
const summarizer = scripted((prompt) => {
  summarizerInputs.push(JSON.stringify(prompt).length);
  return {
    content: [{ type: "text", text: `Summary ${summarizerInputs.length}: the agent searched.` }],
    finishReason: { unified: "stop", raw: "stop" },
  };
});
const agent = scripted((prompt) => {
  requests.push(structuredClone(prompt));
  const n = requests.length;
  if (n === 50) return { content: [{ type: "text", text: "Done." }], finishReason: { unified: "stop", raw: "stop" } };
  return {
    content: [
      { type: "text", text: `Answer ${n}: ${"finding ".repeat(7_500)}` },
      {
        type: "tool-call",
        toolCallId: `call-${n}`,
        toolName: "search",
        input: JSON.stringify({ query: `query ${n}` }),
      },
    ],
    finishReason: { unified: "tool-calls", raw: "tool_calls" },
  };
});
globalThis.AI_SDK_DEFAULT_PROVIDER = {
  specificationVersion: "v3",
  languageModel: (id) => (id === "openai/gpt-4.1-mini" ? summarizer : agent),
};

let figures;
await check(
  "AI SDK 7, the recipe as written: a summary per crossing, a bounded summarizer input, pairs whole, the summary received",
  async () => {
    const { version } = await import("ai7/package.json", { with: { type: "json" } }).then((module) => module.default);
    const { research } = await import("../examples/recipes/ai-sdk.ts");
    const text = await research(`Question 0: ${"context ".repeat(5_000)}`);
    const crossings = crossingsOf(requests, budget);
    const largest = Math.max(0, ...summarizerInputs);
    figures = { crossings, summarizeCalls: summarizerInputs.length, largestSummarizerInput: largest, summarizerInputs };
    assert(text === "Done.", `answered ${text.slice(0, 40)}`);
    assert(crossings >= 3, `${crossings} crossings`);
    assert(summarizerInputs.length <= crossings + 1, `${summarizerInputs.length} summaries for ${crossings} crossings`);
    // Bounded: each summary reads the older messages of one budget and the summary before, so its input does not grow with the conversation.
    assert(
      largest <= summarizerInputs[0] * 1.5 && largest <= budget * 4 * 1.25,
      `summarizer inputs of ${summarizerInputs.join(", ")} characters`,
    );
    for (const request of requests)
      assert(findToolPairProblems(request).length === 0, "a request with a broken tool pair");
    const last = JSON.stringify(requests.at(-1));
    assert(
      last.includes(JSON.stringify(SUMMARY_PREFIX).slice(1, -1)) &&
        last.includes(`Summary ${summarizerInputs.length}:`),
      "the last request holds no latest summary",
    );
    return `ai@${version}, ${requests.length} steps, ${crossings} crossings, ${summarizerInputs.length} summaries, largest summarizer input ${largest} characters`;
  },
);
// The figures, then the results last, as mastra-end-to-end.mjs prints them.
console.log(JSON.stringify({ figures: figures ?? null }));
console.log(JSON.stringify(results));
