import { HOOK_SETTINGS } from "../hook/hook-settings.js";
import { expectedMessage } from "../ground/describe-value.js";
import type { AnyMessage } from "../ground/types.js";
import { adapterCompactor, type AdapterOptions } from "./adapter-compactor.js";
import type { Recalling } from "./recall-answer.js";
import type { Requesting } from "./compact-answer.js";
import { RunUsageReader, type AgentsRunContext } from "./openai-agents-run-usage.js";

/** What `@openai/agents` passes to a `callModelInputFilter` (the part this adapter reads). */
export interface CallModelInputFilterArgs<M extends AnyMessage> {
  modelData: { input: M[]; instructions?: string };
  /** The value given to `run(…, { context })` (the runner passes its `context.context`, not the run context). */
  context?: unknown;
  agent?: unknown;
}

/** A `callModelInputFilter`. The compactor never mutates input, so it preserves item identities. */
export type CompactingInputFilter = (<M extends AnyMessage, D extends { input: M[]; instructions?: string }>(args: {
  modelData: D;
}) => Promise<D>) & { preserveInputIdentity: boolean };

/** Options of `toCallModelInputFilter`: those of `statefulCompactor`; `conversationId` may read the filter's arguments. */
export type InputFilterCompactionOptions<M extends AnyMessage = AnyMessage> = AdapterOptions<
  M,
  CallModelInputFilterArgs<M>
> & {
  /**
   * The run's `RunContext`, to count by what the provider reported for the run's last request
   * (`runContext.usage.requestUsageEntries`): create it, pass it to `run(…, { context })`, and
   * return it here. The runner gives the filter only `context.context`, so it cannot find it alone.
   * @default none: the requests are counted by the estimate
   */
  runContext?: (args: CallModelInputFilterArgs<M>) => AgentsRunContext | undefined;
};

/**
 * Makes a `callModelInputFilter` for `@openai/agents` `run(agent, input, { callModelInputFilter })`
 * that compacts `modelData.input` (Responses items: messages, `function_call`,
 * `function_call_result`) before each model call and returns `{ ...modelData, input }`.
 *
 * The runner rebuilds the input from the whole run on every turn, so the compaction lives in a
 * store (`statefulCompactor`): `summarize` runs when the budget is crossed again, not every turn,
 * and one filter shared by many concurrent runs keeps each run's compaction apart.
 *
 * With `runContext`, each request after the first is counted by what the provider reported for
 * the one before it (see `docs/counting.md`), so dense tool output is counted as billed.
 *
 * @param options - `statefulCompactor` options (`store`, `conversationId` as a string or a function of the filter's arguments)
 * With `archive: true`, the filter also has `recall` (see `statefulCompactor`), for `recallTool`.
 *
 * @returns the filter, with `preserveInputIdentity` set since nothing is mutated, and `recall(query, { conversationId })`
 * @example
 * ```ts
 * import { RunContext, run } from "@openai/agents";
 * import { toCallModelInputFilter } from "context-compactor/openai-agents";
 * const context = new RunContext();
 * const callModelInputFilter = toCallModelInputFilter({ maxTokens: 100_000, summarize, runContext: () => context });
 * await run(agent, input, { context, callModelInputFilter });
 * ```
 */
export function toCallModelInputFilter<M extends AnyMessage = AnyMessage>(
  options: InputFilterCompactionOptions<M>,
): CompactingInputFilter & Recalling & Requesting {
  const { runContext, ...rest } = (options ?? {}) as InputFilterCompactionOptions<M>;
  if (runContext !== undefined && typeof runContext !== "function")
    throw new TypeError(expectedMessage("runContext", "a function", runContext));
  const { compact, idOf } = adapterCompactor<M, CallModelInputFilterArgs<M>>(
    (typeof options === "object" && options !== null ? rest : options) as AdapterOptions<
      M,
      CallModelInputFilterArgs<M>
    >,
    {},
  );
  const reports = new RunUsageReader();
  const filter = async (args: CallModelInputFilterArgs<M>) => {
    const { input } = args.modelData;
    const usage = runContext === undefined ? undefined : reports.read(runContext(args), input.length);
    const compacted = await compact(input, { ...idOf(args), ...(usage ? { usage } : {}) });
    return compacted === null ? args.modelData : { ...args.modelData, input: compacted.messages };
  };
  return Object.assign(filter, {
    preserveInputIdentity: true,
    recall: compact.recall,
    recallToolName: compact.recallToolName,
    [HOOK_SETTINGS]: (compact as unknown as Record<symbol, unknown>)[HOOK_SETTINGS],
  }) as unknown as CompactingInputFilter & Recalling & Requesting;
}

export { recallTool } from "./openai-agents-recall-tool.js";
export { compactTool } from "./openai-agents-compact-tool.js";
export type { CompactFunctionTool } from "./openai-agents-compact-tool.js";
export type { FunctionToolOf } from "./openai-agents-function-tool.js";
export type { Requesting } from "./compact-answer.js";
export type { AgentsRunContext } from "./openai-agents-run-usage.js";
export type { RecallFunctionTool, RecallRunContext } from "./openai-agents-recall-tool.js";
export type { Recalling, RecallToolOptions } from "./recall-answer.js";
export { withOverflowRecovery } from "./openai-agents-overflow-recovery.js";
export type { AgentsModel } from "./openai-agents-overflow-recovery.js";
export type { OverflowRecoveryOptions } from "../recovery/compact-for-retry.js";
