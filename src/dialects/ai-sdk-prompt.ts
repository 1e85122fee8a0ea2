import type { AnyMessage } from "../ground/types.js";

/**
 * A message as a provider-level prompt (`LanguageModelV2Prompt`, `V3`) holds it: there a system
 * message's content is a string and every other message's is parts. The messages the compaction
 * makes (the summary, the flush reminder) are written with string content, so a user one becomes
 * one text part; every other message is returned as it is.
 */
export function asPromptMessage<M extends AnyMessage>(message: M): M {
  const m = message as { role?: unknown; content?: unknown };
  return m.role !== "system" && typeof m.content === "string"
    ? ({ role: m.role, content: [{ type: "text", text: m.content }] } as unknown as M)
    : message;
}
