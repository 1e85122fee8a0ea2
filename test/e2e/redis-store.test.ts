// A Redis store shared by processes: one process compacts, another continues from it.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisStore } from "../../src/stores/redis.js";
import { SUMMARY_PREFIX } from "../../src/expert.js";
import { statefulCompactor, type CompactionStore } from "../../src/index.js";
import { hasRedisServer, startRedisServer, type RedisServer } from "../support/redis-server.js";
import { builders } from "../support/builders.js";

const available = hasRedisServer();
if (!available) {
  // In CI a missing server is a failure, never a skip.
  if (process.env["CI"]) throw new Error("redis-server is not installed: .ci/run installs it with apt-get");
  console.log("Skipping the Redis store tests: install redis-server (apt-get install -y redis-server) to run them.");
}

type Message = { role: string; content: string };
const turn = (n: number): Message[] => [
  builders["openai-chat"].user(`u${n}`),
  builders["openai-chat"].assistant(`a${n}`),
];
const history = (turns: number): Message[] => [
  { role: "system", content: "sys" },
  ...Array.from({ length: turns }, (_, i) => turn(i + 1)).flat(),
];

describe.skipIf(!available)("a Redis store", () => {
  let server: RedisServer;
  let client: ReturnType<typeof createClient>;
  let store: CompactionStore;
  beforeAll(async () => {
    server = await startRedisServer();
    client = createClient({ url: server.url });
    await client.connect();
    // The one line the README shows.
    store = { get: (key) => client.get(key), set: (key, value) => client.set(key, value) };
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it("keeps a conversation's compaction for any instance", async () => {
    const options = { maxTokens: 6, keepTail: 2, countTokens: (list: readonly unknown[]) => list.length, store };
    let calls = 0;
    const first = await statefulCompactor<Message>({ ...options, summarize: () => `s${++calls}` })(history(4), {
      conversationId: "in-process",
    });
    const stored = JSON.parse((await client.get("context-compactor:in-process"))!);
    expect(stored).toMatchObject({
      version: 3,
      covered: 7,
      pinned: [],
      summary: [{ role: "system", content: `${SUMMARY_PREFIX}s1` }],
    });
    expect(stored.digest).toMatch(/^[0-9a-f]{64}$/);
    const second = await statefulCompactor<Message>({ ...options, summarize: () => `s${++calls}` })(
      [...history(4), { role: "user", content: "u5" }],
      { conversationId: "in-process" },
    );
    expect(calls).toBe(1);
    expect(second!.messages[1]).toEqual(first!.messages[1]);
  });

  it("a signed state or archive copied under another conversation's key is refused", async () => {
    // Someone who can write to Redis but holds no `signingKey` copies what the app signed for
    // their own chat under a victim's keys, with the client's own COPY command.
    const signed = redisStore(client);
    const orders = (label: string, turns: number) =>
      Array.from({ length: turns }, (_, i) => [
        builders["openai-chat"].user(`${label} order ${i} ${"x ".repeat(40)}`),
        builders["openai-chat"].assistant(`${label} parcel ${i}`),
      ]).flat();
    const messages = [{ role: "system", content: "sys" }, ...orders("shared", 10)];
    const options = { maxTokens: 300, store: signed, signingKey: "instance-key", archive: true };
    await statefulCompactor({ ...options, summarize: () => "ATTACKER summary" })(messages, {
      conversationId: "signed-attacker",
    });
    for (const suffix of ["", ":archive"]) {
      expect(
        await client.copy(`context-compactor:signed-attacker${suffix}`, `context-compactor:signed-victim${suffix}`, {
          REPLACE: true,
        }),
      ).toBe(1);
    }
    const errors: unknown[] = [];
    const victim = statefulCompactor({
      ...options,
      summarize: () => "victim summary",
      events: { onStoreError: (error) => errors.push(error) },
    });
    expect(await victim.recall("parcel", { conversationId: "signed-victim" })).toBe(
      "Nothing of this conversation is archived.",
    );
    const output = await victim(messages, { conversationId: "signed-victim" });
    expect(JSON.stringify(output)).not.toContain("ATTACKER");
    // The recall's read, the state's read, the state's read again once the lease is taken, and the
    // archive's read before its append: each refused.
    expect(errors.map(String)).toEqual(
      Array.from({ length: 4 }, () => expect.stringContaining("for this key and kind of value")),
    );
  });

  it("two processes: the second continues the first's compaction and calls no summarize", () => {
    const dir = mkdtempSync(join(tmpdir(), "redis-"));
    const worker = new URL("../support/redis-worker.mjs", import.meta.url).pathname;
    const runWorker = (messages: Message[]) => {
      const file = join(dir, `${Math.random()}.json`);
      writeFileSync(file, JSON.stringify(messages));
      const result = spawnSync(process.execPath, [worker, server.url, "two-processes", file], { encoding: "utf8" });
      expect(result.status, result.stderr).toBe(0);
      return JSON.parse(result.stdout) as { summarizeCalls: number; output: Message[] | null };
    };
    const first = runWorker(history(4));
    expect(first.summarizeCalls).toBe(1);
    const second = runWorker([...history(4), { role: "user", content: "u5" }]);
    expect(second.summarizeCalls).toBe(0);
    expect(second.output).toEqual([history(1)[0], first.output![1], ...turn(4), { role: "user", content: "u5" }]);
    // Over budget again, the second process rolls the first one's summary forward.
    const third = runWorker([...history(5), { role: "user", content: "u6" }]);
    expect(third.summarizeCalls).toBe(1);
    const firstSummary = first.output![1]!.content.slice(SUMMARY_PREFIX.length);
    expect(third.output!.map((m) => m.content)).toEqual([
      "sys",
      expect.stringContaining(`before it: ${firstSummary}`),
      "u6",
    ]);
  });
});
