// Converts real OpenAI chat transcripts into the other three dialects, so the real runs exercise all four.
import type { DialectName } from "./transcripts.js";

type Chat = { role: string; content?: unknown; tool_calls?: { id: string; function: { name: string; arguments: string } }[]; tool_call_id?: string };
type Message = Record<string, unknown>;

function args(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { raw: text };
  }
}
const text = (content: unknown) => (typeof content === "string" ? content : JSON.stringify(content ?? ""));

export function convert(messages: readonly Chat[], dialect: DialectName): Message[] {
  if (dialect === "openai-chat") return messages as unknown as Message[];
  const out: Message[] = [];
  const last = () => out[out.length - 1];
  for (const m of messages) {
    if (dialect === "anthropic") {
      // Anthropic keeps the system prompt outside `messages`.
      if (m.role === "system") continue;
      if (m.role === "tool") {
        const block = { type: "tool_result", tool_use_id: m.tool_call_id, content: text(m.content) };
        const previous = last();
        if (previous?.["role"] === "user" && Array.isArray(previous["content"]) && (previous["content"] as Message[]).every((b) => b["type"] === "tool_result")) {
          (previous["content"] as Message[]).push(block);
        } else out.push({ role: "user", content: [block] });
      } else if (m.role === "assistant" && m.tool_calls) {
        out.push({
          role: "assistant",
          content: [
            ...(m.content ? [{ type: "text", text: text(m.content) }] : []),
            ...m.tool_calls.map((c) => ({ type: "tool_use", id: c.id, name: c.function.name, input: args(c.function.arguments) })),
          ],
        });
      } else out.push({ role: m.role, content: text(m.content) });
    } else if (dialect === "ai-sdk") {
      if (m.role === "tool") {
        const part = { type: "tool-result", toolCallId: m.tool_call_id, toolName: "tool", output: { type: "text", value: text(m.content) } };
        const previous = last();
        if (previous?.["role"] === "tool") (previous["content"] as Message[]).push(part);
        else out.push({ role: "tool", content: [part] });
      } else if (m.role === "assistant" && m.tool_calls) {
        out.push({
          role: "assistant",
          content: [
            ...(m.content ? [{ type: "text", text: text(m.content) }] : []),
            ...m.tool_calls.map((c) => ({ type: "tool-call", toolCallId: c.id, toolName: c.function.name, input: args(c.function.arguments) })),
          ],
        });
      } else out.push({ role: m.role, content: text(m.content) });
    } else {
      if (m.role === "tool") out.push({ type: "function_call_result", callId: m.tool_call_id, name: "tool", status: "completed", output: text(m.content) });
      else if (m.role === "assistant" && m.tool_calls) {
        if (m.content) out.push({ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: text(m.content) }] });
        for (const c of m.tool_calls) out.push({ type: "function_call", callId: c.id, name: c.function.name, arguments: c.function.arguments, status: "completed" });
      } else if (m.role === "assistant") out.push({ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: text(m.content) }] });
      else out.push({ role: m.role, content: text(m.content) });
    }
  }
  return out;
}
