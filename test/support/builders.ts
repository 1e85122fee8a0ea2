// Messages for tests, in every dialect the library reads.
//
// Shape: `builders[dialect]` holds the same verbs for each format, each returning that format's own
// message (checked against the provider's SDK type with `satisfies`):
//
//   system(text)                          where the format's messages hold one (not Anthropic, Gemini, Bedrock, pi)
//   user(text)    assistant(text)         a plain text message
//   toolCall(id, name, input?, options?)  one assistant message holding one call (`options.text` leads it)
//   toolResult(id, output, options?)      the message answering it (`options.name`: the tool's name, "tool" by default)
//   toolCalls(calls, options?)            the messages that carry several calls made at once
//   toolResults(results)                  the messages that carry their results, grouped as the format groups them
//
// Beside them: `piAssistant(content, stopReason)` (a pi assistant message with the fields pi's
// providers fill in) and `responsesReply(output)` (a whole Responses API answer for a stub model).
//
// `input` is a JSON value; formats that carry arguments as text (OpenAI chat and Responses) take a
// string as the arguments text itself and `JSON.stringify` anything else. Gemini and Genkit take
// `undefined` for an id: they pair calls and responses in order.
//
//   import { builders } from "./support/builders.js";
//   const { user, toolCall, toolResult } = builders.anthropic;
//   const messages = [user("Find A"), toolCall("a", "lookup", { q: "A" }), toolResult("a", "found A")];
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages";
import type { Message as BedrockMessage } from "@aws-sdk/client-bedrock-runtime";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import type {
  AssistantMessage as PiAssistantMessage,
  ToolResultMessage as PiToolResultMessage,
  UserMessage as PiUserMessage,
} from "@mariozechner/pi-ai";
import type { protocol } from "@openai/agents";
import type { Content } from "@google/genai";
import type { AssistantModelMessage, SystemModelMessage, ToolModelMessage, UserContent, UserModelMessage } from "ai";
import type { MessageData } from "genkit";
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionSystemMessageParam,
  ChatCompletionToolMessageParam,
  ChatCompletionUserMessageParam,
} from "openai/resources/chat/completions";
import type {
  EasyInputMessage,
  ResponseFunctionToolCall,
  ResponseInputItem,
} from "openai/resources/responses/responses";
import type { DialectName } from "../../src/index.js";

/** One call among several made at once. */
export interface CallSpec {
  id: string;
  name: string;
  input?: unknown;
}
/** The result of one call. */
export interface ResultSpec {
  id: string;
  output: string;
  name?: string;
}
export interface CallOptions {
  /** Text the assistant wrote before its calls. */
  text?: string;
}
export interface ResultOptions {
  /** The tool's name, where the format carries it: "tool" by default. */
  name?: string;
}

const argumentText = (input: unknown): string => (typeof input === "string" ? input : JSON.stringify(input));
const leadingText = <T>(text: string | undefined, part: (text: string) => T): T[] => (text ? [part(text)] : []);

/** OpenAI Chat Completions (`openai`'s `ChatCompletionMessageParam`). */
const openaiChat = {
  system: (text: string) => ({ role: "system", content: text }) satisfies ChatCompletionSystemMessageParam,
  user: (text: string) => ({ role: "user", content: text }) satisfies ChatCompletionUserMessageParam,
  assistant: (text: string) => ({ role: "assistant", content: text }) satisfies ChatCompletionAssistantMessageParam,
  toolCall: (id: string, name: string, input: unknown = {}, options: CallOptions = {}) =>
    openaiChat.toolCalls([{ id, name, input }], options)[0]!,
  toolCalls: (calls: readonly CallSpec[], options: CallOptions = {}) => [
    {
      role: "assistant",
      content: options.text || null,
      tool_calls: calls.map(({ id, name, input = {} }) => ({
        id,
        type: "function",
        function: { name, arguments: argumentText(input) },
      })),
    } satisfies ChatCompletionAssistantMessageParam,
  ],
  toolResult: (id: string, output: string) =>
    ({ role: "tool", tool_call_id: id, content: output }) satisfies ChatCompletionToolMessageParam,
  toolResults: (results: readonly ResultSpec[]) => results.map(({ id, output }) => openaiChat.toolResult(id, output)),
};

/** Anthropic Messages (`@anthropic-ai/sdk`'s `MessageParam`): the system prompt is a request field, not a message. */
const anthropic = {
  user: (content: MessageParam["content"]) => ({ role: "user", content }) satisfies MessageParam,
  assistant: (content: MessageParam["content"]) => ({ role: "assistant", content }) satisfies MessageParam,
  toolCall: (id: string, name: string, input: unknown = {}, options: CallOptions = {}) =>
    anthropic.toolCalls([{ id, name, input }], options)[0]!,
  toolCalls: (calls: readonly CallSpec[], options: CallOptions = {}) => [
    {
      role: "assistant",
      content: [
        ...leadingText(options.text, (text) => ({ type: "text" as const, text })),
        ...calls.map(({ id, name, input = {} }) => ({ type: "tool_use" as const, id, name, input })),
      ],
    } satisfies MessageParam,
  ],
  toolResult: (id: string, output: string) => anthropic.toolResults([{ id, output }])[0]!,
  // The results of one round go in one user message (the API refuses them split).
  toolResults: (results: readonly ResultSpec[]) => [
    {
      role: "user",
      content: results.map(({ id, output }) => ({ type: "tool_result" as const, tool_use_id: id, content: output })),
    } satisfies MessageParam,
  ],
};

/** AI SDK (`ai`'s `ModelMessage`). */
const aiSdk = {
  system: (text: string) => ({ role: "system", content: text }) satisfies SystemModelMessage,
  user: (content: UserContent) => ({ role: "user", content }) satisfies UserModelMessage,
  assistant: (text: string) => ({ role: "assistant", content: text }) satisfies AssistantModelMessage,
  toolCall: (id: string, name: string, input: unknown = {}, options: CallOptions = {}) =>
    aiSdk.toolCalls([{ id, name, input }], options)[0]!,
  toolCalls: (calls: readonly CallSpec[], options: CallOptions = {}) => [
    {
      role: "assistant",
      content: [
        ...leadingText(options.text, (text) => ({ type: "text" as const, text })),
        ...calls.map(({ id, name, input = {} }) => ({
          type: "tool-call" as const,
          toolCallId: id,
          toolName: name,
          input,
        })),
      ],
    } satisfies AssistantModelMessage,
  ],
  toolResult: (id: string, output: string, options: ResultOptions = {}) =>
    aiSdk.toolResults([{ id, output, name: options.name ?? "tool" }])[0]!,
  toolResults: (results: readonly ResultSpec[]) => [
    {
      role: "tool",
      content: results.map(({ id, output, name = "tool" }) => ({
        type: "tool-result" as const,
        toolCallId: id,
        toolName: name,
        output: { type: "text" as const, value: output },
      })),
    } satisfies ToolModelMessage,
  ],
};

export interface ResponsesOptions {
  /**
   * `"api"` (the default): the Responses API's own items (`call_id`, `function_call_output`);
   * `"agents"`: `@openai/agents`' items (`callId`, `function_call_result` with the tool's name and a status).
   */
  items?: "api" | "agents";
}
export interface ResponsesTextOptions {
  /** An `EasyInputMessage` (`{ role, content: text }`) instead of a `message` item with `input_text` parts. */
  easy?: boolean;
}

const responsesText = (role: "system" | "user", text: string, options: ResponsesTextOptions) =>
  options.easy
    ? ({ role, content: text } satisfies EasyInputMessage)
    : ({ type: "message", role, content: [{ type: "input_text" as const, text }] } satisfies ResponseInputItem.Message);

/** OpenAI Responses items: the raw API's (`openai`'s `ResponseInputItem`) or `@openai/agents`' (`AgentInputItem`). */
const openaiResponses = {
  system: (text: string, options: ResponsesTextOptions = {}) => responsesText("system", text, options),
  user: (text: string, options: ResponsesTextOptions = {}) => responsesText("user", text, options),
  assistant: (text: string) =>
    ({
      type: "message",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text" as const, text }],
    }) satisfies protocol.AssistantMessageItem,
  toolCall: (id: string, name: string, input: unknown = {}, options: ResponsesOptions = {}) =>
    options.items === "agents"
      ? ({
          type: "function_call",
          callId: id,
          name,
          arguments: argumentText(input),
          status: "completed",
        } satisfies protocol.FunctionCallItem)
      : ({
          type: "function_call",
          call_id: id,
          name,
          arguments: argumentText(input),
        } satisfies ResponseFunctionToolCall),
  // Each call is an item of its own; text before them is an assistant message item.
  toolCalls: (calls: readonly CallSpec[], options: CallOptions & ResponsesOptions = {}) => [
    ...leadingText(options.text, openaiResponses.assistant),
    ...calls.map(({ id, name, input }) => openaiResponses.toolCall(id, name, input, options)),
  ],
  toolResult: (id: string, output: string, options: ResultOptions & ResponsesOptions = {}) =>
    options.items === "agents"
      ? ({
          type: "function_call_result",
          callId: id,
          name: options.name ?? "tool",
          status: "completed",
          output,
        } satisfies protocol.FunctionCallResultItem)
      : ({ type: "function_call_output", call_id: id, output } satisfies ResponseInputItem.FunctionCallOutput),
  toolResults: (results: readonly ResultSpec[], options: ResponsesOptions = {}) =>
    results.map(({ id, output, name }) =>
      openaiResponses.toolResult(id, output, { ...options, ...(name === undefined ? {} : { name }) }),
    ),
};

/** A call or response id where there is one: Gemini and Genkit pair those without one in order. */
const optionalId = <K extends string>(key: K, id: string | undefined) =>
  id === undefined ? {} : ({ [key]: id } as Record<K, string>);

/** Google Gen AI (`@google/genai`'s `Content`): the system prompt is `systemInstruction`, not a message. */
const googleGenai = {
  user: (text: string) => ({ role: "user", parts: [{ text }] }) satisfies Content,
  assistant: (text: string) => ({ role: "model", parts: [{ text }] }) satisfies Content,
  toolCall: (id: string | undefined, name: string, input: unknown = {}, options: CallOptions = {}) =>
    googleGenai.toolCalls([{ id, name, input }], options)[0]!,
  toolCalls: (calls: readonly (Omit<CallSpec, "id"> & { id: string | undefined })[], options: CallOptions = {}) => [
    {
      role: "model",
      parts: [
        ...leadingText(options.text, (text) => ({ text })),
        ...calls.map(({ id, name, input = {} }) => ({
          functionCall: { ...optionalId("id", id), name, args: input as Record<string, unknown> },
        })),
      ],
    } satisfies Content,
  ],
  toolResult: (id: string | undefined, output: string, options: ResultOptions = {}) =>
    googleGenai.toolResults([{ id, output, name: options.name ?? "tool" }])[0]!,
  // The responses to one round go in one user turn.
  toolResults: (results: readonly (Omit<ResultSpec, "id"> & { id: string | undefined })[]) => [
    {
      role: "user",
      parts: results.map(({ id, output, name = "tool" }) => ({
        functionResponse: { ...optionalId("id", id), name, response: { output } },
      })),
    } satisfies Content,
  ],
};

export interface BedrockResultOptions {
  /** The result's `status`: "success" by default; `null` leaves the optional field out. */
  status?: "success" | "error" | null;
}

/** Amazon Bedrock Converse (`@aws-sdk/client-bedrock-runtime`'s `Message`): the system prompt is a request field. */
const bedrockConverse = {
  user: (text: string) => ({ role: "user", content: [{ text }] }) satisfies BedrockMessage,
  assistant: (text: string) => ({ role: "assistant", content: [{ text }] }) satisfies BedrockMessage,
  toolCall: (id: string, name: string, input: unknown = {}, options: CallOptions = {}) =>
    bedrockConverse.toolCalls([{ id, name, input }], options)[0]!,
  toolCalls: (calls: readonly CallSpec[], options: CallOptions = {}) => [
    {
      role: "assistant",
      content: [
        ...leadingText(options.text, (text) => ({ text })),
        ...calls.map(({ id, name, input = {} }) => ({ toolUse: { toolUseId: id, name, input: input as never } })),
      ],
    } satisfies BedrockMessage,
  ],
  toolResult: (id: string, output: string, options: BedrockResultOptions = {}) =>
    bedrockConverse.toolResults([{ id, output }], options)[0]!,
  toolResults: (results: readonly ResultSpec[], options: BedrockResultOptions = {}) => [
    {
      role: "user",
      content: results.map(({ id, output }) => {
        const status = options.status === undefined ? "success" : options.status;
        return { toolResult: { toolUseId: id, content: [{ text: output }], ...(status === null ? {} : { status }) } };
      }),
    } satisfies BedrockMessage,
  ],
};

/** LangChain (`@langchain/core/messages`): class instances, not plain JSON. */
const langchain = {
  system: (text: string) => new SystemMessage(text),
  user: (text: string) => new HumanMessage(text),
  assistant: (text: string) => new AIMessage(text),
  toolCall: (id: string, name: string, input: unknown = {}, options: CallOptions = {}) =>
    langchain.toolCalls([{ id, name, input }], options)[0]!,
  toolCalls: (calls: readonly CallSpec[], options: CallOptions = {}) => [
    new AIMessage({
      content: options.text ?? "",
      tool_calls: calls.map(({ id, name, input = {} }) => ({ id, name, args: input as Record<string, unknown> })),
    }),
  ],
  // `name` is optional on a ToolMessage: left out unless given.
  toolResult: (id: string, output: string, options: ResultOptions = {}) =>
    new ToolMessage({
      content: output,
      tool_call_id: id,
      ...(options.name === undefined ? {} : { name: options.name }),
    }),
  toolResults: (results: readonly ResultSpec[]) =>
    results.map(({ id, output, name }) => langchain.toolResult(id, output, name === undefined ? {} : { name })),
};

export interface PiOptions {
  /** The message's `timestamp`: 1 by default. */
  timestamp?: number;
}
export interface PiResultOptions extends ResultOptions, PiOptions {
  isError?: boolean;
}

/** A pi assistant message, with the fields pi's providers fill in. */
export function piAssistant(
  content: PiAssistantMessage["content"],
  stopReason: "stop" | "toolUse",
  options: PiOptions = {},
) {
  const usage = {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
  return {
    role: "assistant",
    content,
    api: "faux",
    provider: "faux",
    model: "faux-1",
    usage,
    stopReason,
    timestamp: options.timestamp ?? 1,
  } satisfies PiAssistantMessage;
}

/** pi (`@mariozechner/pi-ai`'s `Message`): the system prompt travels beside the messages; each result is a message of its own. */
const piAgent = {
  user: (text: string, options: PiOptions = {}) =>
    ({ role: "user", content: text, timestamp: options.timestamp ?? 1 }) satisfies PiUserMessage,
  assistant: (text: string, options: PiOptions = {}) => piAssistant([{ type: "text", text }], "stop", options),
  toolCall: (id: string, name: string, input: unknown = {}, options: CallOptions & PiOptions = {}) =>
    piAgent.toolCalls([{ id, name, input }], options)[0]!,
  toolCalls: (calls: readonly CallSpec[], options: CallOptions & PiOptions = {}) => [
    piAssistant(
      [
        ...leadingText(options.text, (text) => ({ type: "text" as const, text })),
        ...calls.map(({ id, name, input = {} }) => ({
          type: "toolCall" as const,
          id,
          name,
          arguments: input as Record<string, unknown>,
        })),
      ],
      "toolUse",
      options,
    ),
  ],
  toolResult: (id: string, output: string, options: PiResultOptions = {}) =>
    ({
      role: "toolResult",
      toolCallId: id,
      toolName: options.name ?? "tool",
      content: [{ type: "text", text: output }],
      isError: options.isError ?? false,
      timestamp: options.timestamp ?? 1,
    }) satisfies PiToolResultMessage,
  toolResults: (results: readonly ResultSpec[], options: PiOptions = {}) =>
    results.map(({ id, output, name }) =>
      piAgent.toolResult(id, output, { ...options, ...(name === undefined ? {} : { name }) }),
    ),
};

/** Genkit (`genkit`'s `MessageData`). */
const genkit = {
  system: (text: string) => ({ role: "system", content: [{ text }] }) satisfies MessageData,
  user: (text: string) => ({ role: "user", content: [{ text }] }) satisfies MessageData,
  assistant: (text: string) => ({ role: "model", content: [{ text }] }) satisfies MessageData,
  toolCall: (ref: string | undefined, name: string, input: unknown = {}, options: CallOptions = {}) =>
    genkit.toolCalls([{ id: ref, name, input }], options)[0]!,
  toolCalls: (calls: readonly (Omit<CallSpec, "id"> & { id: string | undefined })[], options: CallOptions = {}) => [
    {
      role: "model",
      content: [
        ...leadingText(options.text, (text) => ({ text })),
        ...calls.map(({ id, name, input = {} }) => ({ toolRequest: { ...optionalId("ref", id), name, input } })),
      ],
    } satisfies MessageData,
  ],
  toolResult: (ref: string | undefined, output: string, options: ResultOptions = {}) =>
    genkit.toolResults([{ id: ref, output, name: options.name ?? "tool" }])[0]!,
  // The responses to one round go in one `tool` message.
  toolResults: (results: readonly (Omit<ResultSpec, "id"> & { id: string | undefined })[]) => [
    {
      role: "tool",
      content: results.map(({ id, output, name = "tool" }) => ({
        toolResponse: { ...optionalId("ref", id), name, output },
      })),
    } satisfies MessageData,
  ],
};

/** The builders of every dialect, by name. */
export const builders = {
  "openai-chat": openaiChat,
  anthropic,
  "ai-sdk": aiSdk,
  "openai-responses": openaiResponses,
  "google-genai": googleGenai,
  "bedrock-converse": bedrockConverse,
  langchain,
  "pi-agent": piAgent,
  genkit,
} satisfies Record<DialectName, object>;

/** A Responses API answer, as a stub model sends it to `@openai/agents`: `output` holds its items. */
export function responsesReply(output: object[]) {
  return {
    id: `resp_${Math.random().toString(36).slice(2)}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status: "completed",
    model: "stub-model",
    output,
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
    usage: {
      input_tokens: 1,
      output_tokens: 1,
      total_tokens: 2,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
  };
}
