// How each of the four message dialects marks tool calls and tool results.
//
// | dialect            | tool call                                   | tool result                                         |
// | OpenAI chat        | assistant `tool_calls[].id`                 | `{ role: "tool", tool_call_id }`                    |
// | Anthropic Messages | content block `{ type: "tool_use", id }`    | user content block `{ type: "tool_result", tool_use_id }` |
// | Vercel AI SDK      | content part `{ type: "tool-call", toolCallId }` | tool content part `{ type: "tool-result", toolCallId }` |
// | OpenAI Responses   | item `{ type: "function_call", callId }`    | item `{ type: "function_call_output" | "function_call_result", callId }` |
//
// Responses items carry the id as `callId` (@openai/agents) or `call_id` (the raw API). The other
// Responses tools (computer, shell, apply_patch, tool search) pair up the same way: a `*_call`
// item answered by a `*_output` or `*_result` item with the same id.

import { FLUSH_TO_MEMORY_REMINDER, SUMMARY_PREFIX } from "../hook/constants.js";

type Loose = Record<string, unknown>;

/** The kind of transcript, detected from its messages. */
export type Dialect = "openai-chat" | "anthropic" | "ai-sdk" | "openai-responses";

function responsesCallId(item: Loose): string | undefined {
  const id = item["callId"] ?? item["call_id"];
  return typeof id === "string" ? id : undefined;
}

function isResponsesResultType(type: string): boolean {
  return type.endsWith("_output") || type.endsWith("_result");
}

// Hosted tools run on the provider's side and never get a result item in the transcript.
function isResponsesCallType(type: string): boolean {
  return type.endsWith("_call") && type !== "hosted_tool_call";
}

/** Calls `visit` with the id of every tool call the message makes. */
export function forEachToolCall(message: object, visit: (id: string) => void): void {
  const m = message as Loose;
  const type = m["type"];
  if (typeof type === "string" && isResponsesCallType(type)) {
    const id = responsesCallId(m);
    if (id !== undefined) visit(id);
    return;
  }
  const toolCalls = m["tool_calls"];
  if (Array.isArray(toolCalls)) {
    for (const call of toolCalls) {
      const id = (call as Loose | null)?.["id"];
      if (typeof id === "string") visit(id);
    }
  }
  const content = m["content"];
  if (Array.isArray(content)) {
    for (const part of content) {
      if (typeof part !== "object" || part === null) continue;
      const p = part as Loose;
      if (p["type"] === "tool_use" && typeof p["id"] === "string") visit(p["id"]);
      else if (p["type"] === "tool-call" && typeof p["toolCallId"] === "string") visit(p["toolCallId"]);
    }
  }
}

/** Calls `visit` with the id of every tool call the message answers. */
export function forEachToolResult(message: object, visit: (id: string) => void): void {
  const m = message as Loose;
  const type = m["type"];
  if (typeof type === "string" && isResponsesResultType(type)) {
    const id = responsesCallId(m);
    if (id !== undefined) visit(id);
    return;
  }
  if (m["role"] === "tool" && typeof m["tool_call_id"] === "string") {
    visit(m["tool_call_id"]);
    return;
  }
  const content = m["content"];
  if (Array.isArray(content)) {
    for (const part of content) {
      if (typeof part !== "object" || part === null) continue;
      const p = part as Loose;
      if (p["type"] === "tool_result" && typeof p["tool_use_id"] === "string") visit(p["tool_use_id"]);
      else if (p["type"] === "tool-result" && typeof p["toolCallId"] === "string") visit(p["toolCallId"]);
    }
  }
}

/** True when the message answers at least one tool call. */
function carriesToolResult(message: object): boolean {
  let found = false;
  forEachToolResult(message, () => {
    found = true;
  });
  return found;
}

const textPartTypes = new Set(["text", "input_text", "output_text"]);

/** The message's text when its content is a string, else the text of its first text block. */
export function leadingText(message: object): string | undefined {
  const content = (message as Loose)["content"];
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  for (const part of content) {
    if (typeof part !== "object" || part === null) continue;
    const p = part as Loose;
    if (typeof p["type"] === "string" && textPartTypes.has(p["type"]) && typeof p["text"] === "string") {
      return p["text"];
    }
  }
  return undefined;
}

/**
 * Tells whether a message is a summary made by this library: its content (or first text block)
 * starts with `SUMMARY_PREFIX`.
 *
 * @param message - any message
 * @returns true for a summary message
 * @example
 * ```ts
 * isSummaryMessage({ role: "system", content: SUMMARY_PREFIX + "Earlier: …" }); // true
 * ```
 */
export function isSummaryMessage(message: unknown): boolean {
  if (typeof message !== "object" || message === null) return false;
  return leadingText(message)?.startsWith(SUMMARY_PREFIX) ?? false;
}

/** True for a message this library made: a summary or a flush reminder. */
export function isLibraryMessage(message: object): boolean {
  const text = leadingText(message);
  return text !== undefined && (text.startsWith(SUMMARY_PREFIX) || text === FLUSH_TO_MEMORY_REMINDER);
}

/**
 * The default boundary rule: a `role: "user"` message that carries no tool result (an Anthropic
 * user message holding `tool_result` blocks belongs to a tool group) and was not made by this library.
 */
export function isUserBoundary(message: object): boolean {
  return (message as Loose)["role"] === "user" && !carriesToolResult(message) && !isLibraryMessage(message);
}

/** True for the leading system prompt that is kept verbatim. */
export function isSystemPrompt(message: object): boolean {
  return (message as Loose)["role"] === "system" && !isSummaryMessage(message);
}

/** True for the item after which no cut may fall: a Responses reasoning item belongs to what follows it. */
export function isReasoningItem(message: object): boolean {
  return (message as Loose)["type"] === "reasoning";
}

/** Detects the dialect of a transcript from the first message that tells. Plain text chats read as OpenAI chat. */
export function detectDialect(messages: readonly object[]): Dialect {
  for (const message of messages) {
    const m = message as Loose;
    if (typeof m["type"] === "string" && (m["role"] === undefined || m["type"] === "message")) return "openai-responses";
    if (Array.isArray(m["tool_calls"]) || (m["role"] === "tool" && typeof m["tool_call_id"] === "string")) {
      return "openai-chat";
    }
    const content = m["content"];
    if (Array.isArray(content)) {
      for (const part of content) {
        const type = (part as Loose | null)?.["type"];
        if (type === "tool_use" || type === "tool_result") return "anthropic";
        if (type === "tool-call" || type === "tool-result") return "ai-sdk";
        if (type === "input_text" || type === "output_text") return "openai-responses";
      }
    }
  }
  return "openai-chat";
}
