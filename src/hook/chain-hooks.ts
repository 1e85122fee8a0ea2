import { expectedMessage } from "../ground/describe-value.js";
import type { AnyMessage, BeforeLlmEvent, BeforeLlmHook, CompactionResult } from "../ground/types.js";

/**
 * Runs several before-LLM hooks as one, in order; each sees the messages the previous one returned.
 *
 * @param hooks - the hooks, in order
 * @returns one hook that resolves the last change, or `null` when no hook changed anything
 * @example
 * ```ts
 * const beforeLlm = chainHooks(redactSecrets, compactor({ maxTokens: 100_000, summarize }));
 * ```
 */
export function chainHooks<M extends AnyMessage = AnyMessage>(...hooks: BeforeLlmHook<M>[]): BeforeLlmHook<M> {
  hooks.forEach((hook, index) => {
    if (typeof hook !== "function") {
      throw new TypeError(expectedMessage(`hooks[${index}]`, "a function", hook));
    }
  });
  return async <T extends M>(event: BeforeLlmEvent<T>): Promise<CompactionResult<T> | null> => {
    let current: CompactionResult<T> | null = null;
    for (const hook of hooks) {
      const next: CompactionResult<T> | null = await hook<T>(
        current === null ? event : { ...event, messages: current.messages },
      );
      if (next !== null && next !== undefined) current = next;
    }
    return current;
  };
}
