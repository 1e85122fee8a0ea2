// redisStore with the clients users run, each against a real redis-server: node-redis, ioredis, and
// Upstash's REST client (through a small REST front on 127.0.0.1 that passes its commands to the server).
import { createServer, type Server } from "node:http";
import { Redis as UpstashRedis } from "@upstash/redis";
import { Redis as IORedis } from "ioredis";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { redisStore } from "../../src/stores/redis.js";
import { SUMMARY_PREFIX } from "../../src/expert.js";
import { statefulCompactor, type CompactionStore } from "../../src/index.js";
import { hasRedisServer, startRedisServer, type RedisServer } from "../support/redis-server.js";

const available = hasRedisServer();
if (!available && process.env["CI"]) throw new Error("redis-server is not installed: .ci/run installs it with apt-get");

const history = [
  { role: "system", content: "sys" },
  ...Array.from({ length: 6 }, (_, i) => [
    { role: "user", content: `question ${i} ${"x ".repeat(80)}` },
    { role: "assistant", content: `answer ${i}` },
  ]).flat(),
];

describe.skipIf(!available)("redisStore", () => {
  let server: RedisServer;
  let nodeRedis: ReturnType<typeof createClient>;
  let ioredis: IORedis;
  let rest: Server;
  let upstash: UpstashRedis;
  beforeAll(async () => {
    server = await startRedisServer();
    nodeRedis = createClient({ url: server.url, disableOfflineQueue: true });
    nodeRedis.on("error", () => {});
    await nodeRedis.connect();
    ioredis = new IORedis(server.url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    await ioredis.connect();
    // The Upstash REST protocol: a POST of one command as a JSON array (or of several to /pipeline),
    // answered with { result } (or an array of them); strings in base64 when the client asks for it.
    rest = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", async () => {
        const base64 = request.headers["upstash-encoding"] === "base64";
        const encode = (value: unknown): unknown =>
          typeof value === "string" && base64
            ? Buffer.from(value).toString("base64")
            : Array.isArray(value)
              ? value.map(encode)
              : value;
        const run = async (command: unknown[]) => {
          try {
            return { result: encode(await nodeRedis.sendCommand(command.map(String))) };
          } catch (error) {
            return { error: (error as Error).message };
          }
        };
        const parsed = JSON.parse(body) as unknown[];
        const answer = Array.isArray(parsed[0])
          ? await Promise.all((parsed as unknown[][]).map(run))
          : await run(parsed);
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolve) => rest.listen(0, "127.0.0.1", resolve));
    const { port } = rest.address() as { port: number };
    upstash = new UpstashRedis({ url: `http://127.0.0.1:${port}`, token: "test", enableTelemetry: false });
  });
  afterAll(async () => {
    await nodeRedis?.close();
    ioredis?.disconnect();
    await new Promise((resolve) => rest?.close(resolve));
    await server?.stop();
  });

  const clients = () => ({ "node-redis": nodeRedis, ioredis, "@upstash/redis": upstash }) as Record<string, object>;

  it.each(["node-redis", "ioredis", "@upstash/redis"])(
    "%s: a second compactor continues from the first one's state, which expires",
    async (name) => {
      const store = redisStore(clients()[name]!, { prefix: `${name}:`, ttlSeconds: 60 });
      const summarize = vi.fn(() => "s");
      await statefulCompactor({ maxTokens: 200, summarize, store, conversationId: "c1" })(history);
      const next = await statefulCompactor({ maxTokens: 200, summarize, store, conversationId: "c1" })([
        ...history,
        { role: "user", content: "and now?" },
      ]);
      expect(summarize).toHaveBeenCalledTimes(1);
      expect((next!.messages as { content: string }[])[1]!.content).toBe(`${SUMMARY_PREFIX}s`);
      const ttl = await nodeRedis.ttl(`${name}:context-compactor:c1`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60);
    },
  );

  it.each(["node-redis", "ioredis", "@upstash/redis"])(
    "%s: four instances at one crossing make one summarize call (SET NX PX lease, compare-and-delete release)",
    async (name) => {
      const redis = redisStore(clients()[name]!, { prefix: `lease-${name}:` });
      // The holder's summary is finished only once the three others have been refused the lease, so
      // that they are known to be waiting for it, however slowly each one gets there.
      let refused = 0;
      let othersWaiting!: () => void;
      const waiting = new Promise<void>((resolve) => (othersWaiting = resolve));
      const store: CompactionStore = {
        ...redis,
        acquire: async (key, token, ms) => {
          const taken = await redis.acquire!(key, token, ms);
          if (!taken && ++refused === 3) othersWaiting();
          return taken;
        },
      };
      const summarize = vi.fn(async () => {
        await waiting;
        return "s";
      });
      const outputs = await Promise.all(
        Array.from({ length: 4 }, () =>
          statefulCompactor({ maxTokens: 200, summarize, store, conversationId: "burst" })(history),
        ),
      );
      expect(summarize).toHaveBeenCalledTimes(1);
      for (const output of outputs)
        expect((output!.messages as { content: string }[])[1]!.content).toBe(`${SUMMARY_PREFIX}s`);
      // The lease was given back.
      expect(await nodeRedis.exists(`lease-${name}:context-compactor:burst:lease`)).toBe(0);
    },
  );

  it.each(["node-redis", "ioredis", "@upstash/redis"])(
    "%s: an id `victim:lease` writes nowhere near the victim's lease, which the victim then takes at once",
    async (name) => {
      const prefix = `inject-${name}:`;
      const store = redisStore(clients()[name]!, { prefix, ttlSeconds: 60 });
      await statefulCompactor({ maxTokens: 200, summarize: () => "hostile", store, conversationId: "victim:lease" })(
        history,
      );
      expect(await nodeRedis.exists(`${prefix}context-compactor:victim:lease`)).toBe(0);
      expect(await nodeRedis.exists(`${prefix}context-compactor:victim%3Alease`)).toBe(1);
      // The victim's lease is free: its compaction takes it at the first try.
      expect(await store.acquire!("context-compactor:victim:lease", "probe", 1_000)).toBe(true);
      await store.release!("context-compactor:victim:lease", "probe");
      expect(store.ttlMs).toBe(60_000);
    },
  );

  it.each(["node-redis", "ioredis", "@upstash/redis"])(
    "%s: setIf sets only over the value it was told, in one step on the server",
    async (name) => {
      const store = redisStore(clients()[name]!, { prefix: `cas-${name}:`, ttlSeconds: 60 });
      expect(await store.setIf!("k", '{"v":1}', null)).toBe(true);
      expect(await store.setIf!("k", '{"v":2}', null)).toBe(false);
      expect(await store.setIf!("k", '{"v":2}', '{"v":0}')).toBe(false);
      expect(await store.setIf!("k", '{"v":2}', '{"v":1}')).toBe(true);
      expect(await store.get("k")).toBe('{"v":2}');
      expect(await nodeRedis.ttl(`cas-${name}:k`)).toBeGreaterThan(0);
    },
  );

  it("a signed state round-trips through Upstash's JSON parsing unchanged", async () => {
    const store = redisStore(upstash, { prefix: "signed:" });
    const summarize = vi.fn(() => "s");
    const options = { maxTokens: 200, summarize, store, conversationId: "c2", signingKey: "key" };
    await statefulCompactor(options)(history);
    await statefulCompactor(options)(history);
    expect(summarize).toHaveBeenCalledTimes(1);
  });

  it("a client with no connection fails fast: the request is answered within the bound, with no crash", async () => {
    const offline = createClient({
      url: "redis://127.0.0.1:1",
      disableOfflineQueue: true,
      socket: { reconnectStrategy: false },
    });
    offline.on("error", () => {});
    const errors: unknown[] = [];
    const store: CompactionStore = redisStore(offline, { timeoutMs: 200 });
    const started = performance.now();
    const output = await statefulCompactor({
      maxTokens: 200,
      summarize: () => "s",
      store,
      events: { onStoreError: (error) => errors.push(error) },
    })(history);
    expect(output).not.toBeNull();
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(errors.length).toBeGreaterThan(0);
  });

  it("validates its options and its client", () => {
    expect(() => redisStore(nodeRedis, { ttlSeconds: 0 })).toThrow(RangeError);
    expect(() => redisStore(nodeRedis, { ttlSecond: 5 } as never)).toThrow("Did you mean `ttlSeconds`?");
    expect(() => redisStore({} as never)).toThrow(
      "Expected `client` to be a node-redis, ioredis or Upstash Redis client",
    );
  });
});
