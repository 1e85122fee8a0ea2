import OpenAI from "openai";
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import { compactor } from "context-compactor";
import { summarizeInPlace } from "context-compactor/summary-kit";

const client = new OpenAI(); // reads OPENAI_API_KEY
const model = "gpt-4.1";
const tools: ChatCompletionTool[] = [{ type: "function", function: { name: "lookup", parameters: { type: "object", properties: { q: { type: "string" } } } } }];

// The summary request starts with the very messages the last request sent, with the same model and
// tools, so the provider's prompt cache serves that prefix: the summary costs a fraction of its input.
const beforeLlm = compactor<ChatCompletionMessageParam>({
  maxTokens: 100_000,
  summarize: summarizeInPlace(async (messages, { signal }) => {
    const response = await client.chat.completions.create({ model, messages, tools, tool_choice: "none" }, { signal });
    return response.choices[0]?.message.content ?? "";
  }),
  summary: { timeoutMs: 60_000 },
});

export async function send(messages: ChatCompletionMessageParam[]): Promise<ChatCompletionMessageParam[]> {
  const compacted = await beforeLlm({ messages });
  const request = compacted?.messages ?? messages;
  const response = await client.chat.completions.create({ model, messages: request, tools });
  return [...request, response.choices[0]!.message];
}
