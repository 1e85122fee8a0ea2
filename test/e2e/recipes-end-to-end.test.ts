// Every integration's recipe as the docs print it (examples/recipes/*.ts, which this suite checks
// against the docs block by block), with the real framework or SDK and an offline stub model, over
// several crossings of the recipe's own budget. For each run: the summarize calls (the stub
// model's summarizer requests: one per call, since the recipes' summarize asks the model once)
// against the crossings; the summarizer's input bounded (see `bounded`); every tool call with its
// result in every request; and the latest summary in the model's last request. AI SDK 7, Mastra
// and pi (`@earendil-works/pi-agent-core`) need Node 22 and run in the Node 22 of runtimes/ (`npm ci
// --prefix runtimes`); with `CI` set, a missing runtime fails instead of skipping.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { SUMMARY_PREFIX, findToolPairProblems } from "../../src/expert.js";
import { crossingsOf } from "../../runtimes/crossings.mjs";
import { chatCompletion, startStubModel } from "../../examples/stub-model.mjs";

/**
 * What registering the model's plugin gives the Genkit recipe (its comment asks for googleAI()):
 * its two model ids, answered offline. The recipe's `genkit()` gets this plugin beside its own.
 */
const genkitModels = vi.hoisted(() => ({ requests: [] as unknown[][], summarizerInputs: [] as number[] }));
vi.mock("genkit", async (importOriginal) => {
  const real = await importOriginal<typeof import("genkit")>();
  const { genkitPlugin } = await import("genkit/plugin");
  const googleAIOffline = genkitPlugin("googleai", (ai) => {
    const supports = { tools: true, multiturn: true, systemRole: true };
    ai.defineModel({ name: "googleai/gemini-2.5-flash-lite", supports }, async (request) => {
      genkitModels.summarizerInputs.push(JSON.stringify(request.messages).length);
      return {
        message: {
          role: "model",
          content: [{ text: `Summary ${genkitModels.summarizerInputs.length}: the researcher looked facts up.` }],
        },
        finishReason: "stop",
      };
    });
    ai.defineModel({ name: "googleai/gemini-2.5-flash", supports }, async (request) => {
      genkitModels.requests.push(structuredClone(request.messages));
      const n = genkitModels.requests.length;
      if (request.messages.at(-1)?.role === "tool")
        return {
          message: { role: "model", content: [{ text: `Answer ${n}: ${"finding ".repeat(7_500)}` }] },
          finishReason: "stop",
        };
      return {
        message: {
          role: "model",
          content: [{ toolRequest: { name: "lookup", ref: `call-${n}`, input: { q: `question ${n}` } } }],
        },
        finishReason: "stop",
      };
    });
  });
  return {
    ...real,
    genkit: (options: Parameters<typeof real.genkit>[0]) =>
      real.genkit({ ...options, plugins: [...(options.plugins ?? []), googleAIOffline] }),
  };
});

const root = new URL("../../", import.meta.url).pathname;
const node22 = join(root, "runtimes", "node_modules", "node22", "bin", "node");
const figures: Record<string, { crossings: number; summarizeCalls: number; largestSummarizerInput: number }> = {};
const prefix = JSON.stringify(SUMMARY_PREFIX).slice(1, -1);

/**
 * The summarizer's input is bounded when it does not grow with the conversation: the largest is
 * at most 1.5 times the first (each reads the older messages of one budget and the summary
 * before), and at most the budget's characters (4 a token) and a quarter more.
 */
function bounded(inputs: readonly number[], budget: number): boolean {
  return inputs.length > 0 && Math.max(...inputs) <= inputs[0]! * 1.5 && Math.max(...inputs) <= budget * 4 * 1.25;
}

/** The checks every run passes, and its figures kept for the table printed at the end. */
function expectRecipe(
  name: string,
  run: { requests: unknown[][]; summarizerInputs: number[]; budget: number; latest: string },
) {
  const { requests, summarizerInputs, budget, latest } = run;
  const crossings = crossingsOf(requests, budget);
  figures[name] = {
    crossings,
    summarizeCalls: summarizerInputs.length,
    largestSummarizerInput: Math.max(0, ...summarizerInputs),
  };
  expect(crossings).toBeGreaterThanOrEqual(3);
  expect(summarizerInputs.length).toBeLessThanOrEqual(crossings + 1);
  expect(bounded(summarizerInputs, budget), `summarizer inputs of ${summarizerInputs.join(", ")} characters`).toBe(
    true,
  );
  for (const request of requests) expect(findToolPairProblems(request as never)).toEqual([]);
  const last = JSON.stringify(requests.at(-1));
  expect(last).toContain(prefix);
  expect(last).toContain(latest);
}

const docs = readdirSync(join(root, "docs", "recipes"))
  .map((file) => readFileSync(join(root, "docs", "recipes", file), "utf8"))
  .join("\n");
const shownInDocs = (file: string) =>
  docs.includes(readFileSync(join(root, "examples", "recipes", file), "utf8").trimEnd());

// Each turn adds about 25,000 tokens: a question of 10,000 and an answer of 15,000.
const question = (turn: number) => `Question ${turn}: ${"context ".repeat(5_000)}`;
const answer = (n: number) => `Answer ${n}: ${"finding ".repeat(7_500)}`;
const turns = 40;

/** A Responses API response (`POST /v1/responses`) carrying `output`. */
function response(model: string, n: number, output: unknown[]) {
  return {
    id: `resp_${n}`,
    object: "response",
    created_at: 1,
    status: "completed",
    model,
    output,
    usage: {
      input_tokens: 1,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 1,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 2,
    },
  };
}

/** A Responses API output message holding `text`. */
function outputText(n: number, text: string) {
  return {
    type: "message",
    id: `msg_${n}`,
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text, annotations: [] }],
  };
}

/**
 * The agent's model on the Responses API: it keeps each request's input in `requests`, calls
 * `lookup` for a question and answers at length once the tool's output is in.
 */
function agentResponse(body: { model: string; input: unknown }, requests: unknown[][]) {
  const input = body.input as { type?: string }[];
  requests.push(input);
  const n = requests.length;
  if (input.at(-1)?.type === "function_call_output") return response(body.model, n, [outputText(n, answer(n))]);
  return response(body.model, n, [
    {
      type: "function_call",
      id: `fc_${n}`,
      call_id: `call_${n}`,
      name: "lookup",
      arguments: JSON.stringify({ q: `question ${n}` }),
      status: "completed",
    },
  ]);
}

afterAll(() => {
  const rows = Object.entries(figures).map(
    ([name, f]) => `| ${name} | ${f.crossings} | ${f.summarizeCalls} | ${f.largestSummarizerInput} |`,
  );
  console.log(
    [
      "| recipe | crossings | summarize calls | largest summarizer input (characters) |",
      "| --- | --- | --- | --- |",
      ...rows,
    ].join("\n"),
  );
});

/** Points the recipe's SDK at the stub through its environment, runs the recipe's turns, and stops the stub. */
async function againstStub(
  stub: { close(): Promise<void> },
  environment: Record<string, string>,
  run: () => Promise<void>,
): Promise<void> {
  Object.assign(process.env, environment);
  try {
    await run();
  } finally {
    await stub.close();
  }
}

describe("the recipes as the docs print them, over several crossings", () => {
  it("the OpenAI SDK chat loop (docs/recipes/openai.md)", async () => {
    expect(shownInDocs("openai-chat-loop.ts")).toBe(true);
    const summarizerInputs: number[] = [];
    const requests: unknown[][] = [];
    const stub = await startStubModel(({ body }) => {
      const message = (content: string) => ({
        id: "chatcmpl-1",
        object: "chat.completion",
        created: 1,
        model: body.model,
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop", logprobs: null }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      });
      if (body.model === "gpt-4.1-mini") {
        summarizerInputs.push(JSON.stringify(body.messages).length);
        return message(`Summary ${summarizerInputs.length}: the user asked questions.`);
      }
      requests.push(body.messages);
      return message(answer(requests.length));
    });
    await againstStub(stub, { OPENAI_API_KEY: "offline", OPENAI_BASE_URL: stub.baseURL }, async () => {
      const { reply } = await import("../../examples/recipes/openai-chat-loop.js");
      for (let turn = 0; turn < turns; turn++) await reply(question(turn));
    });
    expectRecipe("OpenAI SDK chat loop", {
      requests,
      summarizerInputs,
      budget: 100_000,
      latest: `Summary ${summarizerInputs.length}:`,
    });
  });

  it("the Anthropic SDK loop (docs/recipes/anthropic.md)", async () => {
    expect(shownInDocs("anthropic-loop.ts")).toBe(true);
    const summarizerInputs: number[] = [];
    const requests: unknown[][] = [];
    const stub = await startStubModel(({ body }) => {
      const message = (text: string) => ({
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: body.model,
        content: [{ type: "text", text }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      });
      if (body.model === "claude-haiku-4-5") {
        summarizerInputs.push(JSON.stringify(body.messages).length);
        return message(`Summary ${summarizerInputs.length}: the user asked questions.`);
      }
      requests.push(body.messages);
      return message(answer(requests.length));
    });
    await againstStub(
      stub,
      { ANTHROPIC_API_KEY: "offline", ANTHROPIC_BASE_URL: stub.baseURL.replace(/\/v1$/, "") },
      async () => {
        const { reply } = await import("../../examples/recipes/anthropic-loop.js");
        // Its budget is 150,000: more turns for as many crossings.
        for (let turn = 0; turn < 60; turn++) await reply(question(turn));
      },
    );
    expectRecipe("Anthropic SDK loop", {
      requests,
      summarizerInputs,
      budget: 150_000,
      latest: `Summary ${summarizerInputs.length}:`,
    });
  });

  it("the AI SDK 6 agent loop (docs/recipes/ai-sdk.md), its model ids answered by the AI SDK's own mock model", async () => {
    expect(shownInDocs("ai-sdk.ts")).toBe(true);
    const { MockLanguageModelV3 } = await import("ai/test");
    const summarizerInputs: number[] = [];
    const requests: unknown[][] = [];
    const usageOf = (prompt: unknown) => {
      const tokens = Math.ceil(JSON.stringify(prompt).length / 4);
      return {
        inputTokens: { total: tokens, noCache: tokens, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 10, text: 10, reasoning: undefined },
      };
    };
    const summarizer = new MockLanguageModelV3({
      doGenerate: async ({ prompt }) => {
        summarizerInputs.push(JSON.stringify(prompt).length);
        return {
          content: [{ type: "text", text: `Summary ${summarizerInputs.length}: the agent searched.` }],
          finishReason: { unified: "stop", raw: "stop" },
          usage: usageOf(prompt),
          warnings: [],
        };
      },
    });
    // One `research` call of 50 steps: each step answers at length and searches again.
    const agent = new MockLanguageModelV3({
      doGenerate: async ({ prompt }) => {
        requests.push(structuredClone(prompt));
        const n = requests.length;
        if (n === 50)
          return {
            content: [{ type: "text", text: "Done." }],
            finishReason: { unified: "stop", raw: "stop" },
            usage: usageOf(prompt),
            warnings: [],
          };
        return {
          content: [
            { type: "text", text: answer(n) },
            {
              type: "tool-call",
              toolCallId: `call-${n}`,
              toolName: "search",
              input: JSON.stringify({ query: `query ${n}` }),
            },
          ],
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage: usageOf(prompt),
          warnings: [],
        };
      },
    });
    // The AI SDK resolves a model id string through this global when it is set, instead of the AI Gateway.
    const global = globalThis as { AI_SDK_DEFAULT_PROVIDER?: unknown };
    global.AI_SDK_DEFAULT_PROVIDER = {
      specificationVersion: "v3",
      languageModel: (id: string) => (id === "openai/gpt-4.1-mini" ? summarizer : agent),
      embeddingModel: () => undefined,
      imageModel: () => undefined,
    };
    try {
      const { research } = await import("../../examples/recipes/ai-sdk.js");
      expect(await research(question(0))).toBe("Done.");
    } finally {
      delete global.AI_SDK_DEFAULT_PROVIDER;
    }
    expectRecipe("AI SDK 6", {
      requests,
      summarizerInputs,
      budget: 100_000,
      latest: `Summary ${summarizerInputs.length}:`,
    });
  });

  it("the OpenAI Agents SDK (docs/recipes/openai-agents.md), its Responses API on 127.0.0.1", async () => {
    expect(shownInDocs("openai-agents.ts")).toBe(true);
    const summarizerInputs: number[] = [];
    const requests: unknown[][] = [];
    const stub = await startStubModel(({ body }) => {
      if (body.model === "gpt-4.1-mini") {
        summarizerInputs.push(JSON.stringify(body.input).length);
        return response(body.model, requests.length, [
          outputText(requests.length, `Summary ${summarizerInputs.length}: the traveller asked questions.`),
        ]);
      }
      return agentResponse(body, requests);
    });
    // Traces would go to api.openai.com.
    await againstStub(
      stub,
      { OPENAI_API_KEY: "offline", OPENAI_BASE_URL: stub.baseURL, OPENAI_AGENTS_DISABLE_TRACING: "1" },
      async () => {
        const { reply } = await import("../../examples/recipes/openai-agents.js");
        for (let turn = 0; turn < turns; turn++) await reply(question(turn));
      },
    );
    expectRecipe("OpenAI Agents SDK", {
      requests,
      summarizerInputs,
      budget: 100_000,
      latest: `Summary ${summarizerInputs.length}:`,
    });
  });

  it("Genkit (docs/recipes/genkit.md), its model plugin answering offline", async () => {
    expect(shownInDocs("genkit.ts")).toBe(true);
    const { reply } = await import("../../examples/recipes/genkit.js");
    let history: Awaited<ReturnType<typeof reply>> = [];
    for (let turn = 0; turn < turns; turn++) history = await reply("chat-1", history, question(turn));
    const { requests, summarizerInputs } = genkitModels;
    expectRecipe("Genkit", {
      requests,
      summarizerInputs,
      budget: 100_000,
      latest: `Summary ${summarizerInputs.length}:`,
    });
  });

  it("LangChain (docs/recipes/langchain.md), its `openai:` models served by @langchain/openai from 127.0.0.1", async () => {
    expect(shownInDocs("langchain.ts")).toBe(true);
    const summarizerInputs: number[] = [];
    const requests: unknown[][] = [];
    // The summarizer (`initChatModel`) speaks Chat Completions; the agent's model, created by
    // `createAgent` from an `openai:` id, speaks the Responses API (langchain 1.5.14,
    // dist/agents/nodes/AgentNode.js:117 passes `useResponsesApi: true`).
    const stub = await startStubModel(({ path, body }) => {
      if (path.endsWith("/responses")) return agentResponse(body, requests);
      summarizerInputs.push(JSON.stringify(body.messages).length);
      return chatCompletion(
        { content: `Summary ${summarizerInputs.length}: the researcher looked facts up.` },
        body.model,
      );
    });
    // ChatOpenAI takes its key from OPENAI_API_KEY (@langchain/openai 1.2.9,
    // dist/chat_models/base.js:196) and hands its `openai` client no baseURL of its own
    // (base.js:281), so the client reads OPENAI_BASE_URL (openai 6.49.0, client.js:140).
    await againstStub(stub, { OPENAI_API_KEY: "offline", OPENAI_BASE_URL: stub.baseURL }, async () => {
      const { reply } = await import("../../examples/recipes/langchain.js");
      for (let turn = 0; turn < turns; turn++) await reply("thread-1", question(turn));
    });
    expect(
      stub.requests
        .filter((request) => request.path.endsWith("/chat/completions"))
        .every((request) => request.body.model === "gpt-4.1-mini"),
    ).toBe(true);
    expect(
      stub.requests
        .filter((request) => request.path.endsWith("/responses"))
        .every((request) => request.body.model === "gpt-4.1"),
    ).toBe(true);
    expectRecipe("LangChain", {
      requests,
      summarizerInputs,
      budget: 100_000,
      latest: `Summary ${summarizerInputs.length}:`,
    });
  });

  const node22Runs = [
    ["AI SDK 7", "ai7-recipe.mjs", "docs/recipes/ai-sdk.md", "ai-sdk.ts"],
    ["Mastra", "mastra-end-to-end.mjs plain", "docs/recipes/mastra.md", "mastra.ts"],
    [
      "Mastra, Memory at its default window (10 messages)",
      "mastra-end-to-end.mjs memory-default",
      "docs/recipes/mastra.md",
      "mastra.ts",
    ],
    ["Mastra, Memory (lastMessages: 1_000)", "mastra-end-to-end.mjs memory", "docs/recipes/mastra.md", "mastra.ts"],
    ["pi", "pi-end-to-end.mjs", "docs/recipes/pi.md", "pi.ts"],
  ] as const;
  const haveNode22 = existsSync(node22);
  // The scripts check the run themselves (the same checks as above) and print the figures, then the results.
  it.skipIf(!haveNode22 && !process.env["CI"]).each(node22Runs)(
    "%s (runtimes/%s, the recipe of %s), on Node 22",
    (name, command, _page, recipe) => {
      expect(shownInDocs(recipe)).toBe(true);
      if (!haveNode22) throw new Error(`Node 22 is not installed at ${node22}: run npm ci --prefix runtimes`);
      const [script, ...args] = command.split(" ");
      const output = execFileSync(node22, [join(root, "runtimes", script!), ...args], {
        cwd: join(root, "runtimes"),
        encoding: "utf8",
        timeout: 120_000,
      });
      const lines = output.trim().split("\n");
      const results = JSON.parse(lines.at(-1)!) as { check: string; ok: boolean; detail: string }[];
      expect(results.filter((result) => !result.ok)).toEqual([]);
      const run = (JSON.parse(lines.at(-2)!) as { figures: (typeof figures)[string] }).figures;
      figures[name] = {
        crossings: run.crossings,
        summarizeCalls: run.summarizeCalls,
        largestSummarizerInput: run.largestSummarizerInput,
      };
      expect(run.crossings).toBeGreaterThanOrEqual(3);
      expect(run.summarizeCalls).toBeLessThanOrEqual(run.crossings + 1);
    },
  );
});
