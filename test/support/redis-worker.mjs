// One process of a chat service: compacts one request of a conversation with the built package
// over a Redis store, and prints how many times it called summarize and what it would send.
import { createClient } from "redis";
import { statefulCompactor } from "../../dist/index.js";

const [url, conversationId, file] = process.argv.slice(2);
const { readFileSync } = await import("node:fs");
const messages = JSON.parse(readFileSync(file, "utf8"));
const client = createClient({ url });
await client.connect();
let summarizeCalls = 0;
const compact = statefulCompactor({
  maxTokens: 6,
  keepTail: 2,
  countTokens: (list) => list.length,
  summarize: (older, context) =>
    `summary ${++summarizeCalls} by process ${process.pid} of ${older.length} messages; before it: ${context.previousSummary ?? "nothing"}`,
  store: { get: (key) => client.get(key), set: (key, value) => client.set(key, value) },
  events: {
    onStoreError: (error) => {
      console.error(error);
      process.exitCode = 1;
    },
  },
});
const output = (await compact(messages, { conversationId }))?.messages ?? null;
await client.close();
console.log(JSON.stringify({ summarizeCalls, output }));
