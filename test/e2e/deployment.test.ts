// The library deployed as users deploy it: several Node processes behind random routing, one
// Redis server and the deployment guide's client in each, a fresh statefulCompactor per request
// over `redisStore`, a summarizer that takes a while. Each scenario checks every returned request
// (tool pairs whole, only its own conversation's text, the latest request kept) and counts
// summarize calls, the characters sent to them and the time each request took beyond its summary
// (waiting on the store, and its own work); the figures go in the deployment guide.
import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findToolPairProblems } from "../../src/expert.js";
import { guideClientModule } from "../support/guide-client.js";
import { turn, type Message } from "../support/conversation-turn.js";
import { hasRedisServer, startRedisServer, type RedisServer } from "../support/redis-server.js";

const available = hasRedisServer();
if (!available) {
  // In CI a missing server is a failure, never a skip.
  if (process.env["CI"]) throw new Error("redis-server is not installed: .ci/run installs it with apt-get");
  console.log("Skipping the deployment scenarios: install redis-server (apt-get install -y redis-server) to run them.");
}

const worker = new URL("../support/deployment-worker.mjs", import.meta.url).pathname;
const config = { maxTokens: 2_000, summarizeMs: 20, storeTimeoutMs: 300 };

interface Answer {
  output?: Message[];
  error?: string;
  ms: number;
  summarizeMs: number;
}
interface Summarized {
  instance: number;
  conversationId: string;
  characters: number;
  full: boolean;
}

const history = (c: number, turns: number): Message[] => [
  { role: "system", content: `c${c}-system: you help with conversation ${c}.` },
  ...Array.from({ length: turns }, (_, t) => turn(c, t)).flat(),
];
/** The request of turn `t`: the history so far and the new question. */
const request = (c: number, t: number): Message[] => [...history(c, t), turn(c, t)[0]!];

/** One instance of the service: a forked Node process. */
class Instance {
  readonly child: ChildProcess;
  readonly ready: Promise<void>;
  private next = 0;
  private readonly pending = new Map<number, { resolve: (answer: Answer) => void; reject: (error: Error) => void }>();
  constructor(
    readonly index: number,
    { setUp, url }: { setUp: string; url: string },
    onSummarize: (event: Summarized) => void,
  ) {
    this.child = fork(worker, [setUp, JSON.stringify(config)], {
      env: { ...process.env, REDIS_URL: url },
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    // The guide's error listener logs each reconnection attempt ("redis: …"): not this test's output.
    this.child.stderr!.on("data", (chunk: Buffer) =>
      process.stderr.write(chunk.toString("utf8").replace(/^redis: .*\n/gm, "")),
    );
    this.ready = new Promise((resolve, reject) => {
      this.child.on("message", (message: { type: string; id: number } & Answer & Summarized) => {
        if (message.type === "ready") resolve();
        else if (message.type === "summarize")
          onSummarize({
            instance: index,
            conversationId: message.conversationId,
            characters: message.characters,
            full: message.full,
          });
        else this.pending.get(message.id)?.resolve(message);
      });
      this.child.on("exit", (code, signal) => {
        reject(new Error(`instance ${index} exited (${code ?? signal}) before it was ready`));
        for (const { reject: fail } of this.pending.values())
          fail(new Error(`instance ${index} died (${code ?? signal})`));
        this.pending.clear();
      });
    });
  }
  ask(conversationId: string, messages: Message[]): Promise<Answer> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.send({ id, conversationId, messages });
    });
  }
  kill(): void {
    this.child.kill("SIGKILL");
  }
}

/** Checks one returned request: pairs whole, only conversation `c`'s text, its latest question kept. */
function checkAnswer(answer: Answer, c: number, t: number): void {
  expect(answer.error).toBeUndefined();
  const output = answer.output!;
  expect(findToolPairProblems(output)).toEqual([]);
  const others = [...JSON.stringify(output).matchAll(/\bc(\d+)-/g)]
    .map((match) => Number(match[1]))
    .filter((other) => other !== c);
  expect(others).toEqual([]);
  expect(output.at(-1)).toEqual(turn(c, t)[0]);
}

const percentile = (values: number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
};

/** Summaries and answers of one scenario, for its row of the table. */
class Tally {
  readonly summaries: Summarized[] = [];
  /** Each request's time beyond its summary: waiting on the store, and its own work. */
  readonly waitMs: number[] = [];
  onSummarize = (event: Summarized) => void this.summaries.push(event);
  answered(answer: Answer) {
    this.waitMs.push(answer.ms - answer.summarizeMs);
  }
  row(name: string) {
    const characters = this.summaries.reduce((sum, event) => sum + event.characters, 0);
    return {
      scenario: name,
      requests: this.waitMs.length,
      summarizeCalls: this.summaries.length,
      charactersSummarized: characters,
      waitMedianMs: percentile(this.waitMs, 0.5),
      waitP95Ms: percentile(this.waitMs, 0.95),
    };
  }
}

describe.skipIf(!available)("deployed on several processes over one Redis", () => {
  let redis: RedisServer & { port: number };
  let setUp: string;
  const dir = mkdtempSync(join(tmpdir(), "deployment-"));
  const started: Instance[] = [];
  const table: ReturnType<Tally["row"]>[] = [];
  const start = async (count: number, tally: Tally, from = started.length) => {
    // Looked up on each event, so that a scenario may start counting part of them apart.
    const instances = Array.from(
      { length: count },
      (_, i) => new Instance(from + i, { setUp, url: redis.url }, (event) => tally.onSummarize(event)),
    );
    started.push(...instances);
    await Promise.all(instances.map((instance) => instance.ready));
    return instances;
  };
  const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;

  /** Conversations `cs`, turns `from`..`to`, each conversation in order, all of them at once. */
  async function converse(instances: Instance[], cs: number[], from: number, to: number, tally: Tally, prefix: string) {
    await Promise.all(
      cs.map(async (c) => {
        for (let t = from; t < to; t++) {
          const answer = await pick(instances).ask(`${prefix}-${c}`, request(c, t));
          checkAnswer(answer, c, t);
          tally.answered(answer);
        }
      }),
    );
  }

  beforeAll(async () => {
    redis = await startRedisServer({ dir });
    setUp = await guideClientModule("deployment");
  }, 20_000);
  afterAll(async () => {
    for (const instance of started) instance.kill();
    await redis?.stop();
    writeFileSync(join(dir, "table.json"), JSON.stringify(table, null, 2));
    console.log(`deployment scenarios:\n${table.map((row) => JSON.stringify(row)).join("\n")}`);
  });

  it("4 processes × 20 conversations × 60 turns, random routing: the summaries of one long-lived process, within 5%", {
    timeout: 240_000,
  }, async () => {
    const conversations = Array.from({ length: 20 }, (_, c) => c);
    const alone = new Tally();
    await converse(await start(1, alone), conversations, 0, 60, alone, "alone");
    const routed = new Tally();
    await converse(await start(4, routed), conversations, 0, 60, routed, "routed");
    table.push(
      alone.row("1 process, 20 conversations × 60 turns"),
      routed.row("4 processes, random routing, same conversations"),
    );
    expect(alone.summaries.length).toBeGreaterThan(100);
    expect(Math.abs(routed.summaries.length - alone.summaries.length)).toBeLessThanOrEqual(
      alone.summaries.length * 0.05,
    );
  });

  it("bursts of 2, 3 and 4 concurrent requests at a crossing make one summarize call each", {
    timeout: 120_000,
  }, async () => {
    const tally = new Tally();
    const instances = await start(4, tally);
    for (const k of [2, 3, 4]) {
      const c = 100 + k;
      // Find a crossing: replay turns one by one until a turn summarizes, on a probe conversation of the same text.
      let crossing = -1;
      for (let t = 0; crossing === -1; t++) {
        const before = tally.summaries.length;
        checkAnswer(await instances[0]!.ask(`probe-${c}`, request(c, t)), c, t);
        if (t > 10 && tally.summaries.length > before) crossing = t;
      }
      for (let t = 0; t < crossing; t++) checkAnswer(await instances[0]!.ask(`burst-${c}`, request(c, t)), c, t);
      const before = tally.summaries.filter((event) => event.conversationId === `burst-${c}`).length;
      const answers = await Promise.all(
        instances.slice(0, k).map((instance) => instance.ask(`burst-${c}`, request(c, crossing))),
      );
      for (const answer of answers) checkAnswer(answer, c, crossing);
      expect(tally.summaries.filter((event) => event.conversationId === `burst-${c}`).length - before).toBe(1);
      // Every instance sends the same summary: the one the lease holder made.
      expect(new Set(answers.map((answer) => JSON.stringify(answer.output![1])))).toHaveLength(1);
    }
  });

  it("kill -9 of an instance mid-summarize, then a Redis restart: no request lost, no state corrupted", {
    timeout: 120_000,
  }, async () => {
    const tally = new Tally();
    const instances = await start(3, tally);
    const c = 200;
    let t = 0;
    // Up to the first summarize: the instance making it is killed as it starts.
    const victim = instances[0]!;
    let killed = false;
    for (; !killed; t++) {
      const summarizing = new Promise<void>((resolve) => {
        const watch = setInterval(() => {
          if (
            tally.summaries.some((event) => event.instance === victim.index && event.conversationId === `kill-${c}`)
          ) {
            clearInterval(watch);
            resolve();
          }
        }, 2);
        setTimeout(() => (clearInterval(watch), resolve()), 1_000);
      });
      const asked = victim.ask(`kill-${c}`, request(c, t));
      const answer = await Promise.race([asked.then((value) => ({ value })), summarizing.then(() => undefined)]);
      if (answer === undefined || tally.summaries.some((event) => event.instance === victim.index)) {
        victim.kill();
        killed = true;
        // It died before it could answer: killed in the middle of its summary.
        expect(
          await asked.then(
            () => "answered",
            () => "died",
          ),
        ).toBe("died");
        // The caller retries on another instance: it waits out the dead holder's lease, then answers.
        checkAnswer(await instances[1]!.ask(`kill-${c}`, request(c, t)), c, t);
      } else checkAnswer(answer.value, c, t);
    }
    const survivors = [instances[1]!, instances[2]!, ...(await start(1, tally))];
    for (; t < 30; t++) checkAnswer(await pick(survivors).ask(`kill-${c}`, request(c, t)), c, t);
    // A restart of Redis (its data kept on disk): the conversations go on from their state.
    await redis.stop();
    redis = await startRedisServer({ port: redis.port, dir });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = tally.summaries.length;
    for (; t < 40; t++) checkAnswer(await pick(survivors).ask(`kill-${c}`, request(c, t)), c, t);
    // The state survived: ten more turns make about two summaries, not one per turn.
    expect(tally.summaries.length - before).toBeLessThanOrEqual(3);
  });

  it("with Redis stopped no request waits more than one storeTimeoutMs, instances boot, and the outage adds at most one full summary per instance and conversation", {
    timeout: 120_000,
  }, async () => {
    const tally = new Tally();
    const instances = await start(3, tally);
    const conversations = [300, 301, 302, 303, 304];
    await converse(instances, conversations, 0, 20, tally, "outage");
    const beforeOutage = tally.summaries.length;
    await redis.stop();
    // From here, what the outage costs is counted apart.
    const down = new Tally();
    tally.onSummarize = (event) => void (tally.summaries.push(event), down.summaries.push(event));
    // A new instance boots while Redis is down.
    const [late] = await start(1, tally);
    const everyone = [...instances, late!];
    await Promise.all(
      conversations.map(async (c) => {
        for (let t = 20; t < 26; t++) {
          const answer = await pick(everyone).ask(`outage-${c}`, request(c, t));
          checkAnswer(answer, c, t);
          down.answered(answer);
          // One storeTimeoutMs at most (the offline queue holds the first store call until it
          // times out; the request makes no other), and half of one for a loaded machine.
          expect(answer.ms - answer.summarizeMs).toBeLessThanOrEqual(config.storeTimeoutMs * 1.5);
        }
      }),
    );
    expect(everyone.every((instance) => instance.child.exitCode === null)).toBe(true);
    const fullPerPair = new Map<string, number>();
    for (const event of down.summaries.filter((event) => event.full))
      fullPerPair.set(
        `${event.instance}/${event.conversationId}`,
        (fullPerPair.get(`${event.instance}/${event.conversationId}`) ?? 0) + 1,
      );
    expect(Math.max(0, ...fullPerPair.values())).toBeLessThanOrEqual(1);
    table.push(down.row("Redis stopped: 4 instances (one booted during the outage), 5 conversations × 6 turns"));
    expect(beforeOutage).toBeGreaterThan(0);
    redis = await startRedisServer({ port: redis.port, dir });
  });
});
