import Anthropic from "@anthropic-ai/sdk";
import { compactor } from "context-compactor";
import { summarizeInPlace } from "context-compactor/summary-kit";

const client = new Anthropic(); // reads ANTHROPIC_API_KEY
const model = "claude-sonnet-4-6";
const system = "You are a helpful support agent.";

/** The message with a cache breakpoint on its last content block: the prefix up to it is cached. */
function withBreakpoint(message: Anthropic.MessageParam): Anthropic.MessageParam {
  const blocks: Anthropic.ContentBlockParam[] = typeof message.content === "string" ? [{ type: "text", text: message.content }] : [...message.content];
  const last = blocks.at(-1);
  if (last !== undefined && last.type !== "thinking" && last.type !== "redacted_thinking") blocks[blocks.length - 1] = { ...last, cache_control: { type: "ephemeral" } };
  return { ...message, content: blocks } as Anthropic.MessageParam;
}

const beforeLlm = compactor<Anthropic.MessageParam>({
  maxTokens: 150_000,
  format: "anthropic",
  reserveTokens: 2_000,
  // The summary request repeats the request just sent, breakpoint on its last older message, so
  // Anthropic reads that prefix from its cache (a tenth of the price) and bills only the instructions.
  summarize: summarizeInPlace(async (messages, { signal }) => {
    const older = messages.slice(0, -1);
    const instructions = messages.at(-1)!;
    const request = [...older.slice(0, -1), ...older.slice(-1).map(withBreakpoint), instructions];
    const response = await client.messages.create({ model, max_tokens: 2_000, system, messages: request }, { signal });
    return response.content.map((block) => (block.type === "text" ? block.text : "")).join("");
  }),
});

export async function send(messages: Anthropic.MessageParam[]): Promise<Anthropic.MessageParam[]> {
  const compacted = await beforeLlm({ messages });
  const request = compacted?.messages ?? messages;
  // Every request carries a breakpoint on its last message, so its whole prefix is written to the cache.
  const response = await client.messages.create({ model, max_tokens: 4_000, system, messages: [...request.slice(0, -1), ...request.slice(-1).map(withBreakpoint)] });
  return [...request, { role: "assistant", content: response.content }];
}
