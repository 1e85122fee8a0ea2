import { providerPayload } from "../dialects/messages.js";
import type { ArchivedMessage } from "./conversation-archive.js";

/**
 * The input messages the request no longer holds as they are: those a summary replaced, and those
 * whose tool results were masked or whose payloads were cut (the request holds a copy). A stored
 * summary (archived when it was made) is not one. Each is kept as the caller sent it, in its own
 * format: a LangChain instance as its fields, without its serialization wrapper (which no dialect
 * reads back), and a pi message without pi's bookkeeping: what the provider received.
 *
 * @param base - what the engine compacted: the input with the stored state applied
 * @param inputIndex - where a message of `base` sits in `messages` (-1: a stored summary)
 * @param positionOf - the position in the conversation of an input message (its index, unless a window slid)
 */
export function droppedMessages(
  messages: readonly object[],
  base: readonly object[],
  sent: readonly object[],
  inputIndex: (index: number) => number,
  positionOf: (index: number) => number = (index) => index,
): ArchivedMessage[] {
  const shown = new Set<object>(sent);
  const dropped: ArchivedMessage[] = [];
  for (let index = 0; index < base.length; index++) {
    const at = inputIndex(index);
    if (at >= 0 && !shown.has(base[index] as object)) dropped.push({ index: positionOf(at), message: providerPayload(messages[at] as object) ?? (messages[at] as object) });
  }
  return dropped;
}
