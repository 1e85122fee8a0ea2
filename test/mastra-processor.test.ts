// toInputProcessor's own logic on Node 20, with the arguments Mastra passes (its end-to-end run
// with the real @mastra/core, which needs Node 22, is in `npm run test:runtimes`).
import { describe, expect, it } from "vitest";
import { toInputProcessor } from "../src/adapters/mastra.js";
import { SUMMARY_PREFIX, findToolPairProblems } from "../src/expert.js";
import { estimateTokens, memoryStore } from "../src/index.js";
import { digestMessages } from "../src/stores/digest.js";

type Part = Record<string, unknown>;
type PromptMessage = { role: string; content: string | Part[] };

/** A provider-level prompt (`LanguageModelV2Prompt`) of `turns` turns with a tool round each. */
function prompt(turns: number): PromptMessage[] {
  const messages: PromptMessage[] = [{ role: "system", content: "You are a research agent." }];
  for (let turn = 0; turn < turns; turn++) {
    messages.push(
      { role: "user", content: [{ type: "text", text: `Question ${turn}: ${"context ".repeat(30)}` }] },
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: `call-${turn}`, toolName: "lookup", input: { q: `q${turn}` } }],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: `call-${turn}`,
            toolName: "lookup",
            output: { type: "text", value: "fact ".repeat(100) },
          },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: `Answer ${turn}.` }] },
    );
  }
  return messages;
}

const context = (entries: Record<string, unknown>) => ({ get: (key: string) => entries[key] });

/**
 * The prompt as Mastra's `processLLMRequest` hands it over: every part loaded from the message list
 * stamped `providerOptions.mastra.createdAt` with the time of this `generate()`, the parts of the
 * step just taken (the last `fresh` messages) not yet.
 */
function stampedByMastra(messages: PromptMessage[], createdAt: number, fresh = 0): PromptMessage[] {
  return messages.map((message, index) =>
    message.role === "system" || typeof message.content === "string" || index >= messages.length - fresh
      ? message
      : {
          ...message,
          content: message.content.map((part) => ({
            ...part,
            providerOptions: { ...(part["providerOptions"] as object | undefined), mastra: { createdAt } },
          })),
        },
  );
}

describe("toInputProcessor", () => {
  it("compacts the prompt into Mastra's shape: the summary a user message of one text part, pairs whole", async () => {
    const processor = toInputProcessor({ maxTokens: 1_200, summarize: (older) => `${older.length} earlier messages` });
    const result = await processor.processLLMRequest({ prompt: prompt(8), state: {} });
    const sent = result!.prompt;
    expect(sent[0]).toEqual({ role: "system", content: "You are a research agent." });
    expect(sent[1]).toEqual({
      role: "user",
      content: [
        {
          type: "text",
          text: expect.stringMatching(new RegExp(`^\\${SUMMARY_PREFIX.slice(0, -1)}\\n\\d+ earlier messages`)),
        },
      ],
    });
    expect(findToolPairProblems(sent)).toEqual([]);
    expect(await processor.processLLMRequest({ prompt: prompt(1), state: {} })).toBeUndefined();
  });

  it("reads the last step's response body as the provider's verdict: a stop at the context window compacts the next step", async () => {
    // The arguments as Mastra's loop passes them (`ProcessLLMRequestArgs.steps`, AI SDK `StepResult`s); the body an
    // Anthropic `Message` with the stop and a cache miss (@anthropic-ai/sdk resources/beta/messages).
    const verdicts: unknown[] = [];
    let summarized = 0;
    const processor = toInputProcessor({
      maxTokens: 100_000,
      summarize: () => `summary ${++summarized}`,
      events: { onProviderVerdict: (verdict) => verdicts.push(verdict) },
    });
    const threadContext = context({ mastra__threadId: "t-1" });
    expect(
      await processor.processLLMRequest({ prompt: prompt(3), state: {}, requestContext: threadContext, steps: [] }),
    ).toBeUndefined();
    const body = {
      type: "message",
      role: "assistant",
      content: [],
      stop_reason: "model_context_window_exceeded",
      diagnostics: { cache_miss_reason: { type: "system_changed" } },
      usage: { input_tokens: 5, output_tokens: 1 },
    };
    const result = await processor.processLLMRequest({
      prompt: prompt(3),
      state: {},
      requestContext: threadContext,
      steps: [{ response: { body } }],
    });
    expect(verdicts).toEqual([{ kind: "context-window-exceeded" }, { kind: "cache-miss", reason: "system_changed" }]);
    expect(summarized).toBe(1);
    expect(JSON.stringify(result!.prompt)).toContain("summary 1");
  });

  it("keys the compaction by the memory thread, so two threads of the same opening do not share it", async () => {
    const store = memoryStore();
    let calls = 0;
    const summarize = () => `summary ${++calls}`;
    const processor = toInputProcessor({ maxTokens: 1_200, store, summarize });
    const thread = (id: string) => ({
      prompt: prompt(8),
      state: {},
      requestContext: context({ MastraMemory: { thread: { id } } }),
    });
    await processor.processLLMRequest(thread("a"));
    await processor.processLLMRequest(thread("a"));
    expect(calls).toBe(1);
    await processor.processLLMRequest(thread("b"));
    expect(calls).toBe(2);
    // A caller without memory names the thread in the request context.
    await toInputProcessor({ maxTokens: 1_200, store, summarize }).processLLMRequest({
      prompt: prompt(8),
      state: {},
      requestContext: context({ mastra__threadId: "a" }),
    });
    expect(calls).toBe(2);
  });

  it("reads what the provider receives: Mastra's createdAt, stamped anew on every generate(), changes neither the state's match nor the estimate", async () => {
    const summaries = async (stamp: (messages: PromptMessage[], turn: number, fresh?: number) => PromptMessage[]) => {
      let calls = 0;
      const processor = toInputProcessor({ maxTokens: 1_200, summarize: () => `summary ${++calls}` });
      for (let turn = 1; turn <= 16; turn++) {
        // Two model calls a turn: the question, then the tool's result with the step's fresh parts.
        const asked = prompt(turn).slice(0, -3);
        await processor.processLLMRequest({
          prompt: stamp(asked, turn),
          state: {},
          requestContext: context({ mastra__threadId: "t" }),
        });
        await processor.processLLMRequest({
          prompt: stamp(prompt(turn).slice(0, -1), turn, 2),
          state: {},
          requestContext: context({ mastra__threadId: "t" }),
        });
      }
      return calls;
    };
    const plain = await summaries((messages) => messages);
    expect(plain).toBeGreaterThanOrEqual(3);
    expect(await summaries((messages, turn, fresh) => stampedByMastra(messages, 1_796_000_000_000 + turn, fresh))).toBe(
      plain,
    );
    const sample = prompt(3);
    expect(estimateTokens(stampedByMastra(sample, 1_796_000_000_000))).toBe(estimateTokens(sample));
    expect(await digestMessages(stampedByMastra(sample, 1))).toBe(await digestMessages(stampedByMastra(sample, 2)));
    // Only Mastra's namespace: another provider's options are sent, and a change there is a change.
    const cached = (messages: PromptMessage[]) =>
      messages.map((m) =>
        typeof m.content === "string"
          ? m
          : {
              ...m,
              content: m.content.map((part) => ({
                ...part,
                providerOptions: { anthropic: { cacheControl: { type: "ephemeral" } } },
              })),
            },
      );
    expect(await digestMessages(stampedByMastra(cached(sample), 1))).toBe(await digestMessages(cached(sample)));
    expect(await digestMessages(cached(sample))).not.toBe(await digestMessages(sample));
  });

  it("asks for one retry after a context overflow, and compacts that retry hard", async () => {
    const processor = toInputProcessor({ maxTokens: 1_000_000, summarize: () => "s" });
    const state: Record<string, unknown> = {};
    const overflow = Object.assign(
      new Error("This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens."),
      { statusCode: 400 },
    );
    expect(await processor.processAPIError({ error: new Error("rate limited"), state, retryCount: 0 })).toBeUndefined();
    expect(await processor.processAPIError({ error: overflow, state, retryCount: 1 })).toBeUndefined();
    expect(await processor.processAPIError({ error: overflow, state, retryCount: 0 })).toEqual({ retry: true });
    const retried = await processor.processLLMRequest({ prompt: prompt(8), state });
    expect(JSON.stringify(retried!.prompt)).toContain("[Summary of earlier conversation]");
    // Only the retry: the next call is compacted by the budget again.
    expect(await processor.processLLMRequest({ prompt: prompt(8), state })).toBeUndefined();
  });

  it("compacts the retry with the store's options left out: events.onStoreError and archive", async () => {
    const processor = toInputProcessor({
      maxTokens: 1_000_000,
      summarize: () => "s",
      archive: { maxBytes: 10_000 },
      events: { onStoreError: () => {}, warnOverBudget: false },
    });
    const state: Record<string, unknown> = {};
    const overflow = Object.assign(
      new Error("This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens."),
      { statusCode: 400 },
    );
    expect(await processor.processAPIError({ error: overflow, state, retryCount: 0 })).toEqual({ retry: true });
    const retried = await processor.processLLMRequest({ prompt: prompt(8), state });
    expect(JSON.stringify(retried!.prompt)).toContain("[Summary of earlier conversation]");
  });
});
