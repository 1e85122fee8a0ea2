import { providerPayload } from "../dialects/messages.js";
import type { ArchivedMessage } from "./conversation-archive.js";

/** What `droppedMessages` compares. */
export interface DroppedMessagesContext {
  /** The input. */
  messages: readonly object[];
  /** What the engine compacted: the input with the stored state applied. */
  base: readonly object[];
  /** What the request holds. */
  sent: readonly object[];
  /** Where a message of `base` sits in `messages` (-1: a stored summary). */
  inputIndex: (index: number) => number;
  /** The position in the conversation of an input message (its index, unless a window slid). */
  positionOf: (index: number) => number;
}

/**
 * The input messages the request no longer holds as they are: those a summary replaced, and those
 * whose tool results were masked or whose payloads were cut (the request holds a copy). A stored
 * summary (archived when it was made) is not one. Each is kept as the caller sent them, in its own
 * format: a LangChain instance as its fields, without its serialization wrapper (which no dialect
 * reads back), and a pi message without pi's bookkeeping: what the provider received.
 *
 * @param context - the input, what was compacted, what was sent, and where each message sits
 * @returns the messages, at their positions in the conversation, oldest first
 * @example
 * const removed = droppedMessages({ messages, base, sent: result.messages, inputIndex: (index) => index, positionOf: (index) => index });
 */
export function droppedMessages({
  messages,
  base,
  sent,
  inputIndex,
  positionOf,
}: DroppedMessagesContext): ArchivedMessage[] {
  const shown = new Set<object>(sent);
  const dropped: ArchivedMessage[] = [];
  for (let index = 0; index < base.length; index++) {
    const at = inputIndex(index);
    if (at >= 0 && !shown.has(base[index] as object))
      dropped.push({
        index: positionOf(at),
        message: providerPayload(messages[at] as object) ?? (messages[at] as object),
      });
  }
  return dropped;
}
