import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { compactor, summarizeWith, type ReportedUsage } from "context-compactor";

const client = new OpenAI(); // reads OPENAI_API_KEY

const beforeLlm = compactor<ChatCompletionMessageParam>({
  maxTokens: 100_000,
  summarize: summarizeWith(async ({ system, user }, { signal }) => {
    const response = await client.chat.completions.create(
      { model: "gpt-4.1-mini", messages: [{ role: "system", content: system }, { role: "user", content: user }] },
      { signal },
    );
    return response.choices[0]?.message.content ?? "";
  }),
  // Says when it happens: "compacted 41 messages: 101,882 → 48,310 tokens".
  events: { onCompacted: ({ summarized, tokensBefore, tokensAfter }) => console.log(`compacted ${summarized} messages: ${tokensBefore} → ${tokensAfter} tokens`) },
});

let messages: ChatCompletionMessageParam[] = [{ role: "system", content: "You are a helpful support agent." }];
// What the provider counted of the last request: the hook counts from it, not from bytes / 4.
let usage: ReportedUsage | undefined;

export async function reply(userText: string): Promise<string> {
  messages.push({ role: "user", content: userText });
  const compacted = await beforeLlm(usage ? { messages, usage } : { messages }); // null under budget
  if (compacted) messages = compacted.messages;
  const response = await client.chat.completions.create({ model: "gpt-4.1", messages });
  if (response.usage) usage = { inputTokens: response.usage.prompt_tokens, messageCount: messages.length };
  messages.push(response.choices[0]!.message);
  return response.choices[0]!.message.content ?? "";
}
