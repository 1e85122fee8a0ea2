import { convertToModelMessages, generateText, stepCountIs, streamText, type UIMessage } from "ai";
import { createClient } from "redis";
import { summarizeWith } from "context-compactor";
import { toPrepareStep } from "context-compactor/ai-sdk";
import { redisStore } from "context-compactor/redis";

// One store for every instance of the route: each request continues from the last compaction.
// Set up for a cold start: an error listener (without one, a Redis restart crashes the process), a
// connection that is not awaited (an instance boots while Redis is down, and reconnects on its
// own), and the offline queue left on, so that the first request's commands wait for the
// connection instead of failing. A request waits on the store `storeTimeoutMs` (1 s) at most in
// all, and a command it gave up on is taken out of the queue: none runs when Redis is back.
const redis = createClient({ url: process.env["REDIS_URL"] ?? "redis://127.0.0.1:6379" });
redis.on("error", (error: Error) => console.warn(`redis: ${error.message}`));
void redis.connect().catch(() => {});
const store = redisStore(redis, { ttlSeconds: 7 * 86_400 });
// A store that fails is never fatal (the request goes on without state), so say so in the logs.
const onStoreError = (error: unknown, { operation, key }: { operation: string; key: string }) => console.warn(`compaction store ${operation} ${key}: ${String(error)}`);

const summarize = summarizeWith(async ({ system, user }, { signal }) => {
  const { text } = await generateText({ model: "openai/gpt-4.1-mini", system, prompt: user, abortSignal: signal });
  return text;
});

// POST /api/chat, as `useChat` calls it: the whole conversation arrives on every request.
export async function POST(request: Request): Promise<Response> {
  const { id, messages }: { id: string; messages: UIMessage[] } = await request.json();
  const result = streamText({
    model: "openai/gpt-4.1",
    system: "You are a helpful assistant.",
    messages: await convertToModelMessages(messages),
    stopWhen: stepCountIs(20),
    // A fresh adapter per request is fine: the compaction lives in the store, under the chat's id.
    prepareStep: toPrepareStep({ maxTokens: 100_000, summarize, store, conversationId: id, events: { onStoreError } }),
  });
  return result.toUIMessageStreamResponse();
}
