// One instance of a chat service with the deployment guide's Redis client (its set-up compiled to
// the module named by argv[2], connecting to REDIS_URL): a fresh statefulCompactor per request,
// with the guide's defaults (`storeTimeoutMs` and the lease's length left as they are), and a
// summarizer that takes `summarizeMs`. The parent sends requests over IPC, each with the `usage`
// the provider reported for the conversation's previous request; the worker answers with what it
// would send to the model, how long the request took and how much of that was the summary.
import { pathToFileURL } from "node:url";
import { statefulCompactor } from "../../dist/index.js";

const [setUp, config] = process.argv.slice(2);
const { maxTokens, summarizeMs } = JSON.parse(config);
const { store } = await import(pathToFileURL(setUp).href);

process.on("message", async ({ id, conversationId, messages, usage }) => {
  let summarizing = 0;
  const storeErrors = [];
  const compact = statefulCompactor({
    maxTokens,
    store,
    events: { onStoreError: (error, { operation }) => storeErrors.push(`${operation}: ${error?.message ?? error}`) },
    summarize: async (older, context) => {
      const started = performance.now();
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
    const result = await compact(messages, { conversationId, ...(usage ? { usage } : {}) });
    process.send({
      id,
      output: result?.messages ?? messages,
      overBudget: result?.overBudget === true,
      ms: performance.now() - started,
      summarizeMs: summarizing,
      storeErrors,
    });
  } catch (error) {
    process.send({
      id,
      error: String(error?.message ?? error),
      ms: performance.now() - started,
      summarizeMs: summarizing,
      storeErrors,
    });
  }
});
process.send({ ready: true });
