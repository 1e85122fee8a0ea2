// Options are validated once, synchronously; bad events name the bad index.
import { describe, expect, it } from "vitest";
import { compact, compactor, statefulCompactor } from "../src/index.js";
import { planCompaction } from "../src/expert.js";

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
    [
      { maxTokens: 10, summarize, keepTail: -1 },
      RangeError,
      "Expected `keepTail` to be an integer from 0 and up, got `-1` (number)",
    ],
    [
      { maxTokens: 10, summarize, keepTail: 10 },
      RangeError,
      "Expected `keepTail` to be less than `maxTokens` (10), got `10` (number)",
    ],
    [
      { maxTokens: 10, summarize, countTokens: 5 },
      TypeError,
      "Expected `countTokens` to be a function, got `5` (number)",
    ],
    [
      { maxTokens: 10, summarize, summary: { flushToMemory: "yes" } },
      TypeError,
      "Expected `summary.flushToMemory` to be a boolean, got `yes` (string)",
    ],
    [
      { maxTokens: 10, summarize, summary: { role: "assistant" } },
      RangeError,
      'Expected `summary.role` to be `"auto"`, `"system"` or `"user"`, got `assistant` (string)',
    ],
    [
      { maxTokens: 10, summarize, summary: { timeoutMs: 0 } },
      RangeError,
      "Expected `summary.timeoutMs` to be a positive number of milliseconds up to 2147483647, got `0` (number)",
    ],
    [
      { maxTokens: 10, summarize, summary: { maxTokens: 0 } },
      RangeError,
      "Expected `summary.maxTokens` to be a positive integer, got `0` (number)",
    ],
    [
      { maxTokens: 10, summarize, onError: "ignore" },
      RangeError,
      'Expected `onError` to be `"throw"`, `"skip"` or `"fallback"`, got `ignore` (string)',
    ],
    [
      { maxTokens: 10, summarize, events: { onCompacted: true } },
      TypeError,
      "Expected `events.onCompacted` to be a function, got `true` (boolean)",
    ],
    [
      { maxTokens: 10, summarize, events: { warnOverBudget: 1 } },
      TypeError,
      "Expected `events.warnOverBudget` to be a boolean, got `1` (number)",
    ],
    [
      { maxTokens: 10, summarize, ladder: { maskToolResults: { keepRecent: -2 } } },
      RangeError,
      "Expected `ladder.maskToolResults.keepRecent` to be an integer from 0 and up, got `-2` (number)",
    ],
    [
      { maxTokens: 10, summarize, ladder: { maskToolResults: { minFreedTokens: 1.5 } } },
      RangeError,
      "Expected `ladder.maskToolResults.minFreedTokens` to be an integer from 0 and up, got `1.5` (number)",
    ],
    [
      { maxTokens: 10, summarize, ladder: { maskToolResults: "on" } },
      TypeError,
      "Expected `ladder.maskToolResults` to be a boolean or an object, got `on` (string)",
    ],
    [
      { maxTokens: 10, summarize, ladder: { splitInsideTurn: "no" } },
      TypeError,
      "Expected `ladder.splitInsideTurn` to be a boolean, got `no` (string)",
    ],
    [
      { maxTokens: 10, summarize, ladder: { isBoundary: true } },
      TypeError,
      "Expected `ladder.isBoundary` to be a function, got `true` (boolean)",
    ],
    [
      { maxTokens: 10, summarize, summary: "short" },
      TypeError,
      "Expected `summary` to be an object, got `short` (string)",
    ],
    [{ maxTokens: 10, summarize, ladder: [] }, TypeError, "Expected `ladder` to be an object, got `[]` (array)"],
    [{ maxTokens: 10, summarize, events: null }, TypeError, "Expected `events` to be an object, got `null` (null)"],
    [
      { maxTokens: 10, summarize, summary: { max_tokens: 5 } },
      TypeError,
      "Unknown option `summary.max_tokens`. Did you mean `summary.maxTokens`?",
    ],
    [
      { maxTokens: 10, summarize, ladder: { truncateToolResult: false } },
      TypeError,
      "Unknown option `ladder.truncateToolResult`. Did you mean `ladder.truncateToolResults`?",
    ],
    [
      { maxTokens: 10, summarize, ladder: { maskToolResults: { keep_recent: 1 } } },
      TypeError,
      "Unknown option `ladder.maskToolResults.keep_recent`. Did you mean `ladder.maskToolResults.keepRecent`?",
    ],
    [
      { maxTokens: 10, summarize, events: { onCompacte: () => {} } },
      TypeError,
      "Unknown option `events.onCompacte`. Did you mean `events.onCompacted`?",
    ],
    [
      { maxTokens: 10, summarize, ladder: { minFreedTokens: 5 } },
      TypeError,
      "Unknown option `ladder.minFreedTokens`. Known options: `ladder.maskToolResults`",
    ],
    [
      { maxTokens: 10, summarize, summary: { maxSummaryTokens: 5 } },
      TypeError,
      "Unknown option `summary.maxSummaryTokens`. Known options: `summary.maxTokens`",
    ],
    [
      { maxTokens: 10, summarize, summary: { summaryRole: "user" } },
      TypeError,
      "Unknown option `summary.summaryRole`. Known options: `summary.maxTokens`, `summary.role`",
    ],
    [
      { maxTokens: 10, summarize, ladder: { onCompacted: () => {} } },
      TypeError,
      "Unknown option `ladder.onCompacted`. Known options: `ladder.maskToolResults`",
    ],
    [{ max_tokens: 10, summarize }, TypeError, "Unknown option `max_tokens`. Did you mean `maxTokens`?"],
    [{ maxTokens: 10, summarize, keep_tail: 3 }, TypeError, "Unknown option `keep_tail`. Did you mean `keepTail`?"],
    [
      { maxTokens: 10, summarize, summarise: summarize },
      TypeError,
      "Unknown option `summarise`. Did you mean `summarize`?",
    ],
    [
      { maxTokens: 10, summarize, force: true },
      TypeError,
      "Unknown option `force`: it belongs to a single call, `compact(messages, { force })`, not to `compactor()`.",
    ],
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
        reserveTokens: 10,
        format: "openai-chat",
        onError: "skip",
        signingKey: "key",
        summary: { maxTokens: 20, role: "user", flushToMemory: true, timeoutMs: 1000 },
        ladder: {
          maskToolResults: { keepRecent: 0, placeholder: "gone", minFreedTokens: 5 },
          splitInsideTurn: true,
          truncateToolResults: false,
          isBoundary: () => true,
        },
        events: { onCompacting: () => {}, onCompacted: () => {}, onSkipped: () => {}, warnOverBudget: false },
      }),
    ).not.toThrow();
  });

  // The package was never published before 1.0: an option of a draft layout is an unknown option,
  // and the error lists the known ones of its level.
  it.each([
    ["maxSummaryTokens", 100],
    ["summaryRole", "user"],
    ["timeoutMs", 1000],
    ["maskToolResults", true],
    ["onCompacted", () => {}],
    ["archiveMaxBytes", 1000],
  ])("`%s` at the top level is an unknown option that lists the known ones", (key, value) => {
    const options = { maxTokens: 1000, summarize, [key]: value };
    for (const build of [
      () => compactor(options as never),
      () => planCompaction([], options as never),
      () => statefulCompactor(options as never),
    ]) {
      expect(build).toThrow(TypeError);
      expect(build).toThrow(`Unknown option \`${key}\`. Known options: \`maxTokens\`, \`summarize\``);
    }
  });

  it("`events.onStoreError` is taken by statefulCompactor alone; the others say where it belongs", async () => {
    const options = { maxTokens: 1000, summarize, events: { onStoreError: () => {} } };
    const message =
      "Unknown option `events.onStoreError`: it belongs to `statefulCompactor()` and the adapters built on it, which keep state in a store.";
    for (const build of [() => compactor(options as never), () => planCompaction([], options as never)]) {
      expect(build).toThrow(TypeError);
      expect(build).toThrow(message);
    }
    await expect(compact([], options as never)).rejects.toThrow(message);
    expect(() => statefulCompactor(options)).not.toThrow();
    expect(() => statefulCompactor({ ...options, events: { onStoreError: 1 as never } })).toThrow(
      "Expected `events.onStoreError` to be a function",
    );
  });

  it("the summary limit, the masking threshold and the events take effect from their groups", async () => {
    const tool = (id: string) => [
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id, type: "function", function: { name: "read", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: id, content: "x ".repeat(400) },
    ];
    const messages = [
      { role: "user", content: "go" },
      ...tool("a"),
      ...tool("b"),
      ...tool("c"),
      { role: "user", content: "next" },
    ];
    const limits: number[] = [];
    const strategies: string[] = [];
    const options = {
      maxTokens: 700,
      summarize: (_older: object[], context: { maxSummaryTokens: number }) => {
        limits.push(context.maxSummaryTokens);
        return "s";
      },
      summary: { maxTokens: 40 },
      events: { onCompacted: (event: { strategy: string }) => strategies.push(event.strategy) },
    };
    // Masking frees enough, unless the threshold asks for more than it can free.
    expect(planCompaction(messages, { ...options, ladder: { maskToolResults: { keepRecent: 1 } } }).action).toBe(
      "mask",
    );
    expect(
      planCompaction(messages, { ...options, ladder: { maskToolResults: { keepRecent: 1, minFreedTokens: 699 } } })
        .action,
    ).toBe("summarize");
    await compact(messages, options);
    expect(limits).toHaveLength(1);
    expect(limits[0]).toBeLessThanOrEqual(40);
    expect(strategies).toEqual(["summarize"]);
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
    [
      { messages: [{ role: "user" }, { role: "user" }, 7] },
      "Expected `messages[2]` to be a message object, got `7` (number)",
    ],
    [{ messages: [{ role: 3 }] }, "Expected `messages[0].role` to be a string, got `3` (number)"],
    [
      { messages: Promise.resolve([]) },
      "Expected `messages` to be an array, got `[object Promise]` (object); is an `await` missing where they were made?",
    ],
    [
      {},
      "Expected `messages` to be an array, got `undefined` (undefined); is an `await` missing where they were made?",
    ],
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
