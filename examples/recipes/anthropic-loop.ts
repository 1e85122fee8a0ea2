import Anthropic from "@anthropic-ai/sdk";
import { compactor, summarizeWith, type ReportedUsage } from "context-compactor";

const client = new Anthropic(); // reads ANTHROPIC_API_KEY
const system = "You are a helpful support agent.";

const beforeLlm = compactor<Anthropic.MessageParam>({
  maxTokens: 150_000,
  // A transcript of plain text messages reads like OpenAI chat: naming the format makes every
  // summary a user turn, since Anthropic's `messages` hold no system message.
  format: "anthropic",
  // The system prompt and the tool definitions travel beside `messages`: room is kept for them.
  reserveTokens: 2_000,
  summarize: summarizeWith(async ({ system, user }, { signal }) => {
    const response = await client.messages.create(
      { model: "claude-haiku-4-5", max_tokens: 2_000, system, messages: [{ role: "user", content: user }] },
      { signal },
    );
    return response.content.map((block) => (block.type === "text" ? block.text : "")).join("");
  }),
});

let messages: Anthropic.MessageParam[] = [];
// What the provider counted of the last request: with prompt caching, `input_tokens` is only the
// uncached part, and the total is the sum of the three fields.
let usage: ReportedUsage | undefined;

export async function reply(userText: string): Promise<string> {
  messages.push({ role: "user", content: userText });
  const compacted = await beforeLlm(usage ? { messages, usage } : { messages });
  if (compacted) messages = compacted.messages;
  const response = await client.messages.create({ model: "claude-sonnet-4-6", max_tokens: 4_000, system, messages });
  const { input_tokens, cache_creation_input_tokens, cache_read_input_tokens } = response.usage;
  usage = { inputTokens: input_tokens + (cache_creation_input_tokens ?? 0) + (cache_read_input_tokens ?? 0), messageCount: messages.length };
  messages.push({ role: "assistant", content: response.content });
  return response.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}
