import { FLUSH_TO_MEMORY_REMINDER, SUMMARY_PREFIX } from "../hook/constants.js";
import { leadingText } from "../dialects/messages.js";
import type { AnyMessage } from "../hook/types.js";

/** Options of `renderTranscript`. */
export interface RenderTranscriptOptions {
  /**
   * Longest tool result (and tool-call argument text) kept whole; longer ones are cut in the middle.
   * @default 2000
   */
  maxResultChars?: number;
}

type Loose = Record<string, unknown>;

const capitalized: Record<string, string> = { user: "User", assistant: "Assistant", system: "System", developer: "Developer", tool: "Tool" };

function stringify(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Cuts text longer than `max` in the middle, saying how many characters were left out. */
function cutMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const keep = Math.max(0, max);
  const start = Math.ceil(keep / 2);
  const end = keep - start;
  const omitted = text.length - keep;
  return `${text.slice(0, start)}\n[… ${omitted} characters left out …]\n${end > 0 ? text.slice(text.length - end) : ""}`;
}

/** Text of a content value in any dialect: strings, text parts, and short placeholders for the rest. */
function contentText(content: unknown): string {
  if (content === undefined || content === null) return "";
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return partText(content);
  return content.map(partText).filter((text) => text !== "").join("\n");
}

function partText(part: unknown): string {
  if (typeof part === "string") return part;
  if (typeof part !== "object" || part === null) return stringify(part);
  const p = part as Loose;
  const type = typeof p["type"] === "string" ? (p["type"] as string) : "";
  if (typeof p["text"] === "string") return p["text"];
  if (type === "image" || type === "image_url" || type === "input_image") return "[image]";
  if (type === "file" || type === "input_file" || type === "document") {
    const name = p["filename"] ?? (p["file"] as Loose | undefined)?.["filename"] ?? (p["source"] as Loose | undefined)?.["filename"];
    return typeof name === "string" ? `[file: ${name}]` : "[file]";
  }
  if (type === "input_audio" || type === "audio") return "[audio]";
  if (type === "refusal" && typeof p["refusal"] === "string") return `(refused) ${p["refusal"]}`;
  if (type === "reasoning" || type === "thinking" || type === "redacted_thinking") return "";
  // Tool parts are rendered by the caller; anything else is shown by its type.
  if (type === "tool_use" || type === "tool-call" || type === "tool_result" || type === "tool-result") return "";
  return type ? `[${type}]` : stringify(part);
}

/** Payload of a tool result in any dialect, as text. */
function resultText(output: unknown): string {
  if (typeof output === "string") return output;
  if (typeof output === "object" && output !== null && !Array.isArray(output)) {
    const o = output as Loose;
    // AI SDK outputs: { type: "text" | "json" | "error-text" | "error-json" | "content", value }.
    if ("value" in o && typeof o["type"] === "string") {
      const value = o["value"];
      const text = Array.isArray(value) ? contentText(value) : typeof value === "string" ? value : stringify(value);
      return o["type"].startsWith("error") ? `(error) ${text}` : text;
    }
    if (typeof o["text"] === "string") return o["text"];
    return partText(output) || stringify(output);
  }
  if (Array.isArray(output)) return contentText(output);
  return stringify(output);
}

function callLine(name: unknown, args: unknown, max: number): string {
  return `Tool call ${typeof name === "string" ? name : "tool"}(${cutMiddle(stringify(args ?? ""), max)})`;
}

function resultLine(name: string | undefined, output: unknown, max: number, isError = false): string {
  const text = cutMiddle(resultText(output), max);
  return `Tool result${name ? ` (${name})` : ""}${isError ? " (error)" : ""}: ${text}`;
}

/**
 * Renders a transcript of any of the four dialects as plain text for a summarizing model: one block
 * per message (`User:`, `Assistant:`, `Tool call name(args)`, `Tool result (name): …`); earlier
 * summaries as `Earlier summary: …`; images and files as short placeholders. Tool results longer
 * than `maxResultChars` are cut in the middle with a marker saying how many characters were left out.
 *
 * @param messages - the messages to render, usually `older` in a `summarize`
 * @param options - `maxResultChars` (default 2000)
 * @returns the text; never throws on an array of message objects
 * @example
 * ```ts
 * const summarize = async (older) => myModel(`Summarize:\n\n${renderTranscript(older)}`);
 * ```
 */
export function renderTranscript(messages: readonly AnyMessage[], options: RenderTranscriptOptions = {}): string {
  const max = options.maxResultChars ?? 2000;
  if (!Number.isInteger(max) || max < 0) {
    throw new RangeError(`Expected \`maxResultChars\` to be an integer from 0 and up, got \`${String(max)}\` (${typeof max})`);
  }
  const toolNames = new Map<string, string>();
  const blocks: string[] = [];
  for (const message of messages) {
    if (typeof message !== "object" || message === null) continue;
    const lines = renderMessage(message as Loose, toolNames, max);
    if (lines.length > 0) blocks.push(lines.join("\n"));
  }
  return blocks.join("\n\n");
}

function renderMessage(m: Loose, toolNames: Map<string, string>, max: number): string[] {
  const lead = leadingText(m);
  if (lead?.startsWith(SUMMARY_PREFIX)) return [`Earlier summary: ${lead.slice(SUMMARY_PREFIX.length)}`];
  if (lead === FLUSH_TO_MEMORY_REMINDER) return [];

  const type = typeof m["type"] === "string" ? (m["type"] as string) : undefined;
  if (type !== undefined && type !== "message") return renderItem(m, type, toolNames, max);

  const role = typeof m["role"] === "string" ? (m["role"] as string) : "Message";
  const label = capitalized[role] ?? role.charAt(0).toUpperCase() + role.slice(1);
  const lines: string[] = [];

  if (role === "tool" && typeof m["tool_call_id"] === "string") {
    const name = toolNames.get(m["tool_call_id"]) ?? (typeof m["name"] === "string" ? m["name"] : undefined);
    return [resultLine(name, m["content"], max)];
  }

  const text = contentText(m["content"]);
  if (text.trim() !== "") lines.push(`${label}: ${text}`);

  for (const call of Array.isArray(m["tool_calls"]) ? (m["tool_calls"] as Loose[]) : []) {
    const fn = (call?.["function"] ?? {}) as Loose;
    if (typeof call?.["id"] === "string" && typeof fn["name"] === "string") toolNames.set(call["id"], fn["name"]);
    lines.push(callLine(fn["name"], fn["arguments"], max));
  }
  if (Array.isArray(m["content"])) {
    for (const part of m["content"] as unknown[]) {
      if (typeof part !== "object" || part === null) continue;
      const p = part as Loose;
      if (p["type"] === "tool_use" || p["type"] === "tool-call") {
        const id = p["type"] === "tool_use" ? p["id"] : p["toolCallId"];
        const name = p["type"] === "tool_use" ? p["name"] : p["toolName"];
        if (typeof id === "string" && typeof name === "string") toolNames.set(id, name);
        lines.push(callLine(name, p["type"] === "tool_use" ? p["input"] : (p["input"] ?? p["args"]), max));
      } else if (p["type"] === "tool_result") {
        const id = p["tool_use_id"];
        lines.push(resultLine(typeof id === "string" ? toolNames.get(id) : undefined, p["content"], max, p["is_error"] === true));
      } else if (p["type"] === "tool-result") {
        const id = p["toolCallId"];
        const name = typeof p["toolName"] === "string" ? p["toolName"] : typeof id === "string" ? toolNames.get(id) : undefined;
        lines.push(resultLine(name, p["output"] ?? p["result"], max));
      }
    }
  }
  if (lines.length === 0 && role !== "tool") lines.push(`${label}: (empty)`);
  return lines;
}

function renderItem(m: Loose, type: string, toolNames: Map<string, string>, max: number): string[] {
  const id = (m["callId"] ?? m["call_id"]) as unknown;
  if (type.endsWith("_call") && type !== "hosted_tool_call") {
    const name = typeof m["name"] === "string" ? m["name"] : type.replace(/_call$/, "");
    if (typeof id === "string") toolNames.set(id, name);
    return [callLine(name, m["arguments"] ?? m["action"] ?? m["input"] ?? "", max)];
  }
  if (type.endsWith("_output") || type.endsWith("_result")) {
    const name = typeof m["name"] === "string" ? m["name"] : typeof id === "string" ? toolNames.get(id) : undefined;
    return [resultLine(name, m["output"], max)];
  }
  if (type === "reasoning") return [];
  if (type === "hosted_tool_call") return [`Hosted tool ${typeof m["name"] === "string" ? m["name"] : "call"}`];
  return [`[${type}]`];
}
