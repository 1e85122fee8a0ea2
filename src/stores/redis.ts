import type { CompactionStore } from "./compaction-store.js";
import { optionalMilliseconds } from "../ground/deadline.js";
import { boundedStoreCall } from "./bounded-store-call.js";
import { expectedMessage } from "../ground/describe-value.js";
import { optionalInteger, optionsObject } from "../ground/checks.js";

/** Options of `redisStore`. */
export interface RedisStoreOptions {
  /**
   * Put before every key, so that one database can serve several applications.
   * @default ""
   */
  prefix?: string;
  /**
   * Seconds a conversation's state lives after its last write; none when undefined.
   * @default undefined
   */
  ttlSeconds?: number;
  /**
   * The longest one command may take before it fails (`statefulCompactor`'s `storeTimeoutMs` also bounds it).
   * @default 1000
   */
  timeoutMs?: number;
}

/**
 * The few commands used, as each client spells them. `withdrawn` aborts once the call has been
 * given up on: a client that can withdraw a command it has not sent yet (node-redis, from its
 * offline queue) never runs it.
 */
type Commands = {
  get(key: string, withdrawn: AbortSignal): Promise<unknown>;
  /** `SET`, with the store's `ttlSeconds`. */
  set(key: string, value: string, withdrawn: AbortSignal): Promise<unknown>;
  /** `SET key token NX PX ttlMs`: "OK" when taken. */
  lease(key: string, token: string, ttlMs: number, withdrawn: AbortSignal): Promise<unknown>;
  /** Runs the compare-and-delete script on one key. Never withdrawn: run late, it is still right. */
  release(key: string, token: string): Promise<unknown>;
  /** Runs the compare-and-set script on one key: 1 when it set, 0 when the key held something else; undefined when the client cannot run scripts. */
  setIf(key: string, value: string, expected: string | null, withdrawn: AbortSignal): Promise<unknown> | undefined;
};

/** Deletes a lease only while it still holds this caller's token: the release Redis documents for a single-instance lock. */
const RELEASE_SCRIPT =
  'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end';

/**
 * Sets a key only while it holds the expected value (ARGV[2] "1": while it holds nothing), in one
 * step on the server, so that no write of another instance can fall between the check and the set.
 */
const SET_IF_SCRIPT = `local current = redis.call("get", KEYS[1])
if ARGV[2] == "1" then if current then return 0 end elseif current ~= ARGV[3] then return 0 end
if ARGV[4] == "" then redis.call("set", KEYS[1], ARGV[1]) else redis.call("set", KEYS[1], ARGV[1], "EX", ARGV[4]) end
return 1`;

/** The arguments of the compare-and-set script. */
const setIfArgs = (value: string, expected: string | null, ttl: number | undefined) => [
  value,
  expected === null ? "1" : "0",
  expected ?? "",
  ttl === undefined ? "" : String(ttl),
];

type Loose = Record<string, unknown> & { [name: string]: unknown };
const fn = (client: Loose, name: string) => client[name] as ((...args: unknown[]) => Promise<unknown>) | undefined;

/**
 * The commands of a client, told by its shape: node-redis (`createClient`) has `sendCommand` and
 * `isOpen`; ioredis has `call`; anything else with `get`, `set` and `del` is taken for Upstash's
 * REST client (`set(key, value, { ex })`).
 */
function commandsOf(client: Loose, ttl: number | undefined): Commands {
  const sendCommand = fn(client, "sendCommand");
  if (typeof sendCommand === "function" && "isOpen" in client) {
    // node-redis drops a command from its queue when its `abortSignal` (node-redis 4: `signal`)
    // aborts before the command is written.
    const send = (args: string[], withdrawn?: AbortSignal) =>
      sendCommand.call(
        client,
        args,
        withdrawn === undefined ? undefined : { abortSignal: withdrawn, signal: withdrawn },
      );
    return {
      get: (key, withdrawn) => send(["GET", key], withdrawn),
      set: (key, value, withdrawn) =>
        send(ttl === undefined ? ["SET", key, value] : ["SET", key, value, "EX", String(ttl)], withdrawn),
      lease: (key, token, ttlMs, withdrawn) => send(["SET", key, token, "NX", "PX", String(ttlMs)], withdrawn),
      release: (key, token) => send(["EVAL", RELEASE_SCRIPT, "1", key, token]),
      setIf: (key, value, expected, withdrawn) =>
        send(["EVAL", SET_IF_SCRIPT, "1", key, ...setIfArgs(value, expected, ttl)], withdrawn),
    };
  }
  const call = fn(client, "call");
  if (typeof call === "function") {
    return {
      get: (key) => call.call(client, "GET", key),
      set: (key, value) =>
        ttl === undefined ? call.call(client, "SET", key, value) : call.call(client, "SET", key, value, "EX", ttl),
      lease: (key, token, ttlMs) => call.call(client, "SET", key, token, "NX", "PX", ttlMs),
      release: (key, token) => call.call(client, "EVAL", RELEASE_SCRIPT, 1, key, token),
      setIf: (key, value, expected) =>
        call.call(client, "EVAL", SET_IF_SCRIPT, 1, key, ...setIfArgs(value, expected, ttl)),
    };
  }
  const get = fn(client, "get");
  const set = fn(client, "set");
  // `del` is not called: it tells a Redis client from any other object with `get` and `set` (a `Map`).
  const del = fn(client, "del");
  if (typeof get !== "function" || typeof set !== "function" || typeof del !== "function") {
    throw new TypeError(expectedMessage("client", "a node-redis, ioredis or Upstash Redis client", client));
  }
  return {
    get: (key) => get.call(client, key),
    set: (key, value) => (ttl === undefined ? set.call(client, key, value) : set.call(client, key, value, { ex: ttl })),
    lease: (key, token, ttlMs) => set.call(client, key, token, { nx: true, px: ttlMs }),
    release: (key, token) => {
      const evaluate = fn(client, "eval");
      return typeof evaluate === "function"
        ? evaluate.call(client, RELEASE_SCRIPT, [key], [token])
        : Promise.resolve(0);
    },
    setIf: (key, value, expected) => {
      const evaluate = fn(client, "eval");
      return typeof evaluate === "function"
        ? evaluate.call(client, SET_IF_SCRIPT, [key], setIfArgs(value, expected, ttl))
        : undefined;
    },
  };
}

/**
 * A `CompactionStore` on Redis (or Valkey) through the client you already run: node-redis
 * (`createClient`), ioredis, or Upstash's REST client. No dependency: the client is passed in and
 * read by its shape. Values are the small JSON state of each conversation; `ttlSeconds` expires
 * them, and every command fails after `timeoutMs`
 * rather than wait on a connection that does not answer. A command given up on is withdrawn from
 * node-redis's offline queue, and a lease granted after its `acquire` gave up is given back.
 *
 * @param client - a connected (or lazily connecting) client
 * @param options - `prefix`, `ttlSeconds`, `timeoutMs`
 * @returns the store, for `statefulCompactor({ store })` and the adapters
 * @example
 * ```ts
 * import { createClient } from "redis";
 * import { redisStore } from "context-compactor/redis";
 * const client = createClient({ url: process.env.REDIS_URL });
 * client.on("error", (error) => console.warn("redis:", error.message));
 * void client.connect().catch(() => {});
 * const store = redisStore(client, { ttlSeconds: 7 * 24 * 3600 });
 * ```
 */
export function redisStore(client: object, options: RedisStoreOptions = {}): CompactionStore {
  if (typeof client !== "object" || client === null)
    throw new TypeError(expectedMessage("client", "a node-redis, ioredis or Upstash Redis client", client));
  optionsObject(options, "options", ["prefix", "ttlSeconds", "timeoutMs"]);
  const { prefix = "", ttlSeconds } = options;
  if (typeof prefix !== "string") throw new TypeError(expectedMessage("prefix", "a string", prefix));
  optionalInteger(ttlSeconds, "ttlSeconds", 1, undefined);
  const timeoutMs = optionalMilliseconds(options.timeoutMs, "timeoutMs") ?? 1000;
  const commands = commandsOf(client as Loose, ttlSeconds);
  /** A command bounded by `timeoutMs`, withdrawn when it is given up on. */
  const bounded = async <T>(operation: string, call: (withdrawn: AbortSignal) => Promise<T>): Promise<Awaited<T>> => {
    const withdraw = new AbortController();
    try {
      return await boundedStoreCall(() => call(withdraw.signal), operation, timeoutMs);
    } catch (error) {
      withdraw.abort();
      throw error;
    }
  };
  const store: CompactionStore = {
    ttlMs: ttlSeconds === undefined ? undefined : ttlSeconds * 1000,
    async get(key) {
      const value = await bounded("get", (withdrawn) => commands.get(prefix + key, withdrawn));
      if (value === null || value === undefined) return null;
      // Upstash's client parses JSON values by default: the state is given back as the text it was.
      return typeof value === "string" ? value : JSON.stringify(value);
    },
    async set(key, value) {
      await bounded("set", (withdrawn) => commands.set(prefix + key, value, withdrawn));
    },
    async acquire(key, token, ttlMs) {
      let reply: Promise<unknown> | undefined;
      try {
        return (
          (await bounded(
            "acquire",
            (withdrawn) => (reply = commands.lease(prefix + key, token, Math.max(1, Math.ceil(ttlMs)), withdrawn)),
          )) === "OK"
        );
      } catch (error) {
        // Given up on, the command may still run: already sent, or queued by a client that cannot
        // withdraw it (ioredis's offline queue). The lease it takes then is nobody's, and would
        // hold the conversation's next crossing until it expires: it is given back as soon as it
        // is granted, by its token, so that a lease taken meanwhile by another call stays.
        void reply
          ?.then((answer) => (answer === "OK" ? commands.release(prefix + key, token) : undefined))
          .catch(() => {});
        throw error;
      }
    },
    async release(key, token) {
      await bounded("release", () => commands.release(prefix + key, token));
    },
    async setIf(key, value, expected) {
      const withdraw = new AbortController();
      const swapped = commands.setIf(prefix + key, value, expected, withdraw.signal);
      // A client that cannot run scripts (an Upstash client without `eval`) writes as `set` does.
      if (swapped === undefined) {
        await bounded("set", (withdrawn) => commands.set(prefix + key, value, withdrawn));
        return true;
      }
      try {
        return Number(await bounded("setIf", () => swapped)) === 1;
      } catch (error) {
        withdraw.abort();
        throw error;
      }
    },
  };
  return store;
}
