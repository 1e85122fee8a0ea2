import type { Dialect, MessageRecord } from "../dialects/dialect.js";

/**
 * How many messages the request a response answers held: those before the model's latest reply
 * (its run of messages, reasoning items included, back from its latest assistant message), which
 * the loop appended after the response came; all of them when the transcript holds no reply.
 */
export function requestLength(messages: readonly object[], dialect: Dialect): number {
  const roleAt = (index: number) => dialect.role(messages[index] as MessageRecord);
  let index = messages.length - 1;
  while (index >= 0 && roleAt(index) !== "assistant") index--;
  if (index < 0) return messages.length;
  while (index > 0 && (roleAt(index - 1) === "assistant" || roleAt(index - 1) === undefined)) index--;
  return index;
}
