import { builders } from "./builders.js";

const { system, user, assistant } = builders["openai-chat"];

/** Counts one token per message, so that a budget reads as a number of messages. */
export const perMessage = (list: readonly unknown[]): number => list.length;

/** A system prompt and two user turns, each answered: over a budget of 4 with `perMessage`. */
export const fiveMessages: readonly { role: string; content: string }[] = Object.freeze([
  system("S"),
  user("u1"),
  assistant("a1"),
  user("u2"),
  assistant("a2"),
]);
