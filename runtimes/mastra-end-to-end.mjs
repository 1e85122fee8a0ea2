// Mastra end to end on Node 22 (every @mastra/core 1.x needs Node 22.13 or later): a real `Agent`
// with a real tool and a scripted language model (the AI SDK's model interface, which Mastra
// takes), compacting through `compactionProcessor`. Prints the same result shape as the
// conformance checks.
import { APICallError } from "ai-provider-v2";
import { Agent } from "@mastra/core/agent";
import { RequestContext } from "@mastra/core/request-context";
import { createTool } from "@mastra/core/tools";
import { z } from "zod";
import { compactionProcessor } from "../dist/mastra.js";
import { assert, check, results } from "./checks.mjs";
import { SUMMARY_PREFIX, estimateTokens, findToolPairProblems, memoryStore } from "../dist/index.js";

const maxTokens = 1_200;
const usage = { inputTokens: 100, outputTokens: 10, totalTokens: 110 };

/**
 * A language model that calls `lookup` for each question and answers once the tool has replied,
 * keeping every prompt it receives. `overflowOnce` makes its first call fail as a provider does
 * when the request is too long.
 */
function scriptedModel({ overflowOnce = false } = {}) {
  const prompts = [];
  let overflowed = !overflowOnce;
  const respond = (prompt) => {
    if (!overflowed && prompt.length > 6) {
      overflowed = true;
      throw new APICallError({ message: "This model's maximum context length is 1000 tokens. However, your messages resulted in 1500 tokens.", url: "http://127.0.0.1/v1/chat/completions", requestBodyValues: {}, statusCode: 400, isRetryable: false, responseBody: '{"error":{"code":"context_length_exceeded"}}' });
    }
    prompts.push(structuredClone(prompt));
    const n = prompts.length;
    if (prompt.at(-1).role === "tool") return { content: [{ type: "text", text: `Answer ${n}.` }], finishReason: "stop", usage, warnings: [] };
    return { content: [{ type: "tool-call", toolCallId: `call-${n}`, toolName: "lookup", input: JSON.stringify({ q: `question ${n}` }) }], finishReason: "tool-calls", usage, warnings: [] };
  };
  const model = {
    specificationVersion: "v2",
    provider: "scripted",
    modelId: "scripted-1",
    supportedUrls: {},
    doGenerate: async (options) => respond(options.prompt),
    doStream: async (options) => {
      const { content, finishReason } = respond(options.prompt);
      const parts = [{ type: "stream-start", warnings: [] }];
      for (const part of content) {
        if (part.type === "text") parts.push({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: part.text }, { type: "text-end", id: "t" });
        else parts.push(part);
      }
      parts.push({ type: "finish", finishReason, usage });
      return { stream: new ReadableStream({ start: (controller) => (parts.forEach((part) => controller.enqueue(part)), controller.close()) }) };
    },
  };
  return { model, prompts };
}

const lookup = createTool({ id: "lookup", description: "Look up a fact", inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => `facts about ${q}: ${"fact ".repeat(100)}` });
const question = (turn) => ({ role: "user", content: `Question ${turn}: ${"context ".repeat(30)}` });
const holdsSummary = (prompt) => prompt.some((m) => m.role === "user" && Array.isArray(m.content) && m.content.some((part) => part.type === "text" && part.text.startsWith(SUMMARY_PREFIX)));

function counted(fail = () => false) {
  const counter = { calls: 0 };
  counter.summarize = (older) => {
    if (fail()) throw new Error("summarizer down");
    counter.calls++;
    return `the earlier ${older.length} messages`;
  };
  return counter;
}

/** `turns` turns over a history the caller keeps; `agentFor(turn)` gives the agent of each. */
async function converse(turns, agentFor, counter, prompts) {
  let history = [];
  const summariesBy = [];
  for (let turn = 0; turn < turns; turn++) {
    history.push(question(turn));
    const requestContext = new RequestContext();
    requestContext.set("mastra__threadId", "chat-1");
    const before = prompts.length;
    const result = await agentFor(turn).generate(history, { requestContext });
    for (let index = before; index < prompts.length; index++) summariesBy[index] = counter.calls;
    history = [...history, ...result.response.messages];
  }
  return { history, summariesBy };
}

// The same processor compacts each call (an input processor) and recovers from an overflow (an error processor).
const agent = (model, processor) => new Agent({ id: "researcher", name: "researcher", instructions: "You are a research agent. Look every fact up.", model, tools: { lookup }, inputProcessors: [processor], errorProcessors: [processor] });


await check("Mastra Agent, 14 turns with a tool: summary received, pairs whole, within budget, a summary per crossing", async () => {
  const { model, prompts } = scriptedModel();
  const counter = counted();
  const one = agent(model, compactionProcessor({ maxTokens, summarize: counter.summarize }));
  const { history, summariesBy } = await converse(14, () => one, counter, prompts);
  assert(prompts.length === 28, `${prompts.length} model calls`);
  assert(prompts.some(holdsSummary), "no request held the summary");
  for (const prompt of prompts) {
    assert(findToolPairProblems(prompt).length === 0, "a request with a broken tool pair");
    assert(estimateTokens(prompt) <= maxTokens, `a request of ${estimateTokens(prompt)} tokens`);
    assert(prompt[0].role === "system", "the instructions are not first");
  }
  // A summary only where the budget is crossed: then reused, so never for two calls in a row.
  for (let index = 1; index < prompts.length; index++) {
    const made = summariesBy[index] - summariesBy[index - 1];
    assert(made <= 1 && !(made === 1 && summariesBy[index + 1] !== undefined && summariesBy[index + 1] !== summariesBy[index]), `summaries at calls ${index} and ${index + 1}`);
  }
  assert(counter.calls >= 2, `${counter.calls} summaries`);
  // The thread's own history is Mastra's: every message, no summary among them.
  assert(history.filter((m) => m.role === "user").length === 14 && !history.some((m) => JSON.stringify(m).includes("[Summary of earlier")), "the history was rewritten");
  return `${prompts.length} calls, ${counter.calls} summaries, largest request ${Math.max(...prompts.map(estimateTokens))} tokens`;
});

await check("Mastra: a fresh agent per request over a shared store makes the same summaries", async () => {
  const long = scriptedModel();
  const longCounter = counted();
  const one = agent(long.model, compactionProcessor({ maxTokens, summarize: longCounter.summarize }));
  await converse(14, () => one, longCounter, long.prompts);
  const fresh = scriptedModel();
  const freshCounter = counted();
  const store = memoryStore();
  await converse(14, () => agent(fresh.model, compactionProcessor({ maxTokens, store, summarize: freshCounter.summarize })), freshCounter, fresh.prompts);
  assert(freshCounter.calls === longCounter.calls, `${freshCounter.calls} summaries against ${longCounter.calls}`);
  assert(fresh.prompts.every((prompt) => findToolPairProblems(prompt).length === 0), "a request with a broken tool pair");
  return `${freshCounter.calls} summaries either way, keyed by the thread id in the request context`;
});

await check("Mastra: a failing summarize rejects the call and leaves the history as it was", async () => {
  const { model, prompts } = scriptedModel();
  let fail = false;
  const counter = counted(() => fail);
  const store = memoryStore();
  let history = [];
  let rejected;
  for (let turn = 0; turn < 12 && rejected === undefined; turn++) {
    if (turn === 2) fail = true;
    const next = [...history, question(turn)];
    try {
      const result = await agent(model, compactionProcessor({ maxTokens, store, conversationId: "chat-2", summarize: counter.summarize })).generate(next);
      if (result.error) throw result.error;
      history = [...next, ...result.response.messages];
    } catch (error) {
      rejected = error;
    }
  }
  assert(rejected !== undefined, "no call failed");
  assert(/summar/i.test(String(rejected?.message ?? rejected)), `failed with ${String(rejected?.message ?? rejected)}`);
  assert(!history.some((m) => JSON.stringify(m).includes("[Summary of earlier")), "a summary reached the history");
  return `rejected after ${history.filter((m) => m.role === "user").length} turns, ${prompts.length} model calls; history untouched`;
});

await check("Mastra: a context-overflow rejection is compacted and retried once through processAPIError", async () => {
  const { model, prompts } = scriptedModel({ overflowOnce: true });
  const counter = counted();
  // A budget the estimate never reaches: only the provider's rejection makes it compact.
  const one = agent(model, compactionProcessor({ maxTokens: 100_000, summarize: counter.summarize }));
  let history = [];
  for (let turn = 0; turn < 4; turn++) {
    history.push(question(turn));
    const result = await one.generate(history);
    if (result.error) throw result.error;
    history = [...history, ...result.response.messages];
  }
  const retried = prompts.findIndex(holdsSummary);
  assert(retried !== -1, "the retry held no summary");
  assert(counter.calls === 1, `${counter.calls} summaries`);
  assert(findToolPairProblems(prompts[retried]).length === 0, "the retry broke a tool pair");
  return `retry ${retried + 1} of ${prompts.length} calls compacted from ${estimateTokens(prompts[retried - 1] ?? [])}+ tokens`;
});

console.log(JSON.stringify(results));
