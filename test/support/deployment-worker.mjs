// One instance of a chat service, as it is deployed: a long-lived Node process holding the Redis
// client of the deployment guide (its set-up compiled to the module named by argv[2], connecting
// to REDIS_URL: an error listener, the offline queue on, a connection not awaited), a fresh
// statefulCompactor per request over its `redisStore`, and a summarizer that takes a while. The
// parent sends requests over IPC; the worker answers with what it would send to the model, and
// reports each summarize call (as it starts), how long the request took and how much of that was
// the summary.
import { pathToFileURL } from "node:url";
import { statefulCompactor } from "../../dist/index.js";

const [setUp, config] = process.argv.slice(2);
const { maxTokens, summarizeMs, storeTimeoutMs } = JSON.parse(config);
const { store } = await import(pathToFileURL(setUp).href);

process.on("message", async ({ id, conversationId, messages }) => {
  let summarizing = 0;
  const compact = statefulCompactor({
    maxTokens,
    store,
    storeTimeoutMs,
    // A lease outlives the slowest summary: a holder killed mid-summarize frees it after this.
    summary: { timeoutMs: 2_000 },
    events: { onStoreError: () => {} },
    summarize: async (older, context) => {
      const started = performance.now();
      const characters = JSON.stringify(older).length;
      process.send({ type: "summarize", id, conversationId, characters, full: context.previousSummary === undefined });
      await new Promise((resolve) => setTimeout(resolve, summarizeMs));
      summarizing += performance.now() - started;
      // The summary quotes the conversation's own text, so text of another would show.
      const quoted = older
        .map((m) => (typeof m.content === "string" ? m.content.slice(0, 12) : ""))
        .filter(Boolean)
        .slice(0, 3);
      return `summary of ${older.length} messages: ${quoted.join(" | ")}; before: ${context.previousSummary?.slice(0, 60) ?? "nothing"}`;
    },
  });
  const started = performance.now();
  try {
    const output = await compact(messages, { conversationId });
    process.send({
      type: "answer",
      id,
      output: output?.messages ?? messages,
      ms: performance.now() - started,
      summarizeMs: summarizing,
    });
  } catch (error) {
    process.send({
      type: "answer",
      id,
      error: String(error?.message ?? error),
      ms: performance.now() - started,
      summarizeMs: summarizing,
    });
  }
});
process.send({ type: "ready" });
