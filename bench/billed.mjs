// What a chat API bills for a message, with o200k (gpt-tokenizer) standing in for the provider's
// tokenizer: its text, its tool names and arguments (or an AI SDK message's tool parts), and 4
// tokens of framing. Cached per message object: the replays count the same objects turn after turn.
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";

/**
 * o200k tokens of a text, counted once per text: a policy that rebuilds its messages on every step
 * (the AI SDK's pruning, a store read back) hands over new objects with the same texts, and the
 * tokenizer took nine tenths of `bench:cost`'s time counting them again. Short texts are cheap to
 * count and are not kept.
 */
const counts = new Map();
export function o200k(text) {
  if (text.length < 64) return countTokens(text);
  let count = counts.get(text);
  if (count === undefined) counts.set(text, (count = countTokens(text)));
  return count;
}

const cache = new WeakMap();

/** Billed tokens of one message. */
export function billed(message) {
  let count = cache.get(message);
  if (count !== undefined) return count;
  const content = message.content;
  let text = typeof content === "string" ? content : "";
  if (Array.isArray(content)) {
    for (const part of content) {
      if (typeof part?.text === "string") text += part.text;
      else if (part?.type === "tool-call") text += `${part.toolName}${JSON.stringify(part.input)}`;
      else if (part?.type === "tool-result")
        text += typeof part.output?.value === "string" ? part.output.value : JSON.stringify(part.output ?? "");
    }
  }
  count = o200k(text) + 4;
  for (const call of message.tool_calls ?? [])
    count += o200k(call.function?.name ?? "") + o200k(call.function?.arguments ?? "");
  cache.set(message, count);
  return count;
}

/** Billed tokens of a list of messages. */
export const billedList = (list) => list.reduce((sum, message) => sum + billed(message), 0);
