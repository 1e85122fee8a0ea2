import type { MessagePart, MessageRecord } from "../dialects/dialect.js";
import { stringify } from "../dialects/content-parts.js";
import { dialectOf } from "../dialects/registry.js";
import { FLUSH_TO_MEMORY_REMINDER, SUMMARY_PREFIX } from "../hook/constants.js";
import type { AnyMessage } from "../hook/types.js";

/** Options of `renderTranscript`. */
export interface RenderTranscriptOptions {
  /**
   * Longest tool result (and tool-call argument text) kept whole; longer ones are cut in the middle.
   * @default 2000
   */
  maxResultChars?: number;
}

const capitalized: Record<string, string> = { user: "User", assistant: "Assistant", system: "System", developer: "Developer", tool: "Tool" };

/** Cuts text longer than `max` in the middle, saying how many characters were left out. */
function cutMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const keep = Math.max(0, max);
  const start = Math.ceil(keep / 2);
  const end = keep - start;
  const omitted = text.length - keep;
  return `${text.slice(0, start)}\n[… ${omitted} characters left out …]\n${end > 0 ? text.slice(text.length - end) : ""}`;
}

/**
 * Renders a transcript of any dialect as plain text for a summarizing model: one block per message
 * (`User:`, `Assistant:`, `Tool call name(args)`, `Tool result (name): …`); earlier summaries as
 * `Earlier summary: …`; images and files as short placeholders. Tool results longer than
 * `maxResultChars` are cut in the middle with a marker saying how many characters were left out.
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
    const lines = renderMessage(message as MessageRecord, toolNames, max);
    if (lines.length > 0) blocks.push(lines.join("\n"));
  }
  return blocks.join("\n\n");
}

function renderMessage(message: MessageRecord, toolNames: Map<string, string>, max: number): string[] {
  const dialect = dialectOf(message);
  const lead = dialect.leadingText(message);
  if (lead?.startsWith(SUMMARY_PREFIX)) return [`Earlier summary: ${lead.slice(SUMMARY_PREFIX.length)}`];
  if (lead === FLUSH_TO_MEMORY_REMINDER) return [];

  const { role, parts } = dialect.describe(message);
  const label = role === undefined ? undefined : (capitalized[role] ?? role.charAt(0).toUpperCase() + role.slice(1));
  const lines: string[] = [];
  for (const part of parts) lines.push(...renderPart(part, label, toolNames, max));
  if (lines.length === 0 && label !== undefined && role !== "tool") lines.push(`${label}: (empty)`);
  return lines;
}

function renderPart(part: MessagePart, label: string | undefined, toolNames: Map<string, string>, max: number): string[] {
  switch (part.kind) {
    case "text":
      return [label === undefined ? part.text : `${label}: ${part.text}`];
    case "note":
      return [part.text];
    case "call":
      if (part.id !== undefined && part.name !== undefined) toolNames.set(part.id, part.name);
      return [`Tool call ${part.name ?? "tool"}(${cutMiddle(stringify(part.input ?? ""), max)})`];
    case "result": {
      const name = (part.id === undefined ? undefined : toolNames.get(part.id)) ?? part.name;
      return [`Tool result${name ? ` (${name})` : ""}${part.isError ? " (error)" : ""}: ${cutMiddle(part.output, max)}`];
    }
  }
}
