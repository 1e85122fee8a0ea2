import fc from "fast-check";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { SUMMARY_PREFIX } from "../src/expert.js";
import { memoryStore, statefulCompactor, type CompactionStore, type SummaryContext } from "../src/index.js";
import { builders } from "./support/builders.js";

type Message = { role: string; content: string };
const perMessage = (list: readonly unknown[]) => list.length;
const { user, assistant } = builders["openai-chat"];
const u = (n: number | string): Message => user(`u${n}`);
const a = (n: number | string): Message => assistant(`a${n}`);
const system: Message = { role: "system", content: "sys" };
/** A summarizer whose summary names every message it replaced, so a stale one is visible. */
// Echoes what it carries forward (the earlier summary, rolled where the room holds one summary) and then the older messages.
const echo = vi.fn((older: readonly object[], context?: SummaryContext) =>
  [
    ...(context?.previousSummary === undefined ? [] : [context.previousSummary]),
    ...older.map((m) => (m as Message).content.replace(SUMMARY_PREFIX, "")),
  ].join("|"),
);
const options = { maxTokens: 6, keepTail: 2, countTokens: perMessage, summarize: echo };

function conversation(turns: number, tag = ""): Message[] {
  const messages = [system];
  for (let turn = 1; turn <= turns; turn++) messages.push(u(`${tag}${turn}`), a(`${tag}${turn}`));
  return messages;
}

/** Every text of the output that the current input does not hold (a summary may only speak of input messages). */
function foreignTexts(output: readonly Message[], input: readonly Message[]): string[] {
  const known = new Set(input.map((m) => m.content));
  return output
    .flatMap((m) =>
      m.content.startsWith(SUMMARY_PREFIX) ? m.content.slice(SUMMARY_PREFIX.length).split("|") : [m.content],
    )
    .filter((text) => !known.has(text));
}

describe("statefulCompactor", () => {
  it("continues from the stored compaction and summarizes again only when the budget is crossed again", async () => {
    echo.mockClear();
    const compact = statefulCompactor<Message>(options);
    const history = conversation(4);
    const first = (await compact(history))?.messages;
    expect(first).toEqual([system, { role: "system", content: `${SUMMARY_PREFIX}u1|a1|u2|a2|u3|a3` }, u(4), a(4)]);
    // The next request: the whole history again, as copies, plus a new user turn: no summarize.
    const next = [...history.map((m) => ({ ...m })), u(5)];
    const second = (await compact(next))?.messages;
    expect(second).toEqual([system, first![1], u(4), a(4), u(5)]);
    expect(second![2]).toBe(next[7]);
    expect(echo).toHaveBeenCalledTimes(1);
    // Over budget again: the stored summary rolls into the new one.
    const third = (await compact([...next, a(5), u(6)]))?.messages;
    expect(echo).toHaveBeenCalledTimes(2);
    expect(echo.mock.calls[1]![1]!.previousSummary).toBe("u1|a1|u2|a2|u3|a3");
    expect(third).toEqual([
      system,
      { role: "system", content: `${SUMMARY_PREFIX}u1|a1|u2|a2|u3|a3|u4|a4|u5|a5` },
      u(6),
    ]);
  });

  it("resolves what compactor resolves: the messages, and overBudget with its cause when they still do not fit", async () => {
    // The flush reminder takes the one token a summary beside the latest request leaves.
    const tight = { summary: { flushToMemory: true }, events: { warnOverBudget: false } };
    const compact = statefulCompactor<Message>({
      ...options,
      maxTokens: 3,
      keepTail: 1,
      ...tight,
      conversationId: "over",
    });
    const result = await compact([...conversation(2), a("2-more")]);
    expect(result).toMatchObject({ overBudget: true, overBudgetCause: "kept-messages" });
    // The latest request is kept (alone: everything after it is summarized), and still over budget.
    expect(result!.messages.at(-1)).toEqual(u(2));
    const fits = await statefulCompactor<Message>(options)(conversation(4));
    expect(Object.keys(fits!)).toEqual(["messages"]);
  });

  it("resolves null while nothing was compacted and the input fits", async () => {
    expect(await statefulCompactor<Message>(options)(conversation(2))).toBeNull();
  });

  it.each([
    ["an edited early message", (h: Message[]) => h.map((m, i) => (i === 1 ? u("1-edited") : m))],
    ["a deleted message", (h: Message[]) => h.filter((_, i) => i !== 3)],
    [
      "a regenerated reply inside the summarized part",
      (h: Message[]) => h.map((m, i) => (i === 6 ? a("3-regenerated") : m)),
    ],
    ["another conversation under the same key", () => conversation(5, "other-")],
  ])("never applies state after %s", async (_, change) => {
    const compact = statefulCompactor<Message>({ ...options, conversationId: "chat" });
    const history = conversation(4);
    await compact(history);
    const changed = [...change(history), u(9)];
    const output = (await compact(changed))?.messages ?? changed;
    expect(foreignTexts(output, changed)).toEqual([]);
  });

  it("a regenerated last reply that is still in the kept tail keeps the summary", async () => {
    echo.mockClear();
    const compact = statefulCompactor<Message>({ ...options, conversationId: "chat" });
    const history = conversation(4);
    await compact(history);
    const regenerated = [...history.slice(0, -1), a("4-again")];
    expect((await compact(regenerated))?.messages).toEqual([
      system,
      { role: "system", content: `${SUMMARY_PREFIX}u1|a1|u2|a2|u3|a3` },
      u(4),
      a("4-again"),
    ]);
    expect(echo).toHaveBeenCalledTimes(1);
  });

  it("keeps conversations apart by id, and derives one from the first messages", async () => {
    const store = memoryStore();
    const compact = statefulCompactor<Message>({ ...options, store });
    await compact(conversation(4, "x"), { conversationId: "x" });
    await compact(conversation(4, "y"));
    await compact(conversation(4, "z"));
    expect(store.size).toBe(3);
  });

  it("random edits, branches and key collisions never bring text of another transcript", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            turns: fc.integer({ min: 1, max: 8 }),
            tag: fc.constantFrom("a", "b"),
            cut: fc.nat(16),
            edit: fc.option(fc.nat(16), { nil: undefined }),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        async (requests) => {
          const compact = statefulCompactor<Message>({ ...options, conversationId: "shared" });
          for (const { turns, tag, cut, edit } of requests) {
            let input = conversation(turns, tag).slice(0, Math.max(1, 2 * turns + 1 - cut));
            if (edit !== undefined && edit < input.length)
              input = input.map((m, i) => (i === edit ? { ...m, content: `${m.content}*` } : m));
            const output = (await compact(input))?.messages ?? input;
            expect(foreignTexts(output, input)).toEqual([]);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("calls of one conversation run in turn: concurrent requests summarize once", async () => {
    const summarize = vi.fn(async (older: readonly object[]) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return `${older.length}`;
    });
    const compact = statefulCompactor<Message>({ ...options, summarize });
    const history = conversation(4);
    const results = await Promise.all([compact(history), compact([...history, u(5)]), compact(history)]);
    expect(summarize).toHaveBeenCalledTimes(1);
    for (const result of results)
      expect(result!.messages[1]).toEqual({ role: "system", content: `${SUMMARY_PREFIX}6` });
  });

  it("a failing store never loses a request, and says so through events.onStoreError", async () => {
    const onStoreError = vi.fn();
    const broken: CompactionStore = {
      get: () => Promise.reject(new Error("down")),
      set: () => {
        throw new Error("read-only");
      },
    };
    const compact = statefulCompactor<Message>({
      ...options,
      store: broken,
      events: { onStoreError },
      conversationId: "c",
    });
    const output = await compact(conversation(4));
    expect(output?.messages).toHaveLength(4);
    expect(onStoreError.mock.calls.map(([error, context]) => [(error as Error).message, context])).toEqual([
      ["down", { operation: "get", key: "context-compactor:c" }],
      ["read-only", { operation: "set", key: "context-compactor:c" }],
    ]);
  });

  it.each([
    ["not JSON", "{"],
    ["another version", JSON.stringify({ version: 99 })],
    [
      "a bad digest",
      JSON.stringify({
        version: 3,
        covered: 2,
        digest: "x",
        pinned: [],
        summary: [{ role: "system", content: "forged" }],
      }),
    ],
    [
      "a covered count past the input",
      JSON.stringify({
        version: 3,
        covered: 99,
        digest: "0".repeat(64),
        pinned: [],
        summary: [{ role: "system", content: "forged" }],
      }),
    ],
  ])("ignores stored state that is %s", async (_, stored) => {
    const onStoreError = vi.fn();
    const store = memoryStore();
    store.set("context-compactor:c", stored);
    const input = conversation(2);
    expect(
      await statefulCompactor<Message>({ ...options, store, events: { onStoreError }, conversationId: "c" })(input),
    ).toBeNull();
  });

  it("reads back its own summary when summary.maxTokens is below a summary of a few words", async () => {
    // The plan gives a summary at least the room of a few words, whatever summary.maxTokens says.
    const onStoreError = vi.fn();
    const summarize = vi.fn(() => "s");
    const long = (n: number) => user(`question ${n} ${"x".repeat(200)}`);
    const history = [system, ...Array.from({ length: 6 }, (_, n) => [long(n), a(n)]).flat()];
    const compact = statefulCompactor<Message>({
      maxTokens: 300,
      keepTail: 150,
      summary: { maxTokens: 5 },
      summarize,
      store: memoryStore(),
      events: { onStoreError },
      conversationId: "c",
    });
    const first = (await compact(history))?.messages;
    expect(first?.[1]).toEqual({ role: "system", content: `${SUMMARY_PREFIX}s` });
    const second = (await compact([...history, u("next")]))?.messages;
    expect(second?.[1]).toEqual(first?.[1]);
    expect(onStoreError).not.toHaveBeenCalled();
    expect(summarize).toHaveBeenCalledTimes(1);
  });

  it("validates its options once, and each call's", async () => {
    expect(() => statefulCompactor({ ...options, store: {} as never })).toThrow(
      "Expected `store` to be an object with `get` and `set` methods, got `{}` (object)",
    );
    expect(() => statefulCompactor({ ...options, conversationId: "" })).toThrow(RangeError);
    expect(() => statefulCompactor({ ...options, stroe: memoryStore() } as never)).toThrow("Did you mean `store`?");
    expect(() => statefulCompactor({ ...options, events: { onStoreError: 1 as never } })).toThrow(
      "Expected `events.onStoreError` to be a function",
    );
    expect(() => statefulCompactor({ ...options, onStoreError: () => {} } as never)).toThrow(
      "Unknown option `onStoreError`. Known options: `maxTokens`",
    );
    const compact = statefulCompactor(options);
    await expect(compact(conversation(1), { conversationID: "x" } as never)).rejects.toThrow(
      "Did you mean `conversationId`?",
    );
    await expect(compact("x" as never)).rejects.toThrow(TypeError);
  });
});

describe("memoryStore", () => {
  it("drops the least recently used entry past maxEntries", () => {
    const store = memoryStore({ maxEntries: 2 });
    store.set("a", "1");
    store.set("b", "2");
    expect(store.get("a")).toBe("1");
    store.set("c", "3");
    expect([store.get("a"), store.get("b"), store.get("c")]).toEqual(["1", undefined, "3"]);
    expect(store.size).toBe(2);
    // Nothing in the library removes a key: a store needs no `delete`.
    expect("delete" in store).toBe(false);
  });

  it("is bounded in bytes too (UTF-16 code units of keys and values, times two), dropping the least recently used", () => {
    const store = memoryStore({ maxBytes: 1000 });
    // Each entry: a 1-character key and a 199-character value, 400 bytes.
    store.set("a", "1".repeat(199));
    store.set("b", "2".repeat(199));
    expect(store.get("a")).toBe("1".repeat(199));
    store.set("c", "3".repeat(199));
    expect(store.bytes).toBe(800);
    expect([store.get("a") !== undefined, store.get("b") !== undefined, store.get("c") !== undefined]).toEqual([
      true,
      false,
      true,
    ]);
    // Astral characters count as the two code units a JavaScript string holds them in.
    store.set("d", "😀".repeat(100));
    expect(store.bytes).toBeLessThanOrEqual(1000);
  });

  it("keeps about 64 MB by default, whatever the entries hold", () => {
    // Before: 1,000 entries of any size (about 3.7 GB with the archive on); here 40 values of 2 MB each.
    const store = memoryStore();
    const large = "x".repeat(1_000_000);
    for (let index = 0; index < 40; index++) store.set(`context-compactor:chat-${index}:archive`, large);
    expect(store.bytes).toBeLessThanOrEqual(64 * 1024 * 1024);
    expect(store.size).toBe(33);
    expect(store.get("context-compactor:chat-39:archive")).toBe(large);
    expect(store.get("context-compactor:chat-0:archive")).toBeUndefined();
  });

  it("refuses a single value over maxBytes, keeping what it held, and statefulCompactor reports it as a store error", async () => {
    const store = memoryStore({ maxBytes: 1000 });
    store.set("k", "small");
    expect(() => store.set("k", "x".repeat(600))).toThrow(
      new RangeError(
        "Expected a value within the store's `maxBytes` (1000), got one of 1202 bytes with its key: it was not stored",
      ),
    );
    expect(() => store.setIf("k", "x".repeat(600), "small")).toThrow(RangeError);
    expect(store.get("k")).toBe("small");
    const errors: { error: unknown; operation: string }[] = [];
    // Budgets in messages: the state written holds a 600-character summary, over the store's 1,000 bytes.
    const compact = statefulCompactor({
      ...options,
      summarize: () => "s".repeat(600),
      store,
      events: { onStoreError: (error, { operation }) => errors.push({ error, operation }) },
    });
    const output = await compact(conversation(6));
    expect(output).not.toBeNull();
    expect(errors).toEqual([{ error: expect.any(RangeError), operation: "set" }]);
  });

  it("validates maxEntries", () => {
    expect(() => memoryStore({ maxEntries: 0 })).toThrow(
      "Expected `maxEntries` to be a positive integer, got `0` (number)",
    );
    expect(() => memoryStore({ maxEntres: 5 } as never)).toThrow("Did you mean `maxEntries`?");
    expect(() => memoryStore({ maxBytes: 0 })).toThrow(
      "Expected `maxBytes` to be a positive integer, got `0` (number)",
    );
  });
});

describe("store calls are bounded", () => {
  const history = [
    { role: "system", content: "sys" },
    ...Array.from({ length: 6 }, (_, i) => [
      { role: "user", content: `question ${i} ${"x ".repeat(80)}` },
      { role: "assistant", content: `answer ${i}` },
    ]).flat(),
  ];
  const never = () => new Promise<never>(() => {});

  it("a get that never answers is reported after storeTimeoutMs, and the call goes on without state", async () => {
    const errors: unknown[] = [];
    const compact = statefulCompactor({
      maxTokens: 200,
      summarize: () => "s",
      store: { get: never, set: () => {} },
      storeTimeoutMs: 50,
      events: { onStoreError: (error) => errors.push(error) },
    });
    const output = await compact(history);
    expect(output).not.toBeNull();
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).name).toBe("StoreTimeoutError");
    // Given up on at the bound it was given, not at the default one.
    expect((errors[0] as Error).message).toContain("within 50 ms");
    // The next call of the conversation is not queued behind the hung one.
    await expect(compact(history)).resolves.not.toBeNull();
  });

  it("a set that never answers still returns the result", async () => {
    const errors: unknown[] = [];
    const compact = statefulCompactor({
      maxTokens: 200,
      summarize: () => "s",
      store: { get: () => undefined, set: never },
      storeTimeoutMs: 50,
      events: { onStoreError: (error) => errors.push(error) },
    });
    await expect(compact(history)).resolves.not.toBeNull();
    expect(errors.map((error) => (error as Error).name)).toEqual(["StoreTimeoutError"]);
  });

  it("an abort during a hung get rejects at once with ABORTED", async () => {
    const controller = new AbortController();
    const compact = statefulCompactor({
      maxTokens: 200,
      summarize: () => "s",
      store: { get: never, set: () => {} },
      storeTimeoutMs: 60_000,
    });
    setTimeout(() => controller.abort(), 20);
    await expect(compact(history, { signal: controller.signal })).rejects.toMatchObject({ code: "ABORTED" });
  });

  it("validates storeTimeoutMs", () => {
    expect(() => statefulCompactor({ maxTokens: 200, summarize: () => "s", storeTimeoutMs: 0 })).toThrow(RangeError);
    expect(() => statefulCompactor({ maxTokens: 200, summarize: () => "s", storeTimeoutMs: "1" as never })).toThrow(
      "Expected `storeTimeoutMs`",
    );
  });
});

describe("an instance that loses its store keeps its own conversations' state", () => {
  it("continues from its own compaction while the store is down, without summarizing again", async () => {
    const history = [
      { role: "system", content: "sys" },
      ...Array.from({ length: 6 }, (_, i) => [
        { role: "user", content: `question ${i} ${"x ".repeat(80)}` },
        { role: "assistant", content: `answer ${i}` },
      ]).flat(),
    ];
    let down = false;
    const values = new Map<string, string>();
    const store: CompactionStore = {
      get: (key) => (down ? Promise.reject(new Error("ECONNREFUSED")) : values.get(key)),
      set: (key, value) => {
        if (down) throw new Error("ECONNREFUSED");
        values.set(key, value);
      },
    };
    const summarize = vi.fn(() => "s");
    const compact = statefulCompactor({ maxTokens: 200, summarize, store, events: { onStoreError: () => {} } });
    await compact(history);
    expect(summarize).toHaveBeenCalledTimes(1);
    down = true;
    const next = await compact([...history, { role: "user", content: "and now?" }]);
    expect(summarize).toHaveBeenCalledTimes(1);
    expect((next!.messages as { content: string }[])[1]!.content).toBe(`${SUMMARY_PREFIX}s`);
  });
});

describe("one summary per crossing across instances", () => {
  const history = [
    { role: "system", content: "sys" },
    ...Array.from({ length: 6 }, (_, i) => [
      { role: "user", content: `question ${i} ${"x ".repeat(80)}` },
      { role: "assistant", content: `answer ${i}` },
    ]).flat(),
  ];

  /** A promise and the function that settles it. */
  const gate = () => {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    return { opened, open };
  };

  it.each([2, 3, 4])("%i instances that reach the same crossing at once make one summarize call", async (instances) => {
    // The lease holder's summary is finished only once every other instance has been refused the
    // lease, so that the others are known to be waiting for it, however slowly each one gets there.
    const shared = memoryStore();
    const othersWaiting = gate();
    let refused = 0;
    const store: CompactionStore = {
      get: (key) => shared.get(key),
      set: (key, value) => shared.set(key, value),
      acquire: (key, token, ms) => {
        const taken = shared.acquire!(key, token, ms) as boolean;
        if (!taken && ++refused === instances - 1) othersWaiting.open();
        return taken;
      },
      release: (key, token) => shared.release!(key, token),
    };
    const summarize = vi.fn(async () => {
      await othersWaiting.opened;
      return "s";
    });
    // A fresh compactor each: its own queue and cache, as on separate instances; only the store is shared.
    const outputs = await Promise.all(
      Array.from({ length: instances }, () =>
        statefulCompactor({ maxTokens: 200, summarize, store, conversationId: "c" })(history),
      ),
    );
    expect(summarize).toHaveBeenCalledTimes(1);
    for (const output of outputs)
      expect((output!.messages as { content: string }[])[1]!.content).toBe(`${SUMMARY_PREFIX}s`);
    // A store without leases: each instance pays for its own summary. Each summary is finished only
    // once every instance has started one, so that none can have read another's state first.
    const plain = memoryStore();
    const withoutLeases: CompactionStore = { get: (key) => plain.get(key), set: (key, value) => plain.set(key, value) };
    const allSummarizing = gate();
    const unleased = vi.fn(async () => {
      if (unleased.mock.calls.length === instances) allSummarizing.open();
      await allSummarizing.opened;
      return "s";
    });
    await Promise.all(
      Array.from({ length: instances }, () =>
        statefulCompactor({ maxTokens: 200, summarize: unleased, store: withoutLeases, conversationId: "c" })(history),
      ),
    );
    expect(unleased).toHaveBeenCalledTimes(instances);
  });

  it("a lease whose holder never returns expires, and the waiting instance summarizes alone", async () => {
    // The clock is the test's: each attempt at the lease comes 100 ms after the one before (the
    // waiting instance's poll), however long the machine takes between them.
    vi.useFakeTimers({ toFake: ["Date"] });
    onTestFinished(() => void vi.useRealTimers());
    const shared = memoryStore();
    expect(shared.acquire!("context-compactor:c:lease", "crashed", 150)).toBe(true);
    const attempts: { at: number; taken: boolean }[] = [];
    // Milliseconds the fake clock has been moved on since the first attempt.
    let elapsed = 0;
    const store: CompactionStore = {
      get: (key) => shared.get(key),
      set: (key, value) => shared.set(key, value),
      acquire: (key, token, ms) => {
        if (attempts.length > 0) {
          vi.advanceTimersByTime(100);
          elapsed += 100;
        }
        const taken = shared.acquire!(key, token, ms) as boolean;
        attempts.push({ at: elapsed, taken });
        return taken;
      },
      release: (key, token) => shared.release!(key, token),
    };
    const summarize = vi.fn(() => "s");
    const output = await statefulCompactor({
      maxTokens: 200,
      summarize,
      store,
      conversationId: "c",
      summary: { timeoutMs: 150 },
    })(history);
    expect(output).not.toBeNull();
    expect(summarize).toHaveBeenCalledTimes(1);
    // Refused while the crashed holder's 150 ms ran, taken once they were over.
    expect(attempts.map(({ at, taken }) => [at, taken])).toEqual([
      [0, false],
      [100, false],
      [200, true],
    ]);
  });

  it("memoryStore: a lease is released only by its holder, and entries expire after ttlMs", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    onTestFinished(() => void vi.useRealTimers());
    const store = memoryStore({ ttlMs: 30 });
    expect(store.acquire!("k", "a", 1_000)).toBe(true);
    expect(store.acquire!("k", "b", 1_000)).toBe(false);
    store.release!("k", "b");
    expect(store.acquire!("k", "b", 1_000)).toBe(false);
    store.release!("k", "a");
    expect(store.acquire!("k", "b", 1_000)).toBe(true);
    store.set("v", "1");
    vi.advanceTimersByTime(29);
    expect(store.get("v")).toBe("1");
    vi.advanceTimersByTime(1);
    expect(store.get("v")).toBeUndefined();
    expect(() => memoryStore({ ttlMs: 0 })).toThrow(RangeError);
  });
});

describe("the provider's usage kept with the state", () => {
  const turn = (i: number) => [
    { role: "user", content: `question ${i} ${"x ".repeat(60)}` },
    { role: "assistant", content: `answer ${i}` },
  ];
  const history = (turns: number) => [
    { role: "system", content: "sys" },
    ...Array.from({ length: turns }, (_, i) => turn(i)).flat(),
  ];

  it("the first call of the next request is counted from the usage the last request reported", async () => {
    const store = memoryStore();
    const summarize = vi.fn(() => "s");
    const compact = () => statefulCompactor({ maxTokens: 700, summarize, store, conversationId: "c" });
    // A compaction, then a request sent with it that the provider counts at 680 tokens (the tool
    // definitions and its own tokenizer, which the estimate does not see).
    await compact()(history(16));
    expect(summarize).toHaveBeenCalledTimes(1);
    const sent = history(17);
    expect(await compact()(sent, { usage: { inputTokens: 680, messageCount: sent.length } })).not.toBeNull();
    expect(summarize).toHaveBeenCalledTimes(1);
    // The next request's first call reports nothing: two more messages put it over 700 by the
    // kept count, though not by the estimate.
    const next = [...sent, ...turn(17)];
    await compact()(next);
    expect(summarize).toHaveBeenCalledTimes(2);
    // Without the kept usage (another conversation id, the same messages and state), the estimate alone does not compact.
    const control = memoryStore();
    const again = vi.fn(() => "s");
    await statefulCompactor({ maxTokens: 700, summarize: again, store: control, conversationId: "c" })(history(16));
    await statefulCompactor({ maxTokens: 700, summarize: again, store: control, conversationId: "c" })(next);
    expect(again).toHaveBeenCalledTimes(1);
  });

  it("is not used once the messages it was reported for changed", async () => {
    const store = memoryStore();
    const summarize = vi.fn(() => "s");
    const compact = () => statefulCompactor({ maxTokens: 700, summarize, store, conversationId: "c" });
    await compact()(history(16));
    const sent = history(17);
    await compact()(sent, { usage: { inputTokens: 680, messageCount: sent.length } });
    // The last reply regenerated: the kept usage no longer describes these messages.
    const edited = [...sent.slice(0, -1), { role: "assistant", content: "another answer" }, ...turn(17)];
    await compact()(edited);
    expect(summarize).toHaveBeenCalledTimes(1);
  });
});

describe("branches of one conversation", () => {
  const turn = (branch: string, i: number) => [
    { role: "user", content: `${branch} question ${i} ${"x ".repeat(80)}` },
    { role: "assistant", content: `${branch} answer ${i}` },
  ];
  const opening = [
    { role: "system", content: "sys" },
    { role: "user", content: "hello" },
    { role: "assistant", content: "hi" },
  ];
  const branch = (name: string) => [...opening, ...Array.from({ length: 6 }, (_, i) => turn(name, i)).flat()];

  it("switching between two branches 14 times re-summarizes nothing after each branch's first compaction", async () => {
    const summarize = vi.fn((older: object[]) => `summary of ${older.length}`);
    const store = memoryStore();
    const compact = () => statefulCompactor({ maxTokens: 300, summarize, store, conversationId: "c" });
    await compact()(branch("left"));
    await compact()(branch("right"));
    expect(summarize).toHaveBeenCalledTimes(2);
    for (let switches = 0; switches < 14; switches++) {
      const output = await compact()(branch(switches % 2 ? "right" : "left"));
      expect(JSON.stringify(output)).not.toContain(switches % 2 ? "left question" : "right question");
    }
    expect(summarize).toHaveBeenCalledTimes(2);
    // With one branch per key, each switch summarizes again.
    const single = memoryStore();
    summarize.mockClear();
    for (let switches = 0; switches < 6; switches++)
      await statefulCompactor({ maxTokens: 300, summarize, store: single, conversationId: "c", maxBranches: 1 })(
        branch(switches % 2 ? "right" : "left"),
      );
    expect(summarize).toHaveBeenCalledTimes(6);
  });

  it("never overwrites state that covers more of the same conversation", async () => {
    const store = memoryStore();
    const summarize = vi.fn(() => "s");
    const long = [...branch("main"), ...turn("main", 7), ...turn("main", 8)];
    await statefulCompactor({ maxTokens: 300, summarize, store, conversationId: "c" })(long);
    const before = store.get("context-compactor:c");
    // A slow request of the same conversation, from before the last turns, compacts and writes late.
    // It read the store before the other instance wrote, and finds the newer state only when it writes.
    let reads = 0;
    const stale = statefulCompactor({
      maxTokens: 300,
      summarize: () => "stale",
      store: {
        get: (key) => (reads++ === 0 ? undefined : store.get(key)),
        set: (key, value) => store.set(key, value),
        acquire: () => true,
        release: () => {},
      },
      conversationId: "c",
    });
    await stale(long.slice(0, long.length - 4));
    expect(store.get("context-compactor:c")).toBe(before);
  });

  it("a write is a compare-and-set: a branch another instance wrote between the read and the write is kept", async () => {
    const shared = memoryStore();
    const summarize = vi.fn((older: object[]) => `summary of ${older.length}`);
    // The right branch's state, as another instance would write it.
    const other = memoryStore();
    await statefulCompactor({ maxTokens: 300, summarize, store: other, conversationId: "c" })(branch("right"));
    const rightState = other.get("context-compactor:c") as string;
    // The left branch's instance reads an empty store; the right branch's state lands just before it writes.
    let raced = false;
    const racing: CompactionStore = {
      get: (key) => shared.get(key),
      set: (key, value) => shared.set(key, value),
      setIf: (key, value, expected) => {
        if (!raced) {
          raced = true;
          shared.set(key, rightState);
        }
        return shared.setIf(key, value, expected);
      },
    };
    await statefulCompactor({ maxTokens: 300, summarize, store: racing, conversationId: "c" })(branch("left"));
    expect(raced).toBe(true);
    const stored = JSON.parse(shared.get("context-compactor:c") as string) as {
      branches: { summary: { content: string }[] }[];
    };
    // Both branches, each with its own summary: the late write merged what it found, and lost nothing.
    expect(stored.branches).toHaveLength(2);
    const again = vi.fn(() => "again");
    const right = await statefulCompactor({ maxTokens: 300, summarize: again, store: shared, conversationId: "c" })(
      branch("right"),
    );
    expect(again).not.toHaveBeenCalled();
    expect(JSON.stringify(right)).not.toContain("left question");
  });

  it("validates maxBranches", () => {
    expect(() => statefulCompactor({ maxTokens: 300, summarize: () => "s", maxBranches: 0 })).toThrow(RangeError);
  });
});
