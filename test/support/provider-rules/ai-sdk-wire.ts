// The HTTP bodies the AI SDK's real provider packages send for a `ModelMessage[]`, recorded by a fetch that answers every call with
// a minimal valid provider response (no network), and those bodies checked with the provider checkers in this folder.
import { createAmazonBedrock } from "@ai-sdk/amazon-bedrock";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import {
  type LanguageModel,
  type ModelMessage,
  type ProviderMetadata,
  type ToolSet,
  generateText,
  jsonSchema,
  tool,
} from "ai";
import { type Obj, type ProviderRequest, type Violation, isObj } from "./common.js";
import { type ProviderFormat, providerViolations } from "./index.js";

export type WireFormat = Exclude<ProviderFormat, "genkit-gemini">;
export const WIRE_FORMATS: readonly WireFormat[] = [
  "anthropic",
  "openai-chat",
  "openai-responses",
  "google-genai",
  "bedrock-converse",
];

export interface WireOptions {
  system?: string;
  /** Tools to declare; by default one schemaless tool per tool name used in the messages. */
  tools?: ToolSet;
  /** Passed to `generateText` as is, e.g. `{ anthropic: { thinking: { type: "enabled", budgetTokens: 1024 } } }`. */
  providerOptions?: ProviderMetadata;
  /** Model ids, to replace the defaults (claude-sonnet-4-6, gpt-4o, gemini-2.5-flash, a Bedrock Claude). */
  models?: Partial<Record<WireFormat, string>>;
}

/** What one provider package produced: the request body it sent, or the error it threw before or while sending. */
export interface WireResult {
  body?: Obj;
  error?: unknown;
}

const REPLIES: Record<WireFormat, unknown> = {
  anthropic: {
    id: "msg_stub",
    type: "message",
    role: "assistant",
    model: "claude-stub",
    content: [{ type: "text", text: "ok" }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  },
  "openai-chat": {
    id: "chatcmpl-stub",
    object: "chat.completion",
    created: 0,
    model: "gpt-stub",
    choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  },
  "openai-responses": {
    id: "resp_stub",
    object: "response",
    created_at: 0,
    model: "gpt-stub",
    status: "completed",
    incomplete_details: null,
    output: [
      {
        type: "message",
        id: "msg_stub",
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: "ok", annotations: [] }],
      },
    ],
    usage: {
      input_tokens: 1,
      output_tokens: 1,
      total_tokens: 2,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
  },
  "google-genai": {
    candidates: [{ content: { role: "model", parts: [{ text: "ok" }] }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
  },
  "bedrock-converse": {
    output: { message: { role: "assistant", content: [{ text: "ok" }] } },
    stopReason: "end_turn",
    usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
    metrics: { latencyMs: 1 },
  },
};

function recordingFetch(format: WireFormat, bodies: Obj[]): typeof fetch {
  return (async (_input: unknown, init?: { body?: unknown }) => {
    const raw = init?.body;
    const text =
      typeof raw === "string" ? raw : raw instanceof Uint8Array ? new TextDecoder().decode(raw) : String(raw);
    bodies.push(JSON.parse(text) as Obj);
    return new Response(JSON.stringify(REPLIES[format]), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  }) as typeof fetch;
}

const DEFAULT_MODELS: Record<WireFormat, string> = {
  anthropic: "claude-sonnet-4-6",
  "openai-chat": "gpt-4o",
  "openai-responses": "gpt-4o",
  "google-genai": "gemini-2.5-flash",
  "bedrock-converse": "anthropic.claude-3-5-sonnet-20241022-v2:0",
};

function modelFor(format: WireFormat, fetch: typeof globalThis.fetch, id: string): LanguageModel {
  switch (format) {
    case "anthropic":
      return createAnthropic({ apiKey: "stub", fetch })(id);
    case "openai-chat":
      return createOpenAI({ apiKey: "stub", fetch }).chat(id);
    case "openai-responses":
      return createOpenAI({ apiKey: "stub", fetch }).responses(id);
    case "google-genai":
      return createGoogleGenerativeAI({ apiKey: "stub", fetch })(id);
    case "bedrock-converse":
      return createAmazonBedrock({
        region: "us-east-1",
        accessKeyId: "AKIDSTUB",
        secretAccessKey: "stub-secret",
        fetch,
      })(id);
  }
}

/** One schemaless tool per tool name the messages use, so the providers send a tool declaration as a real caller would. */
function toolsFor(messages: readonly ModelMessage[]): ToolSet {
  const names = new Set<string>();
  for (const message of messages)
    if (Array.isArray(message.content))
      for (const part of message.content as { type: string; toolName?: string }[])
        if ((part.type === "tool-call" || part.type === "tool-result") && part.toolName) names.add(part.toolName);
  const tools: ToolSet = {};
  for (const name of names)
    tools[name] = tool({
      description: name,
      inputSchema: jsonSchema({ type: "object", properties: {}, additionalProperties: true }),
    });
  return tools;
}

/** The body each provider package sends for these messages, or the error it raised. */
export async function wireBodies(
  messages: readonly ModelMessage[],
  options: WireOptions = {},
): Promise<Record<WireFormat, WireResult>> {
  const tools = options.tools ?? toolsFor(messages);
  const entries = await Promise.all(
    WIRE_FORMATS.map(async (format): Promise<[WireFormat, WireResult]> => {
      const bodies: Obj[] = [];
      try {
        await generateText({
          model: modelFor(format, recordingFetch(format, bodies), options.models?.[format] ?? DEFAULT_MODELS[format]),
          messages: [...messages],
          ...(options.system !== undefined ? { system: options.system } : {}),
          ...(Object.keys(tools).length > 0 ? { tools } : {}),
          ...(options.providerOptions ? { providerOptions: options.providerOptions } : {}),
          maxRetries: 0,
        });
        return [format, { body: bodies[0]! }];
      } catch (error) {
        return [format, bodies[0] ? { body: bodies[0], error } : { error }];
      }
    }),
  );
  return Object.fromEntries(entries) as Record<WireFormat, WireResult>;
}

/**
 * The part of a recorded body each checker reads. For Anthropic, whether thinking is on is read from the body's `thinking`
 * (`{type: "enabled" | "adaptive"}` on, absent or `disabled` off); for Gemini, `gemini3` from the model id in `models`.
 */
export function requestOf(format: WireFormat, body: Obj, modelId?: string): ProviderRequest {
  const list = (key: string) => (Array.isArray(body[key]) ? (body[key] as unknown[]) : []);
  switch (format) {
    case "anthropic": {
      const kind = isObj(body.thinking) ? body.thinking.type : undefined;
      return {
        messages: list("messages"),
        ...(body.system !== undefined ? { system: body.system } : {}),
        thinking: kind === "enabled" || kind === "adaptive",
      };
    }
    case "bedrock-converse":
      return { messages: list("messages"), ...(body.system !== undefined ? { system: body.system } : {}) };
    case "openai-chat":
      return { messages: list("messages") };
    case "openai-responses":
      return { messages: list("input") };
    case "google-genai":
      return {
        messages: list("contents"),
        ...(isObj(body.systemInstruction) ? { system: body.systemInstruction } : {}),
        gemini3: /gemini-[3-9]/.test(modelId ?? ""),
      };
  }
}

/** Per provider: the checker's violations on the body the AI SDK sent, or a `conversion` violation when the package threw. */
export async function aiSdkWireViolations(
  messages: readonly ModelMessage[],
  options: WireOptions = {},
): Promise<Record<WireFormat, Violation[]>> {
  const bodies = await wireBodies(messages, options);
  const out = {} as Record<WireFormat, Violation[]>;
  for (const format of WIRE_FORMATS) {
    const { body, error } = bodies[format];
    const violations = body
      ? providerViolations(format, requestOf(format, body, options.models?.[format] ?? DEFAULT_MODELS[format]))
      : [];
    if (error !== undefined)
      violations.push({
        rule: body ? `${format}/ai-sdk-response` : `${format}/ai-sdk-conversion`,
        detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      });
    out[format] = violations;
  }
  return out;
}
