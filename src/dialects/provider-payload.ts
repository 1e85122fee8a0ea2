// What the provider receives of a message, when that is not the message's own JSON: what the
// estimate counts. Kept apart from the dialects' other readers so the estimate carries only this.
import type { MessageRecord } from "./dialect.js";
import { isPiAssistant, isPiToolResult } from "./format-claims.js";
import { mastraPayload } from "./mastra-prompt.js";

/** The fields of a LangChain message that reach the provider: what its estimate counts. */
const langchainPayloadFields = ["content", "tool_calls", "tool_call_id", "name", "id"];

/**
 * For a LangChain message instance, what the provider receives of it (its type, content, tool
 * calls and ids), as a plain object to estimate; undefined for anything else. An instance's own
 * JSON is LangChain's serialization wrapper (`lc`, `kwargs`, class path, metadata), which is
 * slower to build and counts about a quarter more than the message says.
 */
export function langchainPayload(message: object): object | undefined {
  const m = message as MessageRecord;
  if (typeof m["lc_kwargs"] !== "object" || m["lc_kwargs"] === null) return undefined;
  const payload: MessageRecord = { type: m["type"] };
  for (const name of langchainPayloadFields) {
    const value = m[name];
    if (value !== undefined && !(Array.isArray(value) && value.length === 0)) payload[name] = value;
  }
  return payload;
}

/**
 * For a pi assistant or tool-result message, what the provider receives of it (role, content, tool
 * ids and name, the error flag), as a plain object to estimate; undefined for anything else. The
 * rest is pi's bookkeeping, never sent: usage and cost, API, provider, model, timestamps, and a
 * tool result's `details` for the UI, which can be far larger than what the model sees.
 */
export function piPayload(message: object): object | undefined {
  const m = message as MessageRecord;
  if (isPiToolResult(m))
    return {
      role: "toolResult",
      toolCallId: m["toolCallId"],
      toolName: m["toolName"],
      content: m["content"],
      isError: m["isError"],
    };
  if (isPiAssistant(m)) return { role: "assistant", content: m["content"] };
  return undefined;
}

/**
 * What the provider receives of a message, when that is not the message's own JSON: a LangChain
 * instance without its serialization wrapper, a pi message without pi's bookkeeping (usage,
 * timestamps, a tool result's UI details), a message of a Mastra prompt without Mastra's
 * `providerOptions.mastra`. Undefined for every other message.
 */
export function providerPayload(message: object): object | undefined {
  return langchainPayload(message) ?? piPayload(message) ?? mastraPayload(message);
}

/**
 * True when the message's own JSON is what the provider receives and its content is no list of
 * parts (text, null or missing): no Mastra stamp (`providerOptions`), no Responses `output` list,
 * no LangChain wrapper (`lc_kwargs`). The estimate of such a message is its JSON's bytes / 4 alone.
 */
export function isPlainJsonMessage(message: MessageRecord): boolean {
  return (
    !Array.isArray(message["content"]) &&
    message["providerOptions"] === undefined &&
    message["output"] === undefined &&
    message["lc_kwargs"] === undefined
  );
}
