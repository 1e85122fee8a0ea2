/** Counts one token per message, so that a budget reads as a number of messages. */
export const perMessage = (list: readonly unknown[]): number => list.length;

/** A system prompt and two user turns, each answered: over a budget of 4 with `perMessage`. */
export const fiveMessages: readonly { role: string; content: string }[] = Object.freeze([
  { role: "system", content: "S" },
  { role: "user", content: "u1" },
  { role: "assistant", content: "a1" },
  { role: "user", content: "u2" },
  { role: "assistant", content: "a2" },
]);
