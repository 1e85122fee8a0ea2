// One instance of a chat service, as it is deployed: a long-lived Node process holding one Redis
// client set up for production (an error listener, no offline queue, a connection not awaited), a
// fresh statefulCompactor per request over `redisStore`, and a summarizer that takes a while. The
// parent sends requests over IPC; the worker answers with what it would send to the model, and
// reports each summarize call (as it starts) and the time its store calls took.
import { AsyncLocalStorage } from "node:async_hooks";
import { createClient } from "redis";
import { statefulCompactor } from "../../dist/index.js";
import { redisStore } from "../../dist/redis.js";

const { url, maxTokens, summarizeMs, storeTimeoutMs } = JSON.parse(process.argv[2]);
const client = createClient({ url, disableOfflineQueue: true, socket: { reconnectStrategy: (retries) => Math.min(50 * (retries + 1), 300) } });
client.on("error", () => {});
void client.connect().catch(() => {});
const remote = redisStore(client, { ttlSeconds: 3600, timeoutMs: storeTimeoutMs });

// One store object for the process, as a route module holds it; the time each request spends
// waiting on it is added up per request.
const waited = new AsyncLocalStorage();
const timed = (name) => async (...args) => {
  const started = performance.now();
  try {
    return await remote[name](...args);
  } finally {
    const request = waited.getStore();
    if (request) request.storeMs += performance.now() - started;
  }
};
const store = { get: timed("get"), set: timed("set"), delete: timed("delete"), acquire: timed("acquire"), release: timed("release") };

process.on("message", ({ id, conversationId, messages }) => waited.run({ storeMs: 0 }, () => answer(id, conversationId, messages)));

async function answer(id, conversationId, messages) {
  const compact = statefulCompactor({
    maxTokens,
    store,
    storeTimeoutMs,
    // A lease outlives the slowest summary: a holder killed mid-summarize frees it after this.
    summary: { timeoutMs: 2_000 },
    events: { onStoreError: () => {} },
    summarize: async (older, context) => {
      const characters = JSON.stringify(older).length;
      process.send({ type: "summarize", id, conversationId, characters, full: context.previousSummary === undefined });
      await new Promise((resolve) => setTimeout(resolve, summarizeMs));
      // The summary quotes the conversation's own text, so text of another would show.
      const quoted = older.map((m) => (typeof m.content === "string" ? m.content.slice(0, 12) : "")).filter(Boolean).slice(0, 3);
      return `summary of ${older.length} messages: ${quoted.join(" | ")}; before: ${context.previousSummary?.slice(0, 60) ?? "nothing"}`;
    },
  });
  const started = performance.now();
  try {
    const output = await compact(messages, { conversationId });
    process.send({ type: "answer", id, output: output?.messages ?? messages, ms: performance.now() - started, storeMs: waited.getStore().storeMs });
  } catch (error) {
    process.send({ type: "answer", id, error: String(error?.message ?? error), ms: performance.now() - started, storeMs: waited.getStore().storeMs });
  }
}
process.send({ type: "ready" });
