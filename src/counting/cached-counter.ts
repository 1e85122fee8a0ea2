import { expectedMessage } from "../ground/describe-value.js";
import { checkedCount, perMessageCount } from "./token-counter.js";
import type { AnyMessage, CountTokens } from "../ground/types.js";

/**
 * Turns a per-message token counter (a real tokenizer, say) into a `countTokens` that counts each
 * message object once and remembers the count by identity. An agent loop resends the same message
 * objects on every turn, so after the first turn only new messages are tokenized; the compactor
 * also sums these counts for its tail search instead of recounting suffixes.
 *
 * Messages are treated as immutable: a message object changed in place after it was counted keeps
 * its old count. Replace a message (a new object) instead of editing it, or do not use this cache.
 * Counts are held weakly and disappear with their messages.
 *
 * @param countMessage - tokens of one message; must return a finite number ≥ 0
 * @returns a whole-list counter to pass as `countTokens`
 * @example
 * ```ts
 * import { countTokens as tokenize } from "gpt-tokenizer";
 * const countTokens = createCachedCounter((message) => tokenize(JSON.stringify(message)));
 * const beforeLlm = compactor({ maxTokens: 100_000, countTokens, summarize });
 * ```
 */
export function createCachedCounter<M extends AnyMessage = AnyMessage>(
  countMessage: (message: M) => number,
): CountTokens<M> {
  if (typeof countMessage !== "function") {
    throw new TypeError(expectedMessage("countMessage", "a function", countMessage));
  }
  const cache = new WeakMap<object, number>();
  const countOne = (message: unknown): number => {
    if (typeof message !== "object" || message === null) return checkedCount(countMessage(message as M));
    let count = cache.get(message);
    if (count === undefined) {
      count = checkedCount(countMessage(message as M));
      cache.set(message, count);
    }
    return count;
  };
  const countTokens = (messages: readonly M[]): number => {
    let total = 0;
    for (let index = 0; index < messages.length; index++) total += countOne(messages[index]);
    return total;
  };
  Object.defineProperty(countTokens, perMessageCount, { value: countOne });
  return countTokens;
}
