// ai@7 end to end on Node 22: generateText with toPrepareStep against a stub on 127.0.0.1; prints
// the same result shape as the conformance checks.
import { createOpenAICompatible } from "openai-compatible-v3";
import { generateText, jsonSchema, stepCountIs, tool } from "ai7";
import { toPrepareStep } from "../dist/ai-sdk.js";
import { findToolPairProblems, SUMMARY_PREFIX } from "../dist/index.js";
import { chatCompletion, startStubModel } from "../examples/stub-model.mjs";

const results = [];
let step = 0;
const stub = await startStubModel(() => {
  step++;
  if (step % 5 === 0) return chatCompletion({ content: "Done." });
  return chatCompletion({ tool_calls: [{ id: `call_${step}`, type: "function", function: { name: "lookup", arguments: JSON.stringify({ q: `s${step}` }) } }] });
});
try {
  const history = [];
  for (let turn = 0; turn < 12; turn++) history.push({ role: "user", content: `Earlier ${turn}: ${"context ".repeat(30)}` }, { role: "assistant", content: `Answer ${turn}.` });
  history.push({ role: "user", content: "Research the new topic." });
  let summaries = 0;
  const result = await generateText({
    model: createOpenAICompatible({ name: "stub", baseURL: stub.baseURL, apiKey: "test" }).chatModel("m"),
    system: "You are a research agent.",
    messages: history,
    tools: { lookup: tool({ description: "Look up", inputSchema: jsonSchema({ type: "object", properties: { q: { type: "string" } } }), execute: async ({ q }) => `result for ${q}: ${"fact ".repeat(80)}` }) },
    stopWhen: stepCountIs(6),
    prepareStep: toPrepareStep({ maxTokens: 1000, summarize: () => `summary ${++summaries}` }),
  });
  const bodies = stub.requests.map((request) => request.body.messages);
  const ok = result.text === "Done." && summaries >= 1 && bodies.every((messages) => findToolPairProblems(messages).length === 0) && bodies.some((messages) => JSON.stringify(messages).includes(JSON.stringify(SUMMARY_PREFIX).slice(1, -1)));
  results.push({ check: "ai@7 generateText with toPrepareStep", ok, detail: `${stub.requests.length} requests, ${summaries} summaries, ${process.version}` });
} catch (error) {
  results.push({ check: "ai@7 generateText with toPrepareStep", ok: false, detail: String(error?.stack ?? error) });
} finally {
  await stub.close();
}
console.log(JSON.stringify(results));
