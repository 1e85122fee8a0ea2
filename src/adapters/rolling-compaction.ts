import type { AnyMessage, BeforeLlmHook } from "../ground/types.js";

/**
 * For an adapter given a ready hook, which has no store: frameworks rebuild the model input on
 * every step from the full history, so a compaction they are handed back is forgotten by the next
 * step. This remembers the last compaction in the adapter and, while the next input still begins
 * with the same messages, continues from it instead of compacting the full history again. It
 * serves one conversation; options with a `store` (`statefulCompactor`) serve any number.
 */
export function rollingCompaction<M extends AnyMessage>(hook: BeforeLlmHook<M>) {
  let last: { input: readonly M[]; output: M[] } | undefined;
  return async (messages: readonly M[], signal?: AbortSignal): Promise<M[] | null> => {
    let base: readonly M[] = messages;
    if (last !== undefined && startsWith(messages, last.input)) {
      base = last.output.concat(messages.slice(last.input.length));
    }
    const compacted = await hook<M>(signal === undefined ? { messages: base } : { messages: base, signal });
    const output = compacted?.messages ?? (base === messages ? null : (base as M[]));
    if (output !== null) last = { input: messages, output };
    return output;
  };
}

// Frameworks may hand over copies of the same messages from step to step: equal JSON is the same message.
function startsWith(messages: readonly object[], prefix: readonly object[]): boolean {
  if (prefix.length > messages.length) return false;
  for (let index = prefix.length - 1; index >= 0; index--) {
    const a = messages[index];
    const b = prefix[index];
    if (a !== b && JSON.stringify(a) !== JSON.stringify(b)) return false;
  }
  return true;
}
