import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { compactor } from "context-compactor";

/**
 * An OpenAI client whose `fetch` answers every request itself: it keeps the request bodies and
 * replies with a fixed completion. The Anthropic SDK takes the same `fetch` option.
 */
export function offlineClient(reply: string) {
  const requests: { model: string; messages: ChatCompletionMessageParam[] }[] = [];
  const client = new OpenAI({
    apiKey: "test",
    maxRetries: 0,
    fetch: async (_url, init) => {
      requests.push(JSON.parse(String(init?.body)));
      const completion = { id: "c", object: "chat.completion", created: 0, model: "stub", choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: reply } }] };
      return new Response(JSON.stringify(completion), { headers: { "content-type": "application/json" } });
    },
  });
  return { client, requests };
}

/** A chat loop of 12 turns against that client, compacting under a small budget. */
export async function chatOffline() {
  const { client, requests } = offlineClient("Noted. ".repeat(40));
  const beforeLlm = compactor<ChatCompletionMessageParam>({ maxTokens: 1_000, summarize: async (older) => `the user sent ${older.length} messages` });
  let messages: ChatCompletionMessageParam[] = [{ role: "system", content: "You are terse." }];
  for (let turn = 1; turn <= 12; turn++) {
    messages.push({ role: "user", content: `Fact ${turn}: ${"detail ".repeat(30)}` });
    messages = (await beforeLlm({ messages }))?.messages ?? messages;
    const response = await client.chat.completions.create({ model: "gpt-4.1", messages });
    messages.push(response.choices[0]!.message);
  }
  return { requests, messages };
}
