// A store that goes away: a request waits on it once, counts as a call without state would, and
// leaves no lease behind. Counted by the calls the store receives, never by the clock.
import { describe, expect, it, vi } from "vitest";
import { estimateTokens, memoryStore, statefulCompactor, type CompactionStore } from "../src/index.js";
import { redisStore } from "../src/stores/redis.js";

const history = [
  { role: "system", content: "sys" },
  ...Array.from({ length: 6 }, (_, i) => [
    { role: "user", content: `question ${i} ${"x ".repeat(80)}` },
    { role: "assistant", content: `answer ${i}` },
  ]).flat(),
];
const never = () => new Promise<never>(() => {});
const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A store whose every method hangs, as node-redis's offline queue holds commands while Redis is down; each call is counted. */
function hungStore() {
  const calls: string[] = [];
  const hang = (name: string) => () => (calls.push(name), never());
  const store: CompactionStore = {
    get: hang("get"),
    set: hang("set"),
    acquire: hang("acquire"),
    release: hang("release"),
    setIf: hang("setIf"),
  };
  return { store, calls };
}

describe("a request waits on a store that does not answer once", () => {
  it.each([
    ["a conversation without an archive", {}],
    ["a conversation with an archive", { archive: true }],
  ])(
    "%s: after one call waits out storeTimeoutMs, the request reads nothing more and waits for no write",
    async (_, extra) => {
      const { store, calls } = hungStore();
      const errors: Error[] = [];
      const summarize = vi.fn(() => "s");
      const compact = statefulCompactor({
        maxTokens: 200,
        summarize,
        store,
        storeTimeoutMs: 20,
        conversationId: "c",
        ...extra,
        events: { onStoreError: (error) => void errors.push(error as Error) },
      });
      const output = await compact(history);
      // Compacted as a call without state: the summary is made and returned.
      expect(summarize).toHaveBeenCalledTimes(1);
      expect(output).not.toBeNull();
      // The get was made and waited out. The lease and the archive were not asked for, and said so;
      // the state's write was sent, and the request did not wait for it (it never answers).
      expect(calls).toEqual(["get", "set"]);
      expect(errors[0]!.message).toContain("`get` did not answer within 20 ms");
      expect(errors.slice(1).map((error) => error.message)).toContainEqual(
        expect.stringContaining("`acquire` was not made"),
      );
      expect(errors.every((error) => error.name === "StoreTimeoutError")).toBe(true);
      // The next request of the conversation asks the store again.
      await compact(history);
      expect(calls[2]).toBe("get");
    },
  );

  it("a lease held when the store stops answering is given back without waiting for the answer", async () => {
    const shared = memoryStore();
    let down = false;
    const calls: string[] = [];
    const store: CompactionStore = {
      get: (key) => (calls.push("get"), down ? never() : shared.get(key)),
      set: (key, value) => (calls.push("set"), down ? never() : shared.set(key, value)),
      acquire: (key, token, ms) => (calls.push("acquire"), shared.acquire!(key, token, ms)),
      // A compare-and-delete that runs late is still right: sent, though the store may answer it only when it is back.
      release: (key, token) => (calls.push("release"), shared.release!(key, token), down ? never() : undefined),
    };
    // Redis goes away while the summary is made.
    const summarize = vi.fn(() => ((down = true), "s"));
    const output = await statefulCompactor({
      maxTokens: 200,
      summarize,
      store,
      storeTimeoutMs: 20,
      conversationId: "c",
      events: { onStoreError: () => {} },
    })(history);
    expect(output).not.toBeNull();
    // The state read again once the lease was taken; then the write's read waited out its timeout,
    // and the write and the release were sent all the same, and not waited for.
    expect(calls).toEqual(["get", "acquire", "get", "get", "set", "release"]);
    expect(shared.acquire!("context-compactor:c:lease", "next", 1000)).toBe(true);
  });
});

describe("one summary per crossing when the lease changes hands between a read and an ask", () => {
  it("a call that takes the lease after another instance summarized, wrote and released it goes on from that state", async () => {
    const shared = memoryStore();
    // The second instance asks for the lease only once the first has finished with it.
    let firstDone!: () => void;
    const done = new Promise<void>((resolve) => (firstDone = resolve));
    let secondRead!: () => void;
    const read = new Promise<void>((resolve) => (secondRead = resolve));
    const first: CompactionStore = {
      get: (key) => shared.get(key),
      set: (key, value) => shared.set(key, value),
      setIf: (key, value, expected) => shared.setIf!(key, value, expected),
      acquire: (key, token, ms) => shared.acquire!(key, token, ms),
      release: (key, token) => shared.release!(key, token),
    };
    const second: CompactionStore = {
      ...first,
      get: (key) => {
        secondRead();
        return shared.get(key);
      },
      acquire: async (key, token, ms) => {
        await done;
        return shared.acquire!(key, token, ms);
      },
    };
    const summarize = vi.fn(() => "s");
    const compactor = (store: CompactionStore) =>
      statefulCompactor({ maxTokens: 200, summarize, store, conversationId: "c" });
    const later = compactor(second)(history);
    // The first instance reads, summarizes, writes and gives the lease back after the second has read.
    await read;
    const earlier = await compactor(first)(history);
    firstDone();
    expect(await later).toEqual(earlier);
    expect(summarize).toHaveBeenCalledTimes(1);
  });
});

describe("a request whose store does not answer counts as a call without state", () => {
  type Message = Record<string, unknown>;
  /** Turn `t`: a question, a tool round, an answer. */
  const turn = (t: number): Message[] => [
    { role: "user", content: `t${t} question: ${"detail ".repeat(20)}` },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: `call${t}`, type: "function", function: { name: "lookup", arguments: `{"q":"${t}"}` } }],
    },
    { role: "tool", tool_call_id: `call${t}`, content: `result${t}: ${"fact ".repeat(60)}` },
    { role: "assistant", content: `answer${t}` },
  ];
  const request = (t: number): Message[] => [
    { role: "system", content: "sys" },
    ...Array.from({ length: t }, (_, past) => turn(past)).flat(),
    turn(t)[0]!,
  ];

  it("two instances take turns through an outage: a usage reported for a request made with state this call cannot read is not counted by", async () => {
    const shared = memoryStore();
    let down = false;
    const refused = () => Promise.reject(new Error("ECONNREFUSED"));
    // One store object per instance, as each process holds its own client: each keeps its own writes.
    const instance = (): CompactionStore => ({
      get: (key) => (down ? refused() : shared.get(key)),
      set: (key, value) => (down ? refused() : shared.set(key, value)),
      acquire: (key, token, ms) => (down ? refused() : shared.acquire!(key, token, ms)),
      release: (key, token) => (down ? refused() : shared.release!(key, token)),
      setIf: (key, value, expected) => (down ? refused() : shared.setIf!(key, value, expected)),
    });
    const instances = [instance(), instance()];
    const maxTokens = 1_000;
    const over: string[] = [];
    let usage: { inputTokens: number; messageCount: number } | undefined;
    for (let t = 0; t < 24; t++) {
      // Down for turns 12 to 17. Once it is back it holds none of the states written meanwhile,
      // which the request before may have been made with.
      down = t >= 12 && t < 18;
      const messages = request(t);
      const compact = statefulCompactor({
        maxTokens,
        summarize: (older) => `summary of ${older.length} messages`,
        store: instances[t % 2]!,
        conversationId: "c",
        events: { onStoreError: () => {} },
      });
      const result = await compact(messages, usage === undefined ? {} : { usage });
      const sent = result?.messages ?? messages;
      if (result?.overBudget === true || estimateTokens(sent) > maxTokens)
        over.push(`turn ${t}: ${estimateTokens(sent)} tokens`);
      // What the provider counted of the request this turn sent (here, the estimate itself).
      usage = { inputTokens: estimateTokens(sent), messageCount: messages.length };
    }
    expect(over).toEqual([]);
  });
});

/**
 * A node-redis client, as `redisStore` reads it (`sendCommand` and `isOpen`), whose `SET … NX`
 * answers after `lateMs`; with `withdraws`, a command aborted before it answers never runs, as
 * node-redis drops one from its offline queue (a command already written runs all the same).
 */
function lateRedis(lateMs: number, { withdraws }: { withdraws: boolean }) {
  const sent: { args: string[]; aborted: () => boolean }[] = [];
  const keys = new Map<string, string>();
  const client = {
    isOpen: true,
    sendCommand(args: string[], options?: { abortSignal?: AbortSignal }) {
      const signal = options?.abortSignal;
      sent.push({ args, aborted: () => signal?.aborted === true });
      const [command, key] = args;
      if (command === "SET" && args.includes("NX")) {
        return later(lateMs).then(() => {
          if (withdraws && signal?.aborted) throw new Error("AbortError");
          if (keys.has(key!)) return null;
          keys.set(key!, args[2]!);
          return "OK";
        });
      }
      if (command === "EVAL") {
        const [, , , lease, token] = args;
        if (keys.get(lease!) === token) keys.delete(lease!);
        return Promise.resolve(1);
      }
      return Promise.resolve(null);
    },
  };
  return { client, sent, keys };
}

describe("redisStore leaves no lease of a call that gave up", () => {
  it("a SET NX that answers OK after the call gave up is released with its token", async () => {
    const { client, sent, keys } = lateRedis(40, { withdraws: false });
    const store = redisStore(client, { timeoutMs: 10 });
    await expect(Promise.resolve(store.acquire!("k:lease", "token-1", 30_000))).rejects.toMatchObject({
      name: "StoreTimeoutError",
    });
    // The command was on its way (this client does not drop it): once granted, it is given back.
    await vi.waitFor(() => expect(sent.map(({ args }) => args[0])).toEqual(["SET", "EVAL"]));
    expect(sent[1]!.args.slice(-2)).toEqual(["k:lease", "token-1"]);
    expect(keys.has("k:lease")).toBe(false);
  });

  it("a command given up on is withdrawn from node-redis's queue (abortSignal), a release is not", async () => {
    const { client, sent, keys } = lateRedis(40, { withdraws: true });
    const store = redisStore(client, { timeoutMs: 10 });
    await expect(Promise.resolve(store.acquire!("k:lease", "token-1", 30_000))).rejects.toMatchObject({
      name: "StoreTimeoutError",
    });
    expect(sent[0]!.aborted()).toBe(true);
    await later(60);
    expect(keys.has("k:lease")).toBe(false);
    await store.release!("k:lease", "token-1");
    expect(sent.at(-1)!.args[0]).toBe("EVAL");
    expect(sent.at(-1)!.aborted()).toBe(false);
  });
});

describe("attacked: a store that answers late, answers wrong, or throws", () => {
  const maxTokens = 200;
  const fits = (result: { messages: readonly object[]; overBudget?: boolean } | null) => {
    const sent = result?.messages ?? history;
    return result?.overBudget !== true && estimateTokens(sent) <= maxTokens;
  };

  it("late: every call answers after the timeout; the request waits once, and the lease granted late is given back", async () => {
    const shared = memoryStore();
    const calls: string[] = [];
    const late = (name: string, answer: () => unknown) => (calls.push(name), later(60).then(answer));
    const store: CompactionStore = {
      get: (key) => late("get", () => shared.get(key)) as Promise<string | null | undefined>,
      set: (key, value) => late("set", () => shared.set(key, value)),
      acquire: (key, token, ms) => late("acquire", () => shared.acquire!(key, token, ms)) as Promise<boolean>,
      release: (key, token) => late("release", () => shared.release!(key, token)),
    };
    const compact = statefulCompactor({
      maxTokens,
      summarize: () => "s",
      store,
      storeTimeoutMs: 20,
      conversationId: "c",
      events: { onStoreError: () => {} },
    });
    expect(fits(await compact(history))).toBe(true);
    // The get waited out; the lease was not asked for; the write was sent and not waited for.
    expect(calls).toEqual(["get", "set"]);
    // A lease the store grants after its caller gave up is given back once granted.
    const leases = statefulCompactor({
      maxTokens,
      summarize: () => "s",
      store: { ...store, get: (key) => shared.get(key) },
      storeTimeoutMs: 20,
      conversationId: "d",
      events: { onStoreError: () => {} },
    });
    expect(fits(await leases(history))).toBe(true);
    await vi.waitFor(() => expect(calls.filter((name) => name === "release")).toHaveLength(1));
    await later(80);
    expect(shared.acquire!("context-compactor:d:lease", "next", 1000)).toBe(true);
  });

  it.each([
    ["a number", 42],
    ["an object", {}],
    ["an array", []],
    ["text that is not JSON", "garbage"],
    ["a state of an unknown version", '{"version":999}'],
    [
      "a state that claims to cover 10^9 messages",
      '[{"version":3,"covered":1e9,"digest":"x","pinned":[],"summary":[]}]',
    ],
    ["100,000 characters of noise", "x".repeat(100_000)],
  ])("wrong: get answers %s; the request is compacted without state, and it is reported", async (_, value) => {
    const errors: unknown[] = [];
    const store: CompactionStore = {
      get: () => value as string,
      set: () => {},
      acquire: () => "yes" as unknown as boolean,
      release: () => {},
    };
    const result = await statefulCompactor({
      maxTokens,
      summarize: () => "s",
      store,
      conversationId: "c",
      events: { onStoreError: (error) => void errors.push(error) },
    })(history);
    expect(fits(result)).toBe(true);
    expect(errors.length).toBeGreaterThan(0);
  });

  it("wrong: acquire answers something other than true or false; the call still summarizes once and fits", async () => {
    for (const answer of [1, "OK", {}, null, undefined, Number.NaN]) {
      const summarize = vi.fn(() => "s");
      const shared = memoryStore();
      // A falsy answer reads as a lease held by another instance: the call waits for its state up
      // to the lease's length (here 150 ms), then summarizes alone.
      const store: CompactionStore = {
        get: (key) => shared.get(key),
        set: (key, value) => shared.set(key, value),
        acquire: () => answer as unknown as boolean,
        release: () => {},
      };
      const result = await statefulCompactor({
        maxTokens,
        summarize,
        store,
        conversationId: "c",
        summary: { timeoutMs: 150 },
      })(history);
      expect(fits(result)).toBe(true);
      expect(summarize).toHaveBeenCalledTimes(1);
    }
  });

  it("throws: every method throws synchronously; nothing waits, the request fits, and each failure is reported", async () => {
    const calls: string[] = [];
    const boom = (name: string) => () => {
      calls.push(name);
      throw new Error(`${name} exploded`);
    };
    const errors: Error[] = [];
    const store: CompactionStore = {
      get: boom("get"),
      set: boom("set"),
      acquire: boom("acquire"),
      release: boom("release"),
      setIf: boom("setIf"),
    };
    const result = await statefulCompactor({
      maxTokens,
      summarize: () => "s",
      store,
      storeTimeoutMs: 60_000,
      conversationId: "c",
      archive: true,
      events: { onStoreError: (error) => void errors.push(error as Error) },
    })(history);
    expect(fits(result)).toBe(true);
    // A store that fails at once has cost no wait, so no call is skipped: the state's get, the
    // lease, the archive's get, and the state's write (not preceded by a read the store just failed).
    expect(calls).toEqual(["get", "acquire", "get", "set"]);
    expect(errors.map((error) => error.message)).toEqual(
      expect.arrayContaining(["get exploded", "acquire exploded", "set exploded"]),
    );
    expect(errors.some((error) => error.name === "StoreTimeoutError")).toBe(false);
  });
});
