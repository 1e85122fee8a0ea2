// Usage as the providers report it: what travels beside the messages, each SDK's own usage shape,
// and what a report shows said through `events.onUsage`.
import type { Usage as AnthropicUsage } from "@anthropic-ai/sdk/resources/messages";
import type { LanguageModelUsage } from "ai";
import fc from "fast-check";
import type { CompletionUsage } from "openai/resources/completions";
import type { ResponseUsage } from "openai/resources/responses/responses";
import type { ConverseResponse, TokenUsage as BedrockTokenUsage } from "@aws-sdk/client-bedrock-runtime";
import type { GenerateContentResponseUsageMetadata } from "@google/genai";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  extractiveSummary,
  compact,
  compactor,
  estimateTokens,
  statefulCompactor,
  type UsageEvent,
} from "../src/index.js";
import { planCompaction } from "../src/expert.js";
import { resetOverBudgetWarning } from "../src/hook/over-budget-warning.js";
import { builders } from "./support/builders.js";
import { deepFreeze, dialects, render, shapeArbitrary, summaryRoleFor } from "./support/transcripts.js";

type Message = Record<string, unknown>;

/** A coding session in Anthropic's format: a request, then rounds of a tool call and its output. */
function session(rounds: number, outputWords = 300): Message[] {
  const { user, toolCall, toolResult, assistant } = builders.anthropic;
  const messages: Message[] = [user("Fix the failing build of the payments service, please.")];
  for (let round = 0; round < rounds; round++) {
    messages.push(toolCall(`t${round}`, "read_file", { path: `src/payments/file${round}.ts` }) as Message);
    messages.push(
      toolResult(`t${round}`, `line ${round}: ${"const total = amount + fee; ".repeat(outputWords / 6)}`) as Message,
    );
    if (round % 4 === 3)
      messages.push(assistant(`Checked file ${round}.`) as Message, user(`Go on with file ${round + 1}.`) as Message);
  }
  return messages;
}

afterEach(() => resetOverBudgetWarning());

describe("what travels beside the messages is a fixed part of every request", () => {
  // The provider's count of a request, in these tests: what travels apart, plus each message as the
  // estimate counts it times the provider's own ratio.
  const providerCount = (fixed: number, ratio: number, messages: readonly unknown[]) =>
    fixed + ratio * estimateTokens(messages);

  // One report cannot tell the messages from what travels beside them: what travels apart is
  // `reserveTokens`, as the caller measured it, or what two reports show (statefulCompactor).
  it("a compacted request is counted with it: 42,000 tokens of system prompt and tools in a window of 50,000", async () => {
    const fixed = 42_000;
    const maxTokens = 50_000;
    const messages = session(60);
    const held = messages.length - 2;
    const usage = { inputTokens: providerCount(fixed, 1, messages.slice(0, held)), messageCount: held };
    const hook = compactor({
      maxTokens,
      reserveTokens: fixed,
      summarize: (older) => `${older.length} messages: read files, found nothing yet`,
      events: { warnOverBudget: false },
    });
    const result = await hook({ messages, usage });
    expect(result).not.toBeNull();
    // What the provider would count for the request sent: within the window, or said to be over it.
    if (result!.overBudget !== true) expect(providerCount(fixed, 1, result!.messages)).toBeLessThanOrEqual(maxTokens);
  });

  it("a request over the window by the provider's count is never reported as fitting, in any format", async () => {
    for (const dialect of dialects) {
      await fc.assert(
        fc.asyncProperty(
          shapeArbitrary({ minTurns: 2, maxTurns: 5, maxRounds: 4 }),
          fc.double({ min: 0.3, max: 1.2, noNaN: true }),
          fc.double({ min: 0, max: 0.8, noNaN: true }),
          fc.double({ min: 0.3, max: 1, noNaN: true }),
          fc.double({ min: 1, max: 2, noNaN: true }),
          async (shape, windowShare, fixedShare, heldShare, ratio) => {
            const messages = deepFreeze(render(shape, dialect));
            const maxTokens = Math.max(20, Math.floor(estimateTokens(messages) * windowShare));
            const fixed = Math.floor(maxTokens * fixedShare);
            // A report holds at least one message: a report of none tells nothing of how the messages count.
            const messageCount = Math.max(1, Math.floor(messages.length * heldShare));
            const usage = {
              inputTokens: Math.ceil(providerCount(fixed, ratio, messages.slice(0, messageCount))),
              messageCount,
            };
            let skippedOver = false;
            const onSkipped = (event: { overBudget?: boolean }) => (skippedOver ||= event.overBudget === true);
            const reserveTokens = Math.min(fixed, maxTokens - 1);
            const hook = compactor({
              maxTokens,
              reserveTokens,
              summary: { role: summaryRoleFor(dialect) },
              summarize: () => "s",
              onError: "skip",
              events: { warnOverBudget: false, onSkipped },
            });
            const result = await hook({ messages, usage });
            const sent = result?.messages ?? messages;
            // A result over the window says so; a request left as it is says so through onSkipped.
            // What the hook wrote (the summary) counts as its bytes / 4: the summarizer's text, which
            // a tokenizer counts by its content, not at the transcript's ratio (test/summary-count.test.ts).
            const written = sent.filter((message) => !messages.includes(message));
            const kept = sent.filter((message) => messages.includes(message));
            if (providerCount(fixed, ratio, kept) + estimateTokens(written) > maxTokens + 1)
              expect(result === null ? skippedOver : result.overBudget).toBe(true);
          },
        ),
        { numRuns: 40 },
      );
    }
  });

  it("two reports of a conversation show statefulCompactor the per-message ratio, and the fixed part is measured with it (a provider that counts the messages at 0.7 of the estimate)", async () => {
    const fixed = 20_000;
    const ratio = 0.7;
    const maxTokens = 40_000;
    const messages = session(80);
    const first = Math.floor(messages.length / 3);
    const second = messages.length - 2;
    const events: UsageEvent[] = [];
    const stateful = statefulCompactor({
      maxTokens,
      conversationId: "c",
      summarize: (older) => `${older.length} messages: read files`,
      events: { warnOverBudget: false, onUsage: (event) => events.push(event) },
    });
    await stateful(messages.slice(0, first + 1), {
      usage: { inputTokens: Math.ceil(providerCount(fixed, ratio, messages.slice(0, first))), messageCount: first },
    });
    const usage = {
      inputTokens: Math.ceil(providerCount(fixed, ratio, messages.slice(0, second))),
      messageCount: second,
    };
    const plan = planCompaction(messages, { maxTokens, usage });
    expect(plan.tokensBefore).toBeGreaterThanOrEqual(usage.inputTokens);
    const result = await stateful(messages, { usage });
    expect(result).not.toBeNull();
    if (result!.overBudget !== true)
      expect(providerCount(fixed, ratio, result!.messages)).toBeLessThanOrEqual(maxTokens);
  });
});

describe("each provider's usage, as its SDK returns it", () => {
  const messages = session(12);
  const held = messages.length - 2;
  const added = estimateTokens(messages.slice(held));
  // A budget far above the figures, so that the plan only counts.
  const tokensBefore = (usage: object) =>
    planCompaction(messages, { maxTokens: 10_000_000, usage: usage as never }).tokensBefore;

  it("Anthropic: input_tokens + cache_creation_input_tokens + cache_read_input_tokens (input_tokens alone is the uncached part)", () => {
    const usage = {
      input_tokens: 9,
      cache_creation_input_tokens: 1_204,
      cache_read_input_tokens: 40_113,
      output_tokens: 310,
      cache_creation: null,
      inference_geo: null,
      output_tokens_details: null,
      server_tool_use: null,
      service_tier: "standard",
      speed: null,
    } satisfies AnthropicUsage;
    expect(tokensBefore({ ...usage, messageCount: held })).toBeGreaterThanOrEqual(9 + 1_204 + 40_113 + added);
    // Caching off: the SDK reports null for both cache fields.
    expect(
      tokensBefore({
        ...usage,
        cache_creation_input_tokens: null,
        cache_read_input_tokens: null,
        input_tokens: 41_326,
        messageCount: held,
      }),
    ).toBeGreaterThanOrEqual(41_326 + added);
  });

  it("Bedrock Converse: inputTokens + cacheReadInputTokens + cacheWriteInputTokens (inputTokens alone is the uncached part)", () => {
    const usage = {
      inputTokens: 26_000,
      outputTokens: 300,
      totalTokens: 64_300,
      cacheReadInputTokens: 30_000,
      cacheWriteInputTokens: 8_000,
    } satisfies BedrockTokenUsage;
    expect(tokensBefore({ ...usage, messageCount: held })).toBeGreaterThanOrEqual(64_000 + added);
    // From the response, as the SDK returns it: a request the provider counted over the budget is said.
    const said: UsageEvent[] = [];
    const response = {
      usage,
      stopReason: "end_turn",
      output: { message: { role: "assistant", content: [{ text: "ok" }] } },
      metrics: { latencyMs: 1 },
    } satisfies Omit<ConverseResponse, "$metadata">;
    return compactor({
      maxTokens: 60_000,
      summarize: () => "s",
      events: { warnOverBudget: false, onUsage: (event) => said.push(event) },
    })({ messages, response }).then(() => {
      expect(said.map((event) => [event.kind, event.inputTokens])).toContainEqual(["over-budget", 64_000]);
    });
  });

  it("Gemini: usageMetadata.promptTokenCount, the cached content inside it", async () => {
    const usageMetadata = {
      promptTokenCount: 41_326,
      cachedContentTokenCount: 40_000,
      candidatesTokenCount: 200,
      totalTokenCount: 41_526,
    } satisfies GenerateContentResponseUsageMetadata;
    expect(tokensBefore({ ...usageMetadata, messageCount: held })).toBeGreaterThanOrEqual(41_326 + added);
    expect(tokensBefore({ ...usageMetadata, messageCount: held })).toBeLessThan(41_326 + 5 * added);
    const said: UsageEvent[] = [];
    await compactor({
      maxTokens: 40_000,
      summarize: () => "s",
      events: { warnOverBudget: false, onUsage: (event) => said.push(event) },
    })({ messages, response: { usageMetadata } });
    expect(said.map((event) => [event.kind, event.inputTokens, event.read])).toContainEqual([
      "over-budget",
      41_326,
      "promptTokenCount",
    ]);
  });

  it("OpenAI Chat Completions: prompt_tokens, the cached part inside it", () => {
    const usage = {
      prompt_tokens: 41_326,
      completion_tokens: 200,
      total_tokens: 41_526,
      prompt_tokens_details: { cached_tokens: 40_000 },
    } satisfies CompletionUsage;
    expect(tokensBefore({ ...usage, messageCount: held })).toBeGreaterThanOrEqual(41_326 + added);
    expect(tokensBefore({ ...usage, messageCount: held })).toBeLessThan(41_326 + 5 * added);
  });

  it("OpenAI Responses: input_tokens, the cached part inside it", () => {
    const usage = {
      input_tokens: 41_326,
      input_tokens_details: { cached_tokens: 40_000, cache_write_tokens: 0 },
      output_tokens: 200,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 41_526,
    } satisfies ResponseUsage;
    expect(tokensBefore({ ...usage, messageCount: held })).toBeGreaterThanOrEqual(41_326 + added);
    expect(tokensBefore({ ...usage, messageCount: held })).toBeLessThan(41_326 + 5 * added);
  });

  it("the AI SDK: inputTokens, the total; its breakdown summed when the total is missing", () => {
    const usage = {
      inputTokens: 41_326,
      inputTokenDetails: { noCacheTokens: 9, cacheReadTokens: 40_113, cacheWriteTokens: 1_204 },
      outputTokens: 200,
      outputTokenDetails: { textTokens: 200, reasoningTokens: 0 },
      totalTokens: 41_526,
    } satisfies LanguageModelUsage;
    expect(tokensBefore({ ...usage, messageCount: held })).toBeGreaterThanOrEqual(41_326 + added);
    expect(tokensBefore({ ...usage, inputTokens: undefined, messageCount: held })).toBeGreaterThanOrEqual(
      41_326 + added,
    );
  });

  it("a report that cannot be counted by is said through onUsage on each call that brings it, and the request is counted by the estimate", async () => {
    const events: UsageEvent[] = [];
    const hook = compactor({
      maxTokens: 10_000_000,
      summarize: () => "s",
      events: { onUsage: (event) => events.push(event) },
    });
    // Anthropic's input_tokens alone, under prompt caching: 9 tokens for a request of thousands.
    await hook({ messages, usage: { inputTokens: 9, messageCount: held } });
    await hook({ messages, usage: { inputTokens: 9, messageCount: held } });
    // The plain hook keeps nothing between calls: the same event is said the same way.
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({ kind: "unusable", inputTokens: 9, messageCount: held });
    expect(events[0]!.reason).toMatch(/under a quarter of the estimate/);
    expect(
      planCompaction(messages, { maxTokens: 10_000_000, usage: { inputTokens: 9, messageCount: held } }).tokensBefore,
    ).toBe(estimateTokens(messages));

    for (const usage of [
      { input_tokens: Number.NaN, cache_read_input_tokens: null, cache_creation_input_tokens: null },
      { prompt_tokens: undefined, completion_tokens: 3 },
      {
        inputTokens: undefined,
        inputTokenDetails: { noCacheTokens: undefined, cacheReadTokens: undefined, cacheWriteTokens: undefined },
        outputTokens: 3,
      },
    ]) {
      const said: UsageEvent[] = [];
      await compact(messages, {
        maxTokens: 10_000_000,
        summarize: () => "s",
        usage: { ...usage, messageCount: held } as never,
        events: { onUsage: (event) => said.push(event) },
      });
      expect(said.map((event) => event.kind)).toEqual(["unusable"]);
    }
  });

  it("without onUsage, an unusable report is said once per process on the console", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const hook = compactor({ maxTokens: 10_000_000, summarize: () => "s" });
      await hook({ messages, usage: { input_tokens: 9, cache_read_input_tokens: Number.NaN, messageCount: held } });
      await hook({ messages, usage: { input_tokens: 9, cache_read_input_tokens: Number.NaN, messageCount: held } });
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toContain("cache_read_input_tokens");
    } finally {
      warn.mockRestore();
    }
  });

  it("statefulCompactor reads the same shapes, and does not keep an unusable report", async () => {
    const events: UsageEvent[] = [];
    const stateful = statefulCompactor({
      maxTokens: 10_000_000,
      summarize: () => "s",
      conversationId: "c",
      events: { onUsage: (event) => events.push(event) },
    });
    await stateful(messages, {
      usage: { input_tokens: 9, cache_creation_input_tokens: 100, cache_read_input_tokens: 40_000, messageCount: held },
    });
    await stateful(messages, { usage: { inputTokens: 3, messageCount: held } });
    await stateful(messages, { usage: { inputTokens: 3, messageCount: held } });
    expect(events.map((event) => event.kind)).toEqual(["calibrated", "unusable"]);
  });
});

describe("what a report shows is said", () => {
  const messages = session(16);
  const held = messages.length - 2;
  const estimate = estimateTokens(messages.slice(0, held));

  it("a report over the estimate by more than 20% is said on the call that brings it (once per conversation by statefulCompactor)", async () => {
    const events: UsageEvent[] = [];
    const hook = compactor({
      maxTokens: 10_000_000,
      summarize: () => "s",
      events: { onUsage: (event) => events.push(event) },
    });
    await hook({ messages, usage: { inputTokens: Math.ceil(estimate * 1.1), messageCount: held } });
    expect(events).toEqual([]);
    for (let call = 0; call < 3; call++)
      await hook({ messages, usage: { inputTokens: Math.ceil(estimate * 1.5) + call, messageCount: held } });
    expect(events).toHaveLength(3);
    const told: UsageEvent[] = [];
    const stateful = statefulCompactor({
      maxTokens: 10_000_000,
      conversationId: "c",
      summarize: () => "s",
      events: { onUsage: (event) => told.push(event) },
    });
    for (let call = 0; call < 3; call++)
      await stateful(messages, { usage: { inputTokens: Math.ceil(estimate * 1.5) + call, messageCount: held } });
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({
      kind: "calibrated",
      inputTokens: Math.ceil(estimate * 1.5),
      estimatedTokens: estimate,
      messageCount: held,
    });
    expect(events[0]).toMatchObject({
      kind: "calibrated",
      inputTokens: Math.ceil(estimate * 1.5),
      estimatedTokens: estimate,
      messageCount: held,
    });
  });

  it("a request the estimate let through that the provider counted over budget is reported on the next call", async () => {
    const maxTokens = estimateTokens(messages) + 50;
    const events: UsageEvent[] = [];
    const hook = compactor({
      maxTokens,
      summarize: (older) => `${older.length} messages`,
      events: { onUsage: (event) => events.push(event), warnOverBudget: false },
    });
    // Under budget by the estimate: sent as it is.
    expect(await hook({ messages })).toBeNull();
    // The provider counted that request over the window (dense output, tools beside it).
    const next = [
      ...messages,
      builders.anthropic.assistant("Done.") as Message,
      builders.anthropic.user("Thanks, and the tests?") as Message,
    ];
    await hook({ messages: next, usage: { inputTokens: maxTokens + 5_000, messageCount: messages.length } });
    expect(events.filter((event) => event.kind === "over-budget")).toEqual([
      expect.objectContaining({ kind: "over-budget", inputTokens: maxTokens + 5_000, maxTokens }),
    ]);
    // The plain hook keeps nothing between calls: the same report brought again is said again.
    await hook({ messages: next, usage: { inputTokens: maxTokens + 5_000, messageCount: messages.length } });
    expect(events.filter((event) => event.kind === "over-budget")).toHaveLength(2);
  });

  it("without onUsage, a request the provider counted over budget is said on the console", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const hook = compactor({ maxTokens: 10_000_000, summarize: () => "s" });
      await hook({ messages, usage: { inputTokens: 10_000_001, messageCount: held } });
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toContain("10000001");
    } finally {
      warn.mockRestore();
    }
  });
});

describe("room for the summary when much travels apart", () => {
  const messages = session(120);

  it("with reserveTokens over half of maxTokens, the summary keeps its share of what is left", async () => {
    const maxTokens = 50_000;
    let limit = 0;
    await compactor({
      maxTokens,
      reserveTokens: 30_000,
      summarize: (_older, context) => ((limit = context.maxSummaryTokens), "s"),
    })({ messages });
    // 20,000 tokens left: the default tail (half) and summary (a quarter) in proportion, a third for the summary.
    expect(limit).toBeGreaterThan(5_000);
  });

  it("with a fixed part of 42,000 in 50,000 shown by usage, the summary still gets hundreds of tokens", async () => {
    const maxTokens = 50_000;
    const held = messages.length - 2;
    const usage = { inputTokens: 42_000 + estimateTokens(messages.slice(0, held)), messageCount: held };
    let limit = 0;
    await compactor({
      maxTokens,
      summarize: (_older, context) => ((limit = context.maxSummaryTokens), "s"),
      events: { warnOverBudget: false },
    })({ messages, usage });
    expect(limit).toBeGreaterThan(300);
  });
});

describe("never a summary limit of a token or two", () => {
  // Little before a long latest request: what the summary must be smaller than leaves it a few tokens.
  const transcript = (dialect: "langchain" | "openai-chat", words: number) => {
    const { user, assistant } = builders[dialect];
    return [user("w ".repeat(words)), assistant("o"), user(`latest ${"word ".repeat(2935)}`)];
  };

  it.each(["langchain", "openai-chat"] as const)(
    "%s with summary.role user at maxTokens 3,711: summarize gets a few words or is not asked, and the fallback is never refused for its limit",
    async (dialect) => {
      for (let words = 0; words < 60; words++) {
        const messages = transcript(dialect, words);
        const limits: number[] = [];
        await compactor({
          maxTokens: 3_711,
          summary: { role: "user" },
          summarize: (_older, context) => (limits.push(context.maxSummaryTokens), "s"),
          onError: "skip",
          events: { warnOverBudget: false },
        })({ messages });
        // "a few words " five times: 15 tokens by the estimate.
        for (const limit of limits) expect(limit, `${words} words`).toBeGreaterThanOrEqual(15);
        const fallback = compactor({
          maxTokens: 3_711,
          summary: { role: "user" },
          onError: "fallback",
          fallback: extractiveSummary,
          summarize: () => {
            throw new Error("the model is down");
          },
          events: { warnOverBudget: false },
        });
        // Never refused for a limit too small to hold a summary.
        const failure = await fallback({ messages }).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect((failure as { code?: string } | undefined)?.code, `${words} words`).not.toBe("INVALID_SUMMARY");
      }
    },
  );
});
