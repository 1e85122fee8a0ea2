import OpenAI from "openai";
import { compact, estimateTokens, type CompactorOptions } from "context-compactor";
import { isContextOverflowError } from "context-compactor/expert";

type Message = OpenAI.ChatCompletionMessageParam;

/**
 * One model call that survives the provider's "context length exceeded": the count was wrong (a
 * tokenizer the estimate does not match, tool definitions nobody counted), so compact harder and
 * retry once. The caller keeps the returned messages.
 */
export async function createWithRecovery(client: OpenAI, model: string, messages: Message[], options: CompactorOptions<Message>) {
  try {
    return { messages, response: await client.chat.completions.create({ model, messages }) };
  } catch (error) {
    if (!isContextOverflowError(error)) throw error;
    const maxTokens = Math.floor(Math.min(options.maxTokens, estimateTokens(messages)) * 0.6);
    const compacted = await compact(messages, { ...options, maxTokens, keepTail: Math.floor(maxTokens / 2), summary: { ...options.summary, maxTokens: Math.floor(maxTokens / 4) }, force: true });
    const retried = compacted?.messages ?? messages;
    return { messages: retried, response: await client.chat.completions.create({ model, messages: retried }) };
  }
}
