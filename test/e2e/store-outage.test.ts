// A Redis outage as the deployment guide's client meets it (the offline queue on, the connection
// not awaited): two Node processes, three conversations in step, redis-server stopped before turn
// 12 and started again before turn 18. No request waits on the store for more than one
// `storeTimeoutMs` in all, none comes out over budget, and once the last request is answered no
// lease is left in Redis for a request that is no longer there. The figures go in
// docs/state-and-deployment.md.
import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { estimateTokens } from "../../src/index.js";
import { findToolPairProblems } from "../../src/expert.js";
import { guideClientModule } from "../support/guide-client.js";
import { turn, type Message } from "../support/conversation-turn.js";
import { hasRedisServer, startRedisServer, type RedisServer } from "../support/redis-server.js";

const available = hasRedisServer();
if (!available) {
  // In CI a missing server is a failure, never a skip.
  if (process.env["CI"]) throw new Error("redis-server is not installed: .ci/run installs it with apt-get");
  console.log("Skipping the Redis outage: install redis-server (apt-get install -y redis-server) to run it.");
}

const worker = new URL("../support/outage-worker.mjs", import.meta.url).pathname;
/** `statefulCompactor`'s default, which the guide's route keeps. */
const storeTimeoutMs = 1_000;
/**
 * What a request may wait on the store beyond its one `storeTimeoutMs`: the scheduling of a
 * loaded two-core machine. Half a timeout: a second store call that waits out its own timeout
 * (the finding this test is for) goes past it.
 */
const slackMs = storeTimeoutMs / 2;
const config = { maxTokens: 1_000, summarizeMs: 20 };
const turns = 30;
const stopBefore = 12;
const restartBefore = 18;

interface Answer {
  output?: Message[];
  overBudget?: boolean;
  error?: string;
  ms: number;
  summarizeMs: number;
  storeErrors: string[];
}

/** The request of turn `t`: the history so far and the new question. */
const request = (c: number, t: number): Message[] => [
  { role: "system", content: `c${c}-system: you help with conversation ${c}.` },
  ...Array.from({ length: t }, (_, past) => turn(c, past)).flat(),
  turn(c, t)[0]!,
];

/** One instance of the service: a forked Node process. */
class Instance {
  readonly child: ChildProcess;
  readonly ready: Promise<void>;
  private next = 0;
  private readonly pending = new Map<number, (answer: Answer) => void>();
  constructor(setUp: string, url: string) {
    this.child = fork(worker, [setUp, JSON.stringify(config)], {
      env: { ...process.env, REDIS_URL: url },
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    // The guide's error listener logs each reconnection attempt ("redis: …"): not this test's output.
    this.child.stderr!.on("data", (chunk: Buffer) =>
      process.stderr.write(chunk.toString("utf8").replace(/^redis: .*\n/gm, "")),
    );
    this.ready = new Promise((resolve, reject) => {
      this.child.on("message", (message: { ready?: true; id: number } & Answer) =>
        message.ready ? resolve() : this.pending.get(message.id)?.(message),
      );
      this.child.on("exit", (code, signal) => reject(new Error(`an instance exited (${code ?? signal})`)));
    });
  }
  ask(conversationId: string, messages: Message[], usage?: object): Promise<Answer> {
    const id = this.next++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.child.send({ id, conversationId, messages, usage });
    });
  }
}

describe.runIf(available)("a Redis outage with the deployment guide's client", () => {
  let redis: RedisServer & { port: number };
  const dir = mkdtempSync(join(tmpdir(), "store-outage-"));
  const instances: Instance[] = [];
  beforeAll(async () => {
    redis = await startRedisServer({ dir });
  }, 20_000);
  afterAll(async () => {
    for (const instance of instances) instance.child.kill("SIGKILL");
    await redis?.stop();
  });

  /**
   * The leases in Redis once every request has been answered, each with its PTTL. A release sent
   * without waiting (after a store call of its request went unanswered) may still be on its way:
   * a lease counts as left behind only when it is still there after `settleMs`.
   */
  async function leasesLeft(settleMs: number): Promise<string[]> {
    const client = createClient({ url: redis.url, socket: { reconnectStrategy: false } });
    client.on("error", () => {});
    await client.connect();
    try {
      const deadline = Date.now() + settleMs;
      for (;;) {
        const keys = await client.keys("*:lease");
        if (keys.length === 0 || Date.now() > deadline)
          return await Promise.all(keys.map(async (key) => `${key} PTTL ${await client.pTTL(key)} ms`));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await client.close();
    }
  }

  it("costs each request at most one storeTimeoutMs of waiting, no request over budget, and leaves no lease behind", {
    timeout: 300_000,
  }, async () => {
    const setUp = await guideClientModule("store-outage");
    instances.push(new Instance(setUp, redis.url), new Instance(setUp, redis.url));
    await Promise.all(instances.map((instance) => instance.ready));
    const conversations = [0, 1, 2];
    const phases = { before: [] as number[], down: [] as number[], after: [] as number[] };
    const overWait: string[] = [];
    const overBudget: string[] = [];
    const leases: string[] = [];
    let summarized = 0;
    // What the provider counted of each conversation's previous request (here, the estimate of
    // what it sent): reported with the next one, as an agent loop passes `usage`.
    const usage = new Map<number, { inputTokens: number; messageCount: number }>();
    for (let t = 0; t < turns; t++) {
      if (t === stopBefore) await redis.stop();
      if (t === restartBefore) redis = await startRedisServer({ port: redis.port, dir });
      const phase = t < stopBefore ? phases.before : t < restartBefore ? phases.down : phases.after;
      await Promise.all(
        conversations.map(async (c) => {
          // The processes take turns, so that each continues the other's compaction.
          const answer = await instances[(c + t) % 2]!.ask(`outage-${c}`, request(c, t), usage.get(c));
          expect(answer.error).toBeUndefined();
          const output = answer.output!;
          expect(findToolPairProblems(output)).toEqual([]);
          expect(
            [...JSON.stringify(output).matchAll(/\bc(\d+)-/g)]
              .map((match) => Number(match[1]))
              .filter((other) => other !== c),
          ).toEqual([]);
          expect(output.at(-1)).toEqual(turn(c, t)[0]);
          if (answer.summarizeMs > 0) summarized++;
          // What the request spent other than summarizing: waiting on the store, and its own work.
          const waited = answer.ms - answer.summarizeMs;
          phase.push(waited);
          if (waited > storeTimeoutMs + slackMs)
            overWait.push(`c${c} turn ${t}: ${Math.round(waited)} ms (${answer.storeErrors.length} store errors)`);
          const tokens = estimateTokens(output);
          usage.set(c, { inputTokens: tokens, messageCount: request(c, t).length });
          if (answer.overBudget || tokens > config.maxTokens) overBudget.push(`c${c} turn ${t}: ${tokens} tokens`);
        }),
      );
      // No request is in flight: a lease still in Redis belongs to nobody, and would hold the
      // conversation's next crossing until it expires.
      if (phase !== phases.down) for (const lease of await leasesLeft(2_000)) leases.push(`after turn ${t}: ${lease}`);
    }
    const figures = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      const at = (share: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!);
      return `median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms`;
    };
    console.log(
      [
        `Redis outage, the guide's client, 2 processes × 3 conversations × ${turns} turns, stopped before turn ${stopBefore}, started again before turn ${restartBefore}; ${summarized} requests summarized`,
        `time beyond summarizing: before ${figures(phases.before)}; Redis stopped ${figures(phases.down)}; after ${figures(phases.after)}`,
        `over ${storeTimeoutMs + slackMs} ms: ${overWait.length}; over budget: ${overBudget.length}; leases left: ${leases.length}`,
      ].join("\n"),
    );
    expect(summarized).toBeGreaterThan(3);
    expect({ overWait, overBudget, leases }).toEqual({ overWait: [], overBudget: [], leases: [] });
  });
});
