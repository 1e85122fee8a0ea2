// The deployment guide's chat route as written (its first code block, compiled as it is), over one
// redis-server: a fresh Node process per request, as a serverless platform runs it at a cold start,
// makes the same summarize calls (within 10%) as one long-lived process serving every request. The
// figures go in docs/state-and-deployment.md.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { transform } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasRedisServer, startRedisServer, type RedisServer } from "../support/redis-server.js";

const available = hasRedisServer();
if (!available) {
  // In CI a missing server is a failure, never a skip.
  if (process.env["CI"]) throw new Error("redis-server is not installed: .ci/run installs it with apt-get");
  console.log(
    "Skipping the deployment guide's cold start: install redis-server (apt-get install -y redis-server) to run it.",
  );
}

const root = new URL("../..", import.meta.url).pathname;
const worker = new URL("../support/guide-route-worker.mjs", import.meta.url).pathname;
const turns = 40;

/** An OpenAI-compatible server: the summarizer's calls (`openai/gpt-4.1-mini`) counted with their input, the route's answered as a stream. */
function startModel() {
  const summarizerInputs: number[] = [];
  let answers = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        model: string;
        stream?: boolean;
        messages: unknown[];
      };
      const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
      if (body.model === "openai/gpt-4.1-mini") {
        summarizerInputs.push(JSON.stringify(body.messages).length);
        const reply = {
          id: "s",
          object: "chat.completion",
          created: 1,
          model: body.model,
          choices: [
            {
              index: 0,
              message: { role: "assistant", content: `Summary ${summarizerInputs.length}.` },
              finish_reason: "stop",
            },
          ],
          usage,
        };
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply));
        return;
      }
      answers++;
      const chunk = (delta: object, finish: string | null, extra: object = {}) =>
        `data: ${JSON.stringify({ id: "a", object: "chat.completion.chunk", created: 1, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(
        chunk({ role: "assistant", content: `Answer ${answers}.` }, null) +
          chunk({}, "stop", { usage }) +
          "data: [DONE]\n\n",
      );
    });
  });
  return new Promise<{ baseURL: string; summarizerInputs: number[]; close: () => Promise<void> }>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        baseURL: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`,
        summarizerInputs,
        close: () => new Promise((done) => server.close(() => done())),
      }),
    ),
  );
}

/** What `useChat` sends on turn `t`: the chat's id and the whole conversation, each turn about 25,000 tokens. */
function requestBody(id: string, t: number) {
  const messages = [];
  for (let turn = 0; turn <= t; turn++) {
    messages.push({
      id: `u${turn}`,
      role: "user",
      parts: [{ type: "text", text: `Question ${turn}: ${"context ".repeat(12_500)}` }],
    });
    if (turn < t)
      messages.push({ id: `a${turn}`, role: "assistant", parts: [{ type: "text", text: `Answer ${turn}.` }] });
  }
  return { id, messages };
}

function runWorker(
  route: string,
  baseURL: string,
  url: string,
  bodies: object[],
  file: string,
): Promise<{ answers: { status: number; stream: string }[]; stderr: string }> {
  writeFileSync(file, JSON.stringify(bodies));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [worker, route, baseURL, file], {
      cwd: root,
      env: { ...process.env, REDIS_URL: url },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("error", reject);
    child.on("exit", (code) => {
      try {
        resolve({
          answers: JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as { status: number; stream: string }[],
          stderr,
        });
      } catch {
        reject(new Error(`worker exited ${code}: ${stderr.slice(0, 2000)}`));
      }
    });
  });
}

describe.runIf(available)("the deployment guide's route at a cold start", () => {
  let redis: RedisServer;
  let route: string;
  const work = join(root, ".vitest", "deployment-guide");
  beforeAll(async () => {
    redis = await startRedisServer();
    const page = readFileSync(join(root, "docs", "state-and-deployment.md"), "utf8");
    const block = /```ts\n([\s\S]*?)```/.exec(page)![1]!;
    mkdirSync(work, { recursive: true });
    route = join(work, "route.mjs");
    writeFileSync(route, (await transform(block, { loader: "ts", format: "esm" })).code);
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it("a fresh process per request makes the summarize calls of one long-lived process, within 10%", async () => {
    const model = await startModel();
    try {
      const long = await runWorker(
        route,
        model.baseURL,
        redis.url,
        Array.from({ length: turns }, (_, t) => requestBody("chat-long", t)),
        join(work, "long.json"),
      );
      const longCalls = model.summarizerInputs.length;
      const longLargest = Math.max(...model.summarizerInputs);
      expect(long.answers.every((answer) => answer.status === 200 && answer.stream.includes("Answer"))).toBe(true);
      const freshErrors: string[] = [];
      for (let t = 0; t < turns; t++) {
        const fresh = await runWorker(
          route,
          model.baseURL,
          redis.url,
          [requestBody("chat-fresh", t)],
          join(work, `fresh-${t}.json`),
        );
        expect(fresh.answers[0]!.status).toBe(200);
        freshErrors.push(...fresh.stderr.split("\n").filter((line) => line.includes("compaction store")));
      }
      const freshInputs = model.summarizerInputs.slice(longCalls);
      const freshCalls = freshInputs.length;
      console.log(
        `deployment guide, ${turns} requests of about 25,000 tokens each: one process ${longCalls} summarize calls (largest input ${longLargest} characters), a fresh process per request ${freshCalls} (largest input ${Math.max(...freshInputs)} characters), ${freshErrors.length} store errors logged`,
      );
      expect(longCalls).toBeGreaterThanOrEqual(3);
      expect(Math.abs(freshCalls - longCalls)).toBeLessThanOrEqual(Math.ceil(longCalls * 0.1));
      expect(freshErrors).toEqual([]);
    } finally {
      await model.close();
    }
  }, 600_000);
});
