// Callbacks only over budget, with the documented shapes.
import { describe, expect, it, vi } from "vitest";
import { extractiveSummary, compact, compactor, estimateTokens } from "../src/index.js";
import { firstOf } from "../src/summary-kit.js";
import { planCompaction } from "../src/expert.js";
import { fiveMessages as messages, perMessage } from "./support/five-messages.js";
import { resetOverBudgetWarning } from "../src/hook/over-budget-warning.js";

describe("events", () => {
  it("an ordinary turn calls no callback", async () => {
    const onCompacting = vi.fn();
    const onCompacted = vi.fn();
    const onSkipped = vi.fn();
    const hook = compactor({
      maxTokens: 5,
      summarize: () => "s",
      countTokens: perMessage,
      events: { onCompacting, onCompacted, onSkipped },
    });
    expect(await hook({ messages })).toBeNull();
    expect([onCompacting, onCompacted, onSkipped].map((f) => f.mock.calls.length)).toEqual([0, 0, 0]);
  });

  it("a compaction reports before and after", async () => {
    const order: string[] = [];
    const onCompacting = vi.fn(() => order.push("compacting"));
    const onCompacted = vi.fn(() => order.push("compacted"));
    const hook = compactor({
      maxTokens: 4,
      keepTail: 2,
      countTokens: perMessage,
      summarize: () => {
        order.push("summarize");
        return "s";
      },
      events: { onCompacting, onCompacted },
    });
    await hook({ messages });
    expect(order).toEqual(["compacting", "summarize", "compacted"]);
    expect(onCompacting).toHaveBeenCalledWith({ tokensBefore: 5, older: 2, tail: 2 });
    expect(onCompacted).toHaveBeenCalledWith({
      strategy: "summarize",
      tokensBefore: 5,
      tokensAfter: 4,
      summarized: 2,
      kept: 3,
      durationMs: expect.any(Number),
      overBudget: false,
      // A function named `summarize` (the property's name) made it.
      madeBy: { name: "summarize" },
    });
  });

  it("madeBy names who made the summary: a chain's winner with the failures before it, or the model-free fallback", async () => {
    const made: unknown[] = [];
    const onCompacted = (event: { madeBy?: unknown; failures?: unknown[]; strategy: string }) =>
      made.push({
        strategy: event.strategy,
        madeBy: event.madeBy,
        failed: event.failures?.map((f) => (f as { name: string }).name),
      });
    const providerDown = Object.assign(
      async function providerCompaction(): Promise<string> {
        throw new Error("503 from the provider");
      },
      { madeBy: { provider: "acme", model: "m1" } },
    );
    const ownModel = () => "Own summary.";
    const emptyOne = () => "  ";
    await compactor({
      maxTokens: 4,
      keepTail: 2,
      countTokens: perMessage,
      summarize: firstOf(providerDown, emptyOne, ownModel),
      events: { onCompacted },
    })({ messages });
    await compactor({
      maxTokens: 4,
      keepTail: 2,
      countTokens: perMessage,
      summarize: firstOf(ownModel, providerDown),
      events: { onCompacted },
    })({ messages });
    // The model-free summary needs room in tokens: a transcript of some length, counted by the estimate.
    const long = (text: string) => `${text}: order W${text.length}0 ships from the depot at /srv/${text}. `.repeat(20);
    const longer = [
      messages[0]!,
      ...messages.slice(1).map((message) => ({ ...message, content: long(message.content) })),
    ];
    await compactor({
      maxTokens: Math.floor(estimateTokens(longer) * 0.7),
      summarize: firstOf(providerDown, emptyOne),
      onError: "fallback",
      fallback: extractiveSummary,
      events: { onCompacted },
    })({ messages: longer });
    expect(made).toEqual([
      { strategy: "summarize", madeBy: { name: "ownModel", index: 2 }, failed: ["providerCompaction", "emptyOne"] },
      { strategy: "summarize", madeBy: { name: "ownModel", index: 0 }, failed: undefined },
      { strategy: "fallback", madeBy: { name: "extractiveSummary" }, failed: ["providerCompaction", "emptyOne"] },
    ]);
  });

  it("overBudget says the result is still too large, and why", async () => {
    const onCompacted = vi.fn();
    // The flush reminder takes the one token a summary beside the latest request leaves.
    const hook = compactor({
      maxTokens: 3,
      keepTail: 1,
      countTokens: perMessage,
      summarize: () => "s",
      events: { onCompacted },
      summary: { flushToMemory: true },
    });
    const result = await hook({ messages: [...messages, { role: "assistant", content: "a3" }] });
    expect(result!.messages).toHaveLength(4);
    expect(onCompacted).toHaveBeenCalledWith(
      expect.objectContaining({ tokensAfter: 4, overBudget: true, overBudgetCause: "kept-messages" }),
    );
    // The ladder's last resort keeps the latest request alone, and the result fits.
    const laddered = await compactor({
      maxTokens: 3,
      keepTail: 1,
      countTokens: perMessage,
      summarize: () => "s",
      events: { onCompacted },
    })({ messages: [...messages, { role: "assistant", content: "a3" }] });
    expect(laddered!.messages.map((m) => m.content)).toEqual(["S", "[Summary of earlier conversation]\ns", "u2"]);
    expect(onCompacted).toHaveBeenLastCalledWith(expect.objectContaining({ tokensAfter: 3, overBudget: false }));
  });

  it("the hook's result says overBudget and its cause; the first such call in the process warns once, unless warnOverBudget is false", async () => {
    resetOverBudgetWarning();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      // The flush reminder takes the one token a summary beside the latest request leaves.
      const withReminder = { summary: { flushToMemory: true } };
      const longer = [...messages, { role: "assistant", content: "a3" }];
      const quiet = compactor({
        maxTokens: 3,
        keepTail: 1,
        countTokens: perMessage,
        summarize: () => "s",
        events: { warnOverBudget: false },
        ...withReminder,
      });
      expect(await quiet({ messages: longer })).toMatchObject({ overBudget: true, overBudgetCause: "kept-messages" });
      expect(warn).not.toHaveBeenCalled();
      const hook = compactor({
        maxTokens: 3,
        keepTail: 1,
        countTokens: perMessage,
        summarize: () => "s",
        ...withReminder,
      });
      expect(await hook({ messages: longer })).toMatchObject({ overBudget: true, overBudgetCause: "kept-messages" });
      expect(
        await compact(longer, {
          maxTokens: 3,
          keepTail: 1,
          countTokens: perMessage,
          summarize: () => "s",
          ...withReminder,
        }),
      ).toMatchObject({ overBudget: true });
      // Left as it was, over budget: said too, but only the first time in the process.
      expect(
        await compactor({ maxTokens: 1, summarize: () => "s" })({
          messages: [{ role: "system", content: "a system prompt" }],
        }),
      ).toBeNull();
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0]![0]).toMatch(
        /still over `maxTokens` \(3\).*overBudgetCause: "kept-messages".*warnOverBudget: false/,
      );
      // A result that fits carries neither field.
      const fits = await compactor({ maxTokens: 4, keepTail: 2, countTokens: perMessage, summarize: () => "s" })({
        messages,
      });
      expect(Object.keys(fits!)).toEqual(["messages"]);
    } finally {
      warn.mockRestore();
    }
  });

  it.each([
    [
      "an array",
      messages,
      /^Expected the before-LLM event `\{ messages \}`, got an array \(of 5 items\): call `hook\(\{ messages \}\)`, not `hook\(messages\)`$/,
    ],
    [
      "undefined",
      undefined,
      /^Expected the before-LLM event `\{ messages \}`, got `undefined` \(is an `await` missing where the event was made\?\)$/,
    ],
    ["a string", "hello", /^Expected the before-LLM event `\{ messages \}`, got .*hello.* \(string\)$/],
  ])("a call with %s instead of the event says what it expected", async (_name, event, message) => {
    const hook = compactor({ maxTokens: 5, summarize: () => "s" });
    await expect(hook(event as never)).rejects.toThrow(TypeError);
    await expect(hook(event as never)).rejects.toThrow(message);
  });

  it("tokensAfter with the default estimator equals an estimate of the result", async () => {
    const { estimateTokens } = await import("../src/index.js");
    const onCompacted = vi.fn();
    const big = [
      messages[0]!,
      ...Array.from({ length: 40 }, (_, i) => ({
        role: i % 2 ? "assistant" : "user",
        content: `message ${i} `.repeat(10),
      })),
    ];
    const result = await compactor({ maxTokens: 300, summarize: () => "short", events: { onCompacted } })({
      messages: big,
    });
    expect(onCompacted.mock.calls[0]![0].tokensAfter).toBe(estimateTokens(result!.messages));
    expect(onCompacted.mock.calls[0]![0].tokensBefore).toBe(estimateTokens(big));
  });

  it("nothing to summarize is reported as skipped", async () => {
    const onSkipped = vi.fn();
    const hook = compactor({ maxTokens: 1, summarize: () => "s", events: { onSkipped } });
    expect(await hook({ messages: [{ role: "system", content: "a system prompt" }] })).toBeNull();
    expect(onSkipped).toHaveBeenCalledWith({
      reason: "nothing-to-summarize",
      tokensBefore: expect.any(Number),
      overBudget: true,
      overBudgetCause: "system-prompt",
    });
  });
});

describe("compact and planCompaction", () => {
  it("force compacts under budget, and instructions reach summarize", async () => {
    const summarize = vi.fn(() => "focused");
    const result = await compact(messages, {
      maxTokens: 100,
      keepTail: 2,
      countTokens: perMessage,
      summarize,
      force: true,
      instructions: "focus on u1",
    });
    expect(result!.messages.map((m) => m.content)).toEqual([
      "S",
      "[Summary of earlier conversation]\nfocused",
      "u2",
      "a2",
    ]);
    expect(summarize).toHaveBeenCalledWith(
      [messages[1], messages[2]],
      expect.objectContaining({ instructions: "focus on u1", maxTokens: 100, keepTail: 2, tokensBefore: 5 }),
    );
    expect(await compact(messages, { maxTokens: 100, summarize })).toBeNull();
  });

  it("summarize gets older as a new array of the original objects, once", async () => {
    const summarize = vi.fn((_older: object[]) => "s");
    await compactor({ maxTokens: 4, keepTail: 2, countTokens: perMessage, summarize })({ messages });
    expect(summarize).toHaveBeenCalledTimes(1);
    const older = summarize.mock.calls[0]![0];
    expect(older).not.toBe(messages);
    expect(older[0]).toBe(messages[1]);
  });

  it("a one-argument summarize works", async () => {
    const result = await compactor({
      maxTokens: 4,
      keepTail: 2,
      countTokens: perMessage,
      summarize: (older: object[]) => `${older.length}`,
    })({ messages });
    expect(result!.messages[1]).toEqual({ role: "system", content: "[Summary of earlier conversation]\n2" });
  });

  it("planCompaction is a synchronous dry run", () => {
    const summarize = vi.fn(() => "s");
    const plan = planCompaction(messages, { maxTokens: 4, keepTail: 2, countTokens: perMessage, summarize });
    expect(summarize).not.toHaveBeenCalled();
    expect(plan).toStrictEqual({
      action: "summarize",
      reason: "over-budget",
      tokensBefore: 5,
      head: [messages[0]],
      older: [messages[1], messages[2]],
      tail: [messages[3], messages[4]],
    });
    expect(planCompaction(messages, { maxTokens: 5, countTokens: perMessage })).toStrictEqual({
      action: "none",
      reason: "under-budget",
      tokensBefore: 5,
      head: [],
      older: [],
      tail: [],
    });
    expect(planCompaction(messages, { maxTokens: 5, countTokens: perMessage, force: true }).reason).toBe("forced");
  });
});
