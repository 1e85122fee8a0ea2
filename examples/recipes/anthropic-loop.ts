import Anthropic from "@anthropic-ai/sdk";
import { compactor, summarizeWith } from "context-compactor";

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

export async function reply(userText: string): Promise<string> {
  messages.push({ role: "user", content: userText });
  const compacted = await beforeLlm({ messages });
  if (compacted) messages = compacted.messages;
  const response = await client.messages.create({ model: "claude-sonnet-4-6", max_tokens: 4_000, system, messages });
  messages.push({ role: "assistant", content: response.content });
  return response.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}
