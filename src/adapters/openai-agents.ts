import type { AnyMessage } from "../hook/types.js";
import { hookFrom, rollingCompaction, type HookOrOptions } from "./rolling-compaction.js";

/** What `@openai/agents` passes to a `callModelInputFilter` (the part this adapter reads). */
export interface CallModelInputFilterArgs<M extends AnyMessage> {
  modelData: { input: M[]; instructions?: string };
}

/** A `callModelInputFilter`. The compactor never mutates input, so it preserves item identities. */
export type CompactingInputFilter = (<M extends AnyMessage, D extends { input: M[]; instructions?: string }>(
  args: { modelData: D },
) => Promise<D>) & { preserveInputIdentity: boolean };

/**
 * Makes a `callModelInputFilter` for `@openai/agents` `run(agent, input, { callModelInputFilter })`
 * that compacts `modelData.input` (Responses items: messages, `function_call`,
 * `function_call_result`) before each model call and returns `{ ...modelData, input }`.
 *
 * The runner rebuilds the input from the whole run on every turn, so the filter remembers its last
 * compaction and continues from it: `summarize` runs when the budget is crossed again, not every turn.
 *
 * @param optionsOrHook - `compactor` options, or a ready before-LLM hook
 * @returns the filter, with `preserveInputIdentity` set since nothing is mutated
 * @example
 * ```ts
 * import { run } from "@openai/agents";
 * import { toCallModelInputFilter } from "context-compactor/openai-agents";
 * await run(agent, input, { callModelInputFilter: toCallModelInputFilter({ maxTokens: 100_000, summarize }) });
 * ```
 */
export function toCallModelInputFilter<M extends AnyMessage = AnyMessage>(optionsOrHook: HookOrOptions<M>): CompactingInputFilter {
  const compact = rollingCompaction(hookFrom(optionsOrHook, {}));
  const filter = async ({ modelData }: CallModelInputFilterArgs<M>) => {
    const compacted = await compact(modelData.input);
    return compacted === null ? modelData : { ...modelData, input: compacted };
  };
  return Object.assign(filter, { preserveInputIdentity: true }) as unknown as CompactingInputFilter;
}
