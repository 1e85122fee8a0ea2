// Converts real OpenAI chat transcripts into the other dialects, so the real runs exercise every one.
import { builders, piAssistant } from "./builders.js";
import type { DialectName } from "./transcripts.js";

type Chat = {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
};
type Message = Record<string, unknown>;
type Call = NonNullable<Chat["tool_calls"]>[number];

function args(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { raw: text };
  }
}
const text = (content: unknown) => (typeof content === "string" ? content : JSON.stringify(content ?? ""));
/** A tool's output as the providers take it: Anthropic and Bedrock refuse blank text blocks. */
const output = (content: unknown) => (text(content).trim() === "" ? "(no output)" : text(content));
/** The text that leads an assistant's calls, where it wrote any. */
const leading = (m: Chat) => (m.content ? { text: text(m.content) } : {});
const callSpec = (c: Call) => ({ id: c.id, name: c.function.name, input: args(c.function.arguments) });

/**
 * Gemini and Bedrock: the system prompt travels beside the messages, and the results of one round
 * go in one user message right after the call turn.
 */
function convertKeyed(messages: readonly Chat[], dialect: "google-genai" | "bedrock-converse"): Message[] {
  const gemini = dialect === "google-genai";
  const out: Message[] = [];
  const list = (m: Message) => (gemini ? m["parts"] : m["content"]) as Message[];
  const message = (role: string, entries: Message[]): Message =>
    gemini ? { role: role === "assistant" ? "model" : "user", parts: entries } : { role, content: entries };
  const names = new Map<string, string>();
  for (const m of messages) {
    if (m.role === "system") continue;
    if (m.role === "tool") {
      const id = m.tool_call_id ?? "";
      const entry = gemini
        ? { functionResponse: { id, name: names.get(id) ?? "tool", response: { output: output(m.content) } } }
        : { toolResult: { toolUseId: id, content: [{ text: output(m.content) }], status: "success" } };
      const previous = out[out.length - 1];
      const key = gemini ? "functionResponse" : "toolResult";
      if (previous && previous["role"] === "user" && list(previous).every((e) => e[key] !== undefined))
        list(previous).push(entry);
      else out.push(message("user", [entry]));
      continue;
    }
    const entries: Message[] = m.content ? [{ text: text(m.content) }] : [];
    for (const c of m.tool_calls ?? []) {
      names.set(c.id, c.function.name);
      entries.push(
        gemini
          ? { functionCall: { id: c.id, name: c.function.name, args: args(c.function.arguments) } }
          : { toolUse: { toolUseId: c.id, name: c.function.name, input: args(c.function.arguments) } },
      );
    }
    // Converse refuses a conversation that opens with the assistant, and blank text blocks.
    if (!gemini && out.length === 0 && m.role === "assistant") out.push(message("user", [{ text: "Hello." }]));
    out.push(message(m.role, entries.length > 0 ? entries : [{ text: gemini ? "" : "(no text)" }]));
  }
  return out;
}

/** pi: the system prompt travels beside the messages; each result is a `toolResult` message of its own. */
function convertPi(messages: readonly Chat[]): Message[] {
  const names = new Map<string, string>();
  return messages.flatMap((m): Message[] => {
    if (m.role === "system") return [];
    if (m.role === "tool") {
      const id = m.tool_call_id ?? "";
      return [builders["pi-agent"].toolResult(id, text(m.content), { name: names.get(id) ?? "tool", timestamp: 0 })];
    }
    if (m.role === "user") return [builders["pi-agent"].user(text(m.content), { timestamp: 0 })];
    if (m.role !== "assistant") return [{ role: m.role, content: text(m.content), timestamp: 0 }];
    for (const c of m.tool_calls ?? []) names.set(c.id, c.function.name);
    const calls = (m.tool_calls ?? []).map(callSpec);
    if (calls.length > 0) return builders["pi-agent"].toolCalls(calls, leading(m));
    return [piAssistant(m.content ? [{ type: "text", text: text(m.content) }] : [], "stop")];
  });
}

/** Genkit: `model` turns with `toolRequest` parts; the responses of one round in one `tool` message. */
function convertGenkit(messages: readonly Chat[]): Message[] {
  const out: Message[] = [];
  const names = new Map<string, string>();
  for (const m of messages) {
    if (m.role === "tool") {
      const id = m.tool_call_id ?? "";
      const part = { toolResponse: { ref: id, name: names.get(id) ?? "tool", output: text(m.content) } };
      const previous = out[out.length - 1];
      if (previous?.["role"] === "tool") (previous["content"] as Message[]).push(part);
      else out.push({ role: "tool", content: [part] });
      continue;
    }
    for (const c of m.tool_calls ?? []) names.set(c.id, c.function.name);
    const requests = (m.tool_calls ?? []).map((c) => ({
      toolRequest: { ref: c.id, name: c.function.name, input: args(c.function.arguments) },
    }));
    const parts = [...(m.content || requests.length === 0 ? [{ text: text(m.content) }] : []), ...requests];
    out.push({ role: m.role === "assistant" ? "model" : m.role, content: parts });
  }
  return out;
}

export function convert(messages: readonly Chat[], dialect: DialectName): Message[] {
  if (dialect === "openai-chat") return messages as unknown as Message[];
  if (dialect === "google-genai" || dialect === "bedrock-converse") return convertKeyed(messages, dialect);
  if (dialect === "pi-agent") return convertPi(messages);
  if (dialect === "genkit") return convertGenkit(messages);
  const out: Message[] = [];
  const last = () => out[out.length - 1];
  for (const m of messages) {
    if (dialect === "anthropic") {
      // Anthropic keeps the system prompt outside `messages`.
      if (m.role === "system") continue;
      if (m.role === "tool") {
        const block = { type: "tool_result", tool_use_id: m.tool_call_id, content: output(m.content) };
        const previous = last();
        if (
          previous?.["role"] === "user" &&
          Array.isArray(previous["content"]) &&
          (previous["content"] as Message[]).every((b) => b["type"] === "tool_result")
        ) {
          (previous["content"] as Message[]).push(block);
        } else out.push({ role: "user", content: [block] });
      } else if (m.role === "assistant" && m.tool_calls) {
        out.push(...builders.anthropic.toolCalls(m.tool_calls.map(callSpec), leading(m)));
      } else out.push({ role: m.role, content: text(m.content) });
    } else if (dialect === "ai-sdk") {
      if (m.role === "tool") {
        const part = {
          type: "tool-result",
          toolCallId: m.tool_call_id,
          toolName: "tool",
          output: { type: "text", value: output(m.content) },
        };
        const previous = last();
        if (previous?.["role"] === "tool") (previous["content"] as Message[]).push(part);
        else out.push({ role: "tool", content: [part] });
      } else if (m.role === "assistant" && m.tool_calls) {
        out.push(...builders["ai-sdk"].toolCalls(m.tool_calls.map(callSpec), leading(m)));
      } else out.push({ role: m.role, content: text(m.content) });
    } else {
      // @openai/agents' items.
      const responses = builders["openai-responses"];
      if (m.role === "tool")
        out.push(responses.toolResult(m.tool_call_id as string, output(m.content), { items: "agents" }));
      else if (m.role === "assistant" && m.tool_calls) {
        out.push(
          ...responses.toolCalls(
            m.tool_calls.map((c) => ({ id: c.id, name: c.function.name, input: c.function.arguments })),
            { ...leading(m), items: "agents" },
          ),
        );
      } else if (m.role === "assistant") out.push(responses.assistant(text(m.content)));
      else out.push({ role: m.role, content: text(m.content) });
    }
  }
  return out;
}
