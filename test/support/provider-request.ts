// What a caller sends to the provider for a transcript of one of the library's formats: the list
// as it is (Anthropic's and Bedrock's callers keep the system prompt apart, in `system`),
// @openai/agents items spelt as the Responses API takes them, LangChain messages as ChatOpenAI
// sends them. Then the checkers of ./provider-rules say what the provider
// would refuse. The AI SDK's requests are made by its real provider packages (./provider-rules/ai-sdk-wire.ts).
import {
  providerViolations,
  type ProviderFormat,
  type ProviderRequest,
  type Violation,
} from "./provider-rules/index.js";
import type { DialectName } from "./transcripts.js";

type Message = Record<string, unknown>;

/** The provider request a caller sends for a transcript, and which checker reads it; undefined for a format no checker covers here. */
export function providerRequest(
  dialect: DialectName,
  messages: readonly object[],
  settings: Partial<ProviderRequest> = {},
): { format: ProviderFormat; request: ProviderRequest } | undefined {
  const list = messages as readonly Message[];
  switch (dialect) {
    case "openai-chat":
      return { format: "openai-chat", request: { messages: list, ...settings } };
    case "anthropic":
    case "bedrock-converse":
      // The caller passes its system prompt as `system` and the list as it is: a system message in
      // the list (a summary the library wrote with the system role) reaches `messages`.
      return { format: dialect, request: { messages: list, ...settings } };
    case "openai-responses":
      return { format: "openai-responses", request: { messages: list.map(responsesItem), ...settings } };
    case "google-genai":
      return { format: "google-genai", request: { messages: list, ...settings } };
    case "genkit":
      return { format: "genkit-gemini", request: { messages: list, ...settings } };
    case "langchain":
      return { format: "openai-chat", request: { messages: list.map(langchainAsChat), ...settings } };
    default:
      return undefined;
  }
}

/** The checkers' verdict on the request a caller sends for the transcript. */
export function requestViolations(
  dialect: DialectName,
  messages: readonly object[],
  settings: Partial<ProviderRequest> = {},
): Violation[] {
  const made = providerRequest(dialect, messages, settings);
  return made === undefined ? [] : providerViolations(made.format, made.request);
}

/** An @openai/agents item as the Responses API takes it (`call_id`, `function_call_output`), as the Agents SDK sends it. */
function responsesItem(item: Message): Message {
  if (item["type"] === "function_call_result") {
    return { type: "function_call_output", call_id: item["callId"] ?? item["call_id"], output: item["output"] };
  }
  if (item["type"] === "function_call" && item["callId"] !== undefined) {
    const { callId, ...rest } = item;
    return { ...rest, call_id: callId };
  }
  return item;
}

/** A LangChain message (instance or plain) as ChatOpenAI sends it. */
function langchainAsChat(message: Message): Message {
  const type = typeof message["_getType"] === "function" ? (message["_getType"] as () => string)() : message["type"];
  if (type === undefined) return message;
  const content = message["content"];
  switch (type) {
    case "human":
      return { role: "user", content };
    case "system":
      return { role: "system", content };
    case "tool":
      return {
        role: "tool",
        tool_call_id: message["tool_call_id"],
        content: typeof content === "string" ? content : JSON.stringify(content),
      };
    case "ai": {
      const calls = (message["tool_calls"] as Message[] | undefined) ?? [];
      return calls.length === 0
        ? { role: "assistant", content }
        : {
            role: "assistant",
            content: typeof content === "string" && content !== "" ? content : null,
            tool_calls: calls.map((call) => ({
              id: call["id"],
              type: "function",
              function: { name: call["name"], arguments: JSON.stringify(call["args"] ?? {}) },
            })),
          };
    }
    default:
      return { role: String(type), content };
  }
}
