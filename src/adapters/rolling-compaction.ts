import { compactor } from "../hook/compactor.js";
import { expectedMessage } from "../validation/describe-value.js";
import type { AnyMessage, BeforeLlmHook, CompactorOptions } from "../hook/types.js";

/** A hook, or the options to build one with `compactor`. */
export type HookOrOptions<M extends AnyMessage> = BeforeLlmHook<M> | CompactorOptions<M>;

/** Builds the hook an adapter runs: the caller's own, or a `compactor` with adapter-specific defaults. */
export function hookFrom<M extends AnyMessage>(
  optionsOrHook: HookOrOptions<M>,
  defaults: Partial<CompactorOptions<M>>,
): BeforeLlmHook<M> {
  if (typeof optionsOrHook === "function") return optionsOrHook;
  if (typeof optionsOrHook !== "object" || optionsOrHook === null) {
    throw new TypeError(expectedMessage("optionsOrHook", "compactor options or a hook", optionsOrHook));
  }
  return compactor<M>({ ...defaults, ...optionsOrHook });
}

/**
 * Frameworks rebuild the model input on every step from the full history, so a compaction they
 * are handed back is forgotten by the next step. This remembers the last compaction and, while the
 * next input still begins with the same messages, continues from the compacted transcript instead
 * of compacting the full history again (which would call `summarize` on every step).
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
