// Mastra end to end on Node 22 (every @mastra/core 1.x needs Node 22.13 or later): a real `Agent`
// with a real tool and a scripted language model (the AI SDK's model interface, which Mastra
// takes), compacting through `toInputProcessor`; and the recipe of docs/recipes/mastra.md as
// written, with and without Memory (`node mastra-end-to-end.mjs plain` or `memory`: one process
// each, since Mastra's model router keeps the provider it made). Prints the same result shape as
// the conformance checks.
import { APICallError } from "ai-provider-v2";
import { Agent } from "@mastra/core/agent";
import { MockMemory } from "@mastra/core/memory";
import { RequestContext } from "@mastra/core/request-context";
import { createTool } from "@mastra/core/tools";
import { z } from "zod";
import { toInputProcessor } from "../dist/mastra.js";
import { assert, check, results } from "./checks.mjs";
import { crossingsOf } from "./crossings.mjs";
import { SUMMARY_PREFIX, findToolPairProblems } from "../dist/expert.js";
import { estimateTokens, memoryStore } from "../dist/index.js";
import { startStubModel } from "../examples/stub-model.mjs";

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
      throw new APICallError({
        message: "This model's maximum context length is 1000 tokens. However, your messages resulted in 1500 tokens.",
        url: "http://127.0.0.1/v1/chat/completions",
        requestBodyValues: {},
        statusCode: 400,
        isRetryable: false,
        responseBody: '{"error":{"code":"context_length_exceeded"}}',
      });
    }
    prompts.push(structuredClone(prompt));
    const n = prompts.length;
    if (prompt.at(-1).role === "tool")
      return { content: [{ type: "text", text: `Answer ${n}.` }], finishReason: "stop", usage, warnings: [] };
    return {
      content: [
        {
          type: "tool-call",
          toolCallId: `call-${n}`,
          toolName: "lookup",
          input: JSON.stringify({ q: `question ${n}` }),
        },
      ],
      finishReason: "tool-calls",
      usage,
      warnings: [],
    };
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
        if (part.type === "text")
          parts.push(
            { type: "text-start", id: "t" },
            { type: "text-delta", id: "t", delta: part.text },
            { type: "text-end", id: "t" },
          );
        else parts.push(part);
      }
      parts.push({ type: "finish", finishReason, usage });
      return {
        stream: new ReadableStream({
          start: (controller) => (parts.forEach((part) => controller.enqueue(part)), controller.close()),
        }),
      };
    },
  };
  return { model, prompts };
}

const lookup = createTool({
  id: "lookup",
  description: "Look up a fact",
  inputSchema: z.object({ q: z.string() }),
  execute: async ({ q }) => `facts about ${q}: ${"fact ".repeat(100)}`,
});
const question = (turn) => ({ role: "user", content: `Question ${turn}: ${"context ".repeat(30)}` });
const holdsSummary = (prompt) =>
  prompt.some(
    (m) =>
      m.role === "user" &&
      Array.isArray(m.content) &&
      m.content.some((part) => part.type === "text" && part.text.startsWith(SUMMARY_PREFIX)),
  );

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
const agent = (model, processor) =>
  new Agent({
    id: "researcher",
    name: "researcher",
    instructions: "You are a research agent. Look every fact up.",
    model,
    tools: { lookup },
    inputProcessors: [processor],
    errorProcessors: [processor],
  });

/**
 * `docs/recipes/mastra.md` as written (`examples/recipes/mastra.ts`, imported as it is: Node 22
 * strips its types), its model router ids answered by an OpenAI Responses API on 127.0.0.1
 * (`OPENAI_BASE_URL`, which Mastra's router reads for `openai/…`). The stub answers the
 * summarizer agent with a numbered summary, and the researcher with a `lookup` call, then, once the
 * tool has replied, with a long answer: each turn adds about 25,000 tokens against the recipe's
 * budget of 100,000. `memory` gives the recipe's agent Mastra's own memory (`MockMemory`, the
 * `MastraMemory` of @mastra/core over its in-memory store) with the window the recipe asks for
 * (`lastMessages` past the thread's length), and sends only the new question.
 */
async function recipeRun({ turns, memory }) {
  let summaries = 0;
  const summarizerInputs = [];
  // The Responses API keeps what it answered (`store` defaults to true), and @ai-sdk/openai sends an
  // earlier answer back as an `item_reference` to it: the context the model reads is the request
  // with each reference resolved, as here.
  const answered = new Map();
  const contexts = [];
  const stub = await startStubModel(({ body }) => {
    const input = (body.input ?? []).map((item) =>
      item.type === "item_reference" ? (answered.get(item.id) ?? item) : item,
    );
    const id = () => `item_${answered.size}`;
    const text = (value) => ({
      type: "message",
      id: id(),
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: value, annotations: [] }],
    });
    const reply = (output) => {
      for (const item of output)
        answered.set(item.id, item.type === "message" ? { role: "assistant", content: item.content } : item);
      return {
        id: `resp_${stub.requests.length}`,
        object: "response",
        created_at: 1,
        status: "completed",
        model: body.model,
        output,
        usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
      };
    };
    if (JSON.stringify(input[0] ?? "").includes("You summarize conversations.")) {
      summarizerInputs.push(JSON.stringify(input).length);
      return reply([text(`Summary ${++summaries}: the researcher looked facts up.`)]);
    }
    contexts.push(input);
    if (input.at(-1)?.type === "function_call_output")
      return reply([text(`Answer ${contexts.length}: ${"finding ".repeat(7_500)}`)]);
    return reply([
      {
        type: "function_call",
        id: id(),
        call_id: `call_${contexts.length}`,
        name: "lookup",
        arguments: JSON.stringify({ q: `question ${contexts.length}` }),
        status: "completed",
      },
    ]);
  });
  // Mastra's router keeps the provider it made for a model id, with its base URL: one process per run.
  process.env.OPENAI_API_KEY = "offline";
  process.env.OPENAI_BASE_URL = stub.baseURL;
  try {
    const { researcher } = await import("../examples/recipes/mastra.ts");
    // `window`: Mastra's own default of 10 messages, or one past the thread's length.
    if (memory)
      researcher.__setMemory(new MockMemory(memory === "default" ? {} : { options: { lastMessages: 1_000 } }));
    let history = [];
    for (let turn = 0; turn < turns; turn++) {
      const ask = { role: "user", content: `Question ${turn}: ${"context ".repeat(5_000)}` };
      if (memory) {
        const result = await researcher.generate([ask], { memory: { thread: "chat-1", resource: "user-1" } });
        if (result.error) throw result.error;
      } else {
        history.push(ask);
        const result = await researcher.generate(history);
        if (result.error) throw result.error;
        history = [...history, ...result.response.messages];
      }
    }
    return { requests: contexts, summaries, summarizerInputs, history };
  } finally {
    await stub.close();
  }
}

const recipeCheck = process.argv[2];
let figures;
if (recipeCheck === "plain" || recipeCheck === "memory" || recipeCheck === "memory-default") {
  const memory = recipeCheck === "plain" ? false : recipeCheck === "memory" ? "long" : "default";
  const named = { long: ", with Memory (lastMessages: 1_000)", default: ", with Memory at its default window" };
  await check(
    `Mastra, the recipe as written${memory ? named[memory] : ""}: a summary per crossing, a bounded summarizer input, pairs whole, the summary received`,
    async () => {
      const { requests, summaries, summarizerInputs, history } = await recipeRun({ turns: 40, memory });
      const budget = 100_000;
      const crossings = crossingsOf(requests, budget);
      figures = { crossings, summarizeCalls: summaries, largestSummarizerInput: Math.max(0, ...summarizerInputs) };
      assert(requests.length === 80, `${requests.length} model calls`);
      assert(crossings >= 3, `${crossings} crossings`);
      assert(summaries <= crossings + 1, `${summaries} summaries for ${crossings} crossings`);
      // The summarizer reads the older messages of one budget and the summary before, never the whole
      // history: its input does not grow with the conversation.
      const largest = figures.largestSummarizerInput;
      assert(
        largest <= budget * 4 * 1.25 && largest <= summarizerInputs[0] * 1.5,
        `summarizer inputs of ${summarizerInputs.join(", ")} characters`,
      );
      for (const request of requests)
        assert(findToolPairProblems(request).length === 0, "a request with a broken tool pair");
      const latest = `Summary ${summaries}:`;
      assert(
        requests.at(-1).some((item) => JSON.stringify(item).includes(latest)) &&
          requests.at(-1).some((item) => JSON.stringify(item).includes(JSON.stringify(SUMMARY_PREFIX).slice(1, -1))),
        `the last request does not hold ${latest}`,
      );
      if (!memory)
        assert(
          history.filter((m) => m.role === "user").length === 40 &&
            !history.some((m) => JSON.stringify(m).includes("[Summary of earlier")),
          "the history was rewritten",
        );
      return `40 turns, ${crossings} crossings, ${summaries} summaries, largest summarizer input ${largest} characters`;
    },
  );
  // For the end-to-end suite, which reads the run's figures from the line before the results (read last by test-runtimes.mjs).
  console.log(JSON.stringify({ figures: figures ?? null }));
  console.log(JSON.stringify(results));
  process.exit(0);
}

await check("Mastra: a fresh agent per request over a shared store makes the same summaries", async () => {
  const long = scriptedModel();
  const longCounter = counted();
  const one = agent(long.model, toInputProcessor({ maxTokens, summarize: longCounter.summarize }));
  await converse(14, () => one, longCounter, long.prompts);
  const fresh = scriptedModel();
  const freshCounter = counted();
  const store = memoryStore();
  await converse(
    14,
    () => agent(fresh.model, toInputProcessor({ maxTokens, store, summarize: freshCounter.summarize })),
    freshCounter,
    fresh.prompts,
  );
  assert(freshCounter.calls === longCounter.calls, `${freshCounter.calls} summaries against ${longCounter.calls}`);
  assert(
    fresh.prompts.every((prompt) => findToolPairProblems(prompt).length === 0),
    "a request with a broken tool pair",
  );
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
      const result = await agent(
        model,
        toInputProcessor({ maxTokens, store, conversationId: "chat-2", summarize: counter.summarize }),
      ).generate(next);
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
  const one = agent(model, toInputProcessor({ maxTokens: 100_000, summarize: counter.summarize }));
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
