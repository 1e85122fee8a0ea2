// Options are validated once, synchronously; bad events name the bad index.
import { describe, expect, it } from "vitest";
import { compactor, planCompaction } from "../src/index.js";

const summarize = () => "s";

describe("compactor options", () => {
  it.each([
    [{ maxTokens: -1, summarize }, RangeError, "Expected `maxTokens` to be a positive integer, got `-1` (number)"],
    [{ maxTokens: 0, summarize }, RangeError, "Expected `maxTokens` to be a positive integer, got `0` (number)"],
    [{ maxTokens: 1.5, summarize }, RangeError, "Expected `maxTokens` to be a positive integer, got `1.5` (number)"],
    [{ maxTokens: "100", summarize }, TypeError, "Expected `maxTokens` to be a positive integer, got `100` (string)"],
    [{ summarize }, TypeError, "Expected `maxTokens` to be a positive integer, got `undefined` (undefined)"],
    [{ maxTokens: 10 }, TypeError, "Expected `summarize` to be a function, got `undefined` (undefined)"],
    [{ maxTokens: 10, summarize: "x" }, TypeError, "Expected `summarize` to be a function, got `x` (string)"],
    [{ maxTokens: 10, summarize, keepTail: -1 }, RangeError, "Expected `keepTail` to be an integer from 0 and up, got `-1` (number)"],
    [{ maxTokens: 10, summarize, keepTail: 10 }, RangeError, "Expected `keepTail` to be less than `maxTokens` (10), got `10` (number)"],
    [{ maxTokens: 10, summarize, countTokens: 5 }, TypeError, "Expected `countTokens` to be a function, got `5` (number)"],
    [{ maxTokens: 10, summarize, flushToMemory: "yes" }, TypeError, "Expected `flushToMemory` to be a boolean, got `yes` (string)"],
    [{ maxTokens: 10, summarize, summaryRole: "assistant" }, RangeError, 'Expected `summaryRole` to be `"auto"`, `"system"` or `"user"`, got `assistant` (string)'],
    [{ maxTokens: 10, summarize, timeoutMs: 0 }, RangeError, "Expected `timeoutMs` to be a positive number of milliseconds up to 2147483647, got `0` (number)"],
    [{ maxTokens: 10, summarize, onError: "ignore" }, RangeError, 'Expected `onError` to be `"throw"`, `"skip"` or `"fallback"`, got `ignore` (string)'],
    [{ maxTokens: 10, summarize, onCompacted: true }, TypeError, "Expected `onCompacted` to be a function, got `true` (boolean)"],
    [{ maxTokens: 10, summarize, maskToolResults: { keepRecent: -2 } }, RangeError, "Expected `maskToolResults.keepRecent` to be an integer from 0 and up, got `-2` (number)"],
    [{ max_tokens: 10, summarize }, TypeError, "Unknown option `max_tokens`. Did you mean `maxTokens`?"],
    [{ maxTokens: 10, summarize, keep_tail: 3 }, TypeError, "Unknown option `keep_tail`. Did you mean `keepTail`?"],
    [{ maxTokens: 10, summarize, summarise: summarize }, TypeError, "Unknown option `summarise`. Did you mean `summarize`?"],
    [{ maxTokens: 10, summarize, force: true }, TypeError, "Unknown option `force`: it belongs to a single call, `compact(messages, { force })`, not to `compactor()`."],
    [null, TypeError, "Expected `options` to be an object, got `null` (null)"],
  ])("%j", (options, kind, message) => {
    expect(() => compactor(options as never)).toThrow(kind);
    expect(() => compactor(options as never)).toThrow(message);
  });

  it("accepts every documented option", () => {
    expect(() =>
      compactor({
        maxTokens: 100,
        summarize,
        keepTail: 0,
        countTokens: (m) => m.length,
        flushToMemory: true,
        summaryRole: "user",
        isBoundary: () => true,
        timeoutMs: 1000,
        onError: "skip",
        maskToolResults: { keepRecent: 0, placeholder: "gone" },
        splitInsideTurn: true,
        onCompacting: () => {},
        onCompacted: () => {},
        onSkipped: () => {},
      }),
    ).not.toThrow();
  });

  it("planCompaction needs no summarize", () => {
    expect(planCompaction([], { maxTokens: 10 }).action).toBe("none");
  });
});

describe("bad events", () => {
  const hook = compactor({ maxTokens: 10, summarize });
  it.each([
    [{ messages: "x" }, "Expected `messages` to be an array, got `x` (string)"],
    [{ messages: [{ role: "user" }, null] }, "Expected `messages[1]` to be a message object, got `null` (null)"],
    [{ messages: [{ role: "user" }, { role: "user" }, 7] }, "Expected `messages[2]` to be a message object, got `7` (number)"],
    [{ messages: [{ role: 3 }] }, "Expected `messages[0].role` to be a string, got `3` (number)"],
    [{ messages: Promise.resolve([]) }, "Expected `messages` to be an array, got `{}` (object); is an `await` missing where they were made?"],
    [{}, "Expected `messages` to be an array, got `undefined` (undefined); is an `await` missing where they were made?"],
    [null, "Expected the before-LLM event `{ messages }`, got `null` (null)"],
    [{ messages: [], signal: "stop" }, "Expected `event.signal` to be an AbortSignal, got `stop` (string)"],
  ])("%j", async (event, message) => {
    await expect(hook(event as never)).rejects.toThrow(TypeError);
    await expect(hook(event as never)).rejects.toThrow(message);
  });

  it("an empty transcript and a lone system message are valid", async () => {
    expect(await hook({ messages: [] })).toBeNull();
    expect(await hook({ messages: [{ role: "system", content: "x" }] })).toBeNull();
    const tiny = compactor({ maxTokens: 1, summarize });
    expect(await tiny({ messages: [{ role: "system", content: "a long system prompt" }] })).toBeNull();
  });
});
