import { MASKED_TOOL_RESULT } from "../hook/constants.js";
import type { AnyMessage, MaskToolResultsOptions } from "../hook/types.js";

type Loose = Record<string, unknown>;

/** What `maskToolResults` did. */
export interface MaskedTranscript<M extends AnyMessage = AnyMessage> {
  /** The transcript with old tool results replaced; unchanged messages are the same objects. */
  messages: M[];
  /** Tool results masked by this call (results masked earlier are not counted again). */
  masked: number;
  /** Indices of the messages that are new objects. */
  changed: number[];
}

// Responses result items whose `output` is free text; computer and shell outputs have shapes of
// their own that a string would break, so they stay.
const textOutputItemTypes = new Set(["function_call_output", "function_call_result", "custom_tool_call_output"]);

function isAiSdkMasked(output: unknown, placeholder: string): boolean {
  const o = output as Loose | null;
  return typeof o === "object" && o !== null && o["type"] === "text" && o["value"] === placeholder;
}

/**
 * Visits each maskable tool result of a message in order: `part` is its index in the content, or
 * -1 for a result that is the whole message; `masked` says whether it already holds the placeholder.
 */
function forEachResultSlot(message: object, placeholder: string, visit: (part: number, masked: boolean) => void): void {
  const m = message as Loose;
  const type = m["type"];
  if (typeof type === "string") {
    if (textOutputItemTypes.has(type)) visit(-1, m["output"] === placeholder);
    return;
  }
  if (m["role"] === "tool" && typeof m["tool_call_id"] === "string") {
    visit(-1, m["content"] === placeholder);
    return;
  }
  const content = m["content"];
  if (!Array.isArray(content)) return;
  content.forEach((part: unknown, index) => {
    if (typeof part !== "object" || part === null) return;
    const p = part as Loose;
    if (p["type"] === "tool_result" && m["role"] === "user") visit(index, p["content"] === placeholder);
    else if (p["type"] === "tool-result") visit(index, isAiSdkMasked(p["output"], placeholder));
  });
}

function maskPart(part: Loose, placeholder: string): Loose {
  if (part["type"] === "tool_result") return { ...part, content: placeholder };
  return { ...part, output: { type: "text", value: placeholder } };
}

function maskMessage(message: object, parts: readonly number[], placeholder: string): object {
  const m = message as Loose;
  if (parts[0] === -1) {
    return typeof m["type"] === "string" ? { ...m, output: placeholder } : { ...m, content: placeholder };
  }
  const content = (m["content"] as unknown[]).slice();
  for (const index of parts) content[index] = maskPart(content[index] as Loose, placeholder);
  return { ...m, content };
}

/**
 * Replaces the payload of every tool result but the newest `keepRecent` with a placeholder, in
 * each dialect's own shape: an OpenAI `tool` message's `content`, an Anthropic `tool_result`
 * block's `content`, an AI SDK `tool-result` part's `output` (`{ type: "text", value }`), a
 * Responses `function_call_output` item's `output`. Calls, ids and the number of messages stay;
 * only changed messages are new objects. Model-free and idempotent.
 *
 * @param messages - the transcript; not changed
 * @param options - `keepRecent` (default 3) and `placeholder` (default `MASKED_TOOL_RESULT`)
 * @returns the masked transcript, how many results were newly masked, and which messages changed
 * @example
 * ```ts
 * const { messages: lighter, masked } = maskToolResults(messages, { keepRecent: 5 });
 * ```
 */
export function maskToolResults<M extends AnyMessage>(
  messages: readonly M[],
  options: MaskToolResultsOptions = {},
): MaskedTranscript<M> {
  const { keepRecent = 3, placeholder = MASKED_TOOL_RESULT } = options;
  const slots: { message: number; part: number; masked: boolean }[] = [];
  for (let index = 0; index < messages.length; index++) {
    forEachResultSlot(messages[index] as object, placeholder, (part, masked) => {
      slots.push({ message: index, part, masked });
    });
  }
  const partsToMask = new Map<number, number[]>();
  let masked = 0;
  for (let slot = 0; slot < slots.length - keepRecent; slot++) {
    const entry = slots[slot] as (typeof slots)[number];
    if (entry.masked) continue;
    masked++;
    const parts = partsToMask.get(entry.message);
    if (parts) parts.push(entry.part);
    else partsToMask.set(entry.message, [entry.part]);
  }
  const result = messages.slice();
  for (const [index, parts] of partsToMask) result[index] = maskMessage(messages[index] as object, parts, placeholder) as M;
  return { messages: result, masked, changed: [...partsToMask.keys()] };
}
