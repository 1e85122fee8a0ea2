// ai@7 end to end on Node 22: generateText with toPrepareStep against a stub on 127.0.0.1; prints
// the same result shape as the conformance checks.
import { createOpenAICompatible } from "openai-compatible-v3";
import { generateText, jsonSchema, stepCountIs, tool } from "ai7";
import { toPrepareStep } from "../dist/ai-sdk.js";
import { findToolPairProblems, SUMMARY_PREFIX } from "../dist/expert.js";
import { chatCompletion, startStubModel } from "../examples/stub-model.mjs";

const results = [];
let step = 0;
const stub = await startStubModel(() => {
  step++;
  if (step % 5 === 0) return chatCompletion({ content: "Done." });
  return chatCompletion({
    tool_calls: [
      {
        id: `call_${step}`,
        type: "function",
        function: { name: "lookup", arguments: JSON.stringify({ q: `s${step}` }) },
      },
    ],
  });
});
try {
  const history = [];
  for (let turn = 0; turn < 12; turn++)
    history.push(
      { role: "user", content: `Earlier ${turn}: ${"context ".repeat(30)}` },
      { role: "assistant", content: `Answer ${turn}.` },
    );
  history.push({ role: "user", content: "Research the new topic." });
  let summaries = 0;
  const result = await generateText({
    model: createOpenAICompatible({ name: "stub", baseURL: stub.baseURL, apiKey: "test" }).chatModel("m"),
    system: "You are a research agent.",
    messages: history,
    tools: {
      lookup: tool({
        description: "Look up",
        inputSchema: jsonSchema({ type: "object", properties: { q: { type: "string" } } }),
        execute: async ({ q }) => `result for ${q}: ${"fact ".repeat(80)}`,
      }),
    },
    stopWhen: stepCountIs(6),
    prepareStep: toPrepareStep({ maxTokens: 1000, summarize: () => `summary ${++summaries}` }),
  });
  const bodies = stub.requests.map((request) => request.body.messages);
  const ok =
    result.text === "Done." &&
    summaries >= 1 &&
    bodies.every((messages) => findToolPairProblems(messages).length === 0) &&
    bodies.some((messages) => JSON.stringify(messages).includes(JSON.stringify(SUMMARY_PREFIX).slice(1, -1)));
  results.push({
    check: "ai@7 generateText with toPrepareStep",
    ok,
    detail: `${stub.requests.length} requests, ${summaries} summaries, ${process.version}`,
  });
} catch (error) {
  results.push({ check: "ai@7 generateText with toPrepareStep", ok: false, detail: String(error?.stack ?? error) });
} finally {
  await stub.close();
}

// ai@7 keeps prepareStep's messages for later steps and hands each step only its own
// response.messages: with usage reported (the stub reports bytes / 4 of what it received), every
// request after the first fits, and once the summary is sent it stays.
{
  const maxTokens = 2_000;
  let calls = 0;
  const usageStub = await startStubModel(() => {
    calls++;
    if (calls === 10) return chatCompletion({ content: "Done." });
    return chatCompletion({
      tool_calls: [
        {
          id: `call_${calls}`,
          type: "function",
          function: { name: "lookup", arguments: JSON.stringify({ q: `s${calls}` }) },
        },
      ],
    });
  });
  try {
    let summaries = 0;
    const history = [];
    for (let turn = 0; turn < 8; turn++)
      history.push(
        { role: "user", content: `Earlier ${turn}: ${"context ".repeat(40)}` },
        { role: "assistant", content: `Answer ${turn}: ${"finding ".repeat(40)}` },
      );
    history.push({ role: "user", content: "Research the new topic." });
    const result = await generateText({
      model: createOpenAICompatible({ name: "stub", baseURL: usageStub.baseURL, apiKey: "test" }).chatModel("m"),
      system: "You are a research agent.",
      messages: history,
      tools: {
        lookup: tool({
          description: "Look up",
          inputSchema: jsonSchema({ type: "object", properties: { q: { type: "string" } } }),
          execute: async ({ q }) => `result for ${q}: ${"fact ".repeat(120)}`,
        }),
      },
      stopWhen: stepCountIs(10),
      prepareStep: toPrepareStep({ maxTokens, summarize: () => `summary ${++summaries}` }),
    });
    const bodies = usageStub.requests.map((request) => request.body.messages);
    const billed = bodies.map((messages) => Math.ceil(Buffer.byteLength(JSON.stringify(messages)) / 4));
    const summaryText = JSON.stringify(SUMMARY_PREFIX).slice(1, -1);
    const first = bodies.findIndex((messages) => JSON.stringify(messages).includes(summaryText));
    const over = billed.slice(1).filter((tokens) => tokens > maxTokens).length;
    const lost =
      first === -1
        ? bodies.length
        : bodies.slice(first).filter((messages) => !JSON.stringify(messages).includes(summaryText)).length;
    const ok =
      result.text === "Done." &&
      over === 0 &&
      lost === 0 &&
      summaries >= 1 &&
      summaries <= 3 &&
      bodies.every((messages) => findToolPairProblems(messages).length === 0);
    results.push({
      check: "ai@7 with usage: usage read against the messages it covers",
      ok,
      detail: `${bodies.length} requests of ${billed.join(", ")} billed tokens (budget ${maxTokens}), ${summaries} summaries, ${over} over after the first, ${lost} without the summary after it`,
    });
  } catch (error) {
    results.push({
      check: "ai@7 with usage: usage read against the messages it covers",
      ok: false,
      detail: String(error?.stack ?? error),
    });
  } finally {
    await usageStub.close();
  }
}
console.log(JSON.stringify(results));
