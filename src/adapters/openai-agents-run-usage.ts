import type { ReportedUsage } from "../ground/types.js";

/**
 * The part of an `@openai/agents` `RunContext` this adapter reads: its `usage`, to which the runner
 * adds one `requestUsageEntries` entry per model response (`Usage.add` in @openai/agents-core:
 * `{ inputTokens, outputTokens, totalTokens, … }`, the Responses API's `input_tokens`, cached
 * tokens included).
 */
export interface AgentsRunContext {
  readonly usage?: { readonly requestUsageEntries?: readonly { readonly inputTokens?: unknown }[] | undefined };
}

/** What the filter saw of a run at its last call: how many usage entries, and how many input items. */
interface LastCall {
  readonly entries: number;
  readonly items: number;
}

/**
 * Reads the report of a run's last model request, for the filter's next call. The runner calls the
 * filter before each request with the whole run's input (the items it was given, then each
 * response's items and tool results), so the last request held the first `items` of this input:
 * as many as the filter was given at its last call. The report counts only when exactly one
 * entry was added since (a second one, such as the SDK's own `responses.compact` call, leaves it
 * unclear which request it describes) and the input has not shrunk.
 *
 * Keyed by the run's `usage` object, so each run is read on its own and nothing outlives the run.
 */
export class RunUsageReader {
  private readonly lastCalls = new WeakMap<object, LastCall>();

  /** The report of the run's last request, as `{ inputTokens, messageCount }`, or undefined. */
  read(run: AgentsRunContext | undefined, items: number): ReportedUsage | undefined {
    const usage = typeof run === "object" && run !== null ? run.usage : undefined;
    if (typeof usage !== "object" || usage === null) return undefined;
    const entries = Array.isArray(usage.requestUsageEntries) ? usage.requestUsageEntries : [];
    const before = this.lastCalls.get(usage);
    this.lastCalls.set(usage, { entries: entries.length, items });
    if (before === undefined || entries.length !== before.entries + 1 || before.items > items) return undefined;
    const inputTokens = entries[entries.length - 1]?.inputTokens;
    // `RequestUsage` always holds a number (0 when the response had no usage, which the hook says
    // is unusable); anything else is not the runner's, and is not counted by.
    return typeof inputTokens === "number" && Number.isFinite(inputTokens) && inputTokens >= 0
      ? { inputTokens, messageCount: before.items }
      : undefined;
  }
}
