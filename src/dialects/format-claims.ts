// Which format a message is in, told by the marks only one format has. Kept apart from the
// dialects themselves so that what needs only the format of a message (the estimate, which counts a
// message's images as its own format holds them) does not carry every dialect's other readers.
import { someRecord } from "./content-parts.js";
import type { DialectName, MessageRecord } from "./dialect.js";

/** AI SDK part types of tool calls, results and approvals: the marks of an AI SDK message. */
export const aiSdkToolPartTypes: ReadonlySet<string> = new Set([
  "tool-call",
  "tool-result",
  "tool-approval-request",
  "tool-approval-response",
]);
/** LangChain's message types and the role each stands for. A map, not an object literal: `type: "toString"` must not find an inherited property. */
export const langchainRoles: ReadonlyMap<unknown, string> = new Map([
  ["human", "user"],
  ["ai", "assistant"],
  ["tool", "tool"],
  ["system", "system"],
  ["developer", "system"],
]);
const anthropicTypes = new Set(["tool_use", "tool_result", "thinking", "redacted_thinking"]);
/** Part kinds only Genkit has (Bedrock's blocks hold `text` too, never these). */
const genkitKeys = ["toolRequest", "toolResponse", "media", "reasoning", "data", "custom", "resource"];
const bedrockBlockKeys = [
  "text",
  "toolUse",
  "toolResult",
  "image",
  "document",
  "video",
  "reasoningContent",
  "cachePoint",
  "guardContent",
];

/** An OpenAI chat tool result: `{ role: "tool", tool_call_id }`. */
export const isChatToolResult = (m: MessageRecord): boolean =>
  m["role"] === "tool" && typeof m["tool_call_id"] === "string";
/** A pi tool result message. */
export const isPiToolResult = (m: MessageRecord): boolean => m["role"] === "toolResult";
/** Every pi assistant message says which API and why it stopped: no other format has both fields. */
export const isPiAssistant = (m: MessageRecord): boolean =>
  m["role"] === "assistant" && typeof m["api"] === "string" && typeof m["stopReason"] === "string";

// Responses item types are snake_case words (`message`, `reasoning`, `function_call`, `mcp_approval_request`):
// a type such as `toString` or `constructor` is no item of this format.
const singleWordItemTypes = new Set(["message", "reasoning", "compaction"]);
/** True for a type a Responses item can have. */
export function isItemType(type: string): boolean {
  if (singleWordItemTypes.has(type)) return true;
  if (type.length > 64 || !type.includes("_")) return false;
  // Lowercase words joined by single underscores: `__proto__` is none.
  let previous = 95;
  for (let index = 0; index < type.length; index++) {
    const code = type.charCodeAt(index);
    const isWordCharacter = (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
    if (!isWordCharacter && (code !== 95 || previous === 95)) return false;
    previous = code;
  }
  return previous !== 95;
}

// Each format's claim: true when the message can only be of that format.
export const googleGenaiClaims = (m: MessageRecord): boolean => Array.isArray(m["parts"]);
export const langchainClaims = (m: MessageRecord): boolean => langchainRoles.has(m["type"]) && m["role"] === undefined;
export function openaiResponsesClaims(m: MessageRecord): boolean {
  const type = typeof m["type"] === "string" ? m["type"] : undefined;
  return type !== undefined && isItemType(type) && (m["role"] === undefined || type === "message");
}
// A part with a `type` field belongs to another format (an AI SDK `tool` message has typed parts).
export const genkitClaims = (m: MessageRecord): boolean =>
  Array.isArray(m["content"]) &&
  (someRecord(
    m["content"],
    (part) => typeof part["type"] !== "string" && genkitKeys.some((key) => Object.hasOwn(part, key)),
  ) ||
    (m["role"] === "model" && !someRecord(m["content"], (part) => typeof part["type"] === "string")));
export const bedrockConverseClaims = (m: MessageRecord): boolean =>
  someRecord(
    m["content"],
    (block) => typeof block["type"] !== "string" && bedrockBlockKeys.some((key) => Object.hasOwn(block, key)),
  );
export const piAgentClaims = (m: MessageRecord): boolean =>
  isPiToolResult(m) || isPiAssistant(m) || someRecord(m["content"], (part) => part["type"] === "toolCall");
export const anthropicClaims = (m: MessageRecord): boolean =>
  someRecord(
    m["content"],
    (part) => anthropicTypes.has(part["type"] as string) || (part["type"] === "image" && Object.hasOwn(part, "source")),
  );
export const aiSdkClaims = (m: MessageRecord): boolean =>
  someRecord(m["content"], (part) => aiSdkToolPartTypes.has(part["type"] as string));
export const openaiChatClaims = (m: MessageRecord): boolean => Array.isArray(m["tool_calls"]) || isChatToolResult(m);

/**
 * Every format's claim, most distinctive first: a message goes to the first that claims it. OpenAI
 * chat comes last; what nobody claims reads as OpenAI chat too (a plain `{ role, content: "…" }`
 * reads the same in every format that has such messages). The registry lists its dialects in this order.
 */
export const formatOrder: readonly DialectName[] = [
  "google-genai",
  "langchain",
  "openai-responses",
  "genkit",
  "bedrock-converse",
  "pi-agent",
  "anthropic",
  "ai-sdk",
  "openai-chat",
];
/**
 * The claim of a message that OpenAI chat's own marks name (a `tool_calls` list, a `tool` result).
 * Marked pure so that a bundle which never asks for it leaves out the call and the list it reads.
 */
export const OPENAI_CHAT = /* @__PURE__ */ formatOrder.indexOf("openai-chat");
const claimsInOrder = [
  googleGenaiClaims,
  langchainClaims,
  openaiResponsesClaims,
  genkitClaims,
  bedrockConverseClaims,
  piAgentClaims,
  anthropicClaims,
  aiSdkClaims,
  openaiChatClaims,
];

/**
 * Where the formats of one call's messages are told, each once: the transcript's messages by index
 * (read when the call starts), any other message the call meets (a copy it made, a summary it
 * wrote) by object, the first time it is met.
 */
export interface MessageFormats {
  /** The index in `formatOrder` of the message at `index` of the transcript (see `claimIndexOf`). */
  at(index: number): number;
  /** The same for any message of this call. */
  of(message: object): number;
  /** Records the format of a copy a dialect made of one of the call's messages (it keeps its shape), so that it is never told. */
  adopt(copy: object, claim: number): void;
}

/** The formats of a list of one call's messages (a slice, a tail with cut copies), by the list's own indices. */
export function listFormats(list: readonly object[], formats: MessageFormats): MessageFormats {
  return {
    at: (index) => formats.of(list[index] as object),
    of: (message) => formats.of(message),
    adopt: (copy, claim) => formats.adopt(copy, claim),
  };
}

/**
 * Hears every time a message's format is told (`claimIndexOf`, however it is reached): what shows
 * that a call reads each message's format once.
 * @internal
 */
export const formatReads: { observe: ((message: object) => void) | undefined } = { observe: undefined };

// Every stage of a plan asks again about the same messages, so a message that a format claims is
// told once and then looked up. A message that shows a format's own marks (a `tool_use` block, a
// `parts` array) keeps that format; a plain one is not remembered, since content added to it later
// may be what tells its format.
const claimed = new WeakMap<object, number>();

/** The claim of a message no format claims: it reads as OpenAI chat. */
export const UNCLAIMED = -1;
/**
 * The claim of a plain `{ role, content: "…" }` message: no format claims it either (it reads as
 * OpenAI chat), and what was read to tell that also shows it carries neither a format's marks nor a
 * list of parts, which the estimate uses (see `estimateListlessMessageTokens`).
 */
export const PLAIN_TEXT = -2;

/**
 * The index in `formatOrder` of the format that claims the message; `UNCLAIMED` or `PLAIN_TEXT`
 * (below 0 either way) for a message no format claims (it reads as OpenAI chat).
 */
export function claimIndexOf(message: object): number {
  formatReads.observe?.(message);
  const m = message as MessageRecord;
  // The commonest message of all, `{ role, content: "…" }`, reads the same in every format: no
  // format's marks can be on it (a `parts` array, a pi tool result or assistant message aside).
  // Told before the remembered claims are looked up, which never hold it.
  if (
    typeof m["content"] === "string" &&
    m["type"] === undefined &&
    m["tool_calls"] === undefined &&
    m["role"] !== "tool" &&
    m["parts"] === undefined &&
    m["role"] !== "toolResult" &&
    m["api"] === undefined
  ) {
    return PLAIN_TEXT;
  }
  const known = claimed.get(message);
  if (known !== undefined) return known;
  for (let index = 0; index < claimsInOrder.length; index++) {
    if (claimsInOrder[index]!(m)) {
      claimed.set(message, index);
      return index;
    }
  }
  return UNCLAIMED;
}
