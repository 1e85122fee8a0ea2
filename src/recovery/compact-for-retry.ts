import type { AnyMessage, CompactOptions, CompactorOptions, SummaryOptions } from "../ground/types.js";
import { compact } from "../hook/compact.js";
import { estimateTokens } from "../counting/estimate-tokens.js";
import { expectedMessage } from "../ground/describe-value.js";

/** Options of an overflow recovery: the compaction's, with the budget of the retry given as a share. */
export type OverflowRecoveryOptions<M extends AnyMessage = AnyMessage> = Omit<
  CompactorOptions<M>,
  "maxTokens" | "keepTail" | "summary"
> & {
  /** The summary's options, but its size: the retry's budget sets it. */
  summary?: Omit<SummaryOptions, "maxTokens">;
  /**
   * The retry's budget as a share of the rejected request's estimate: the provider said it did not
   * fit, so the retry aims well under it.
   * @default 0.6
   */
  retryShare?: number;
};

/** Checks the options once, when the recovery is built. */
export function checkedRecovery<M extends AnyMessage>(
  options: OverflowRecoveryOptions<M>,
): { share: number; rest: Omit<CompactorOptions<M>, "maxTokens"> } {
  if (typeof options !== "object" || options === null)
    throw new TypeError(expectedMessage("options", "an object", options));
  const { retryShare = 0.6, ...rest } = options;
  if (typeof retryShare !== "number" || !(retryShare > 0 && retryShare < 1)) {
    throw new RangeError(expectedMessage("retryShare", "a number between 0 and 1", retryShare));
  }
  if (typeof rest.summarize !== "function")
    throw new TypeError(expectedMessage("summarize", "a function", rest.summarize));
  return { share: retryShare, rest };
}

/**
 * Compacts a rejected request for its one retry: forced, to `share` of its estimate (at least
 * what the system prompt and a few words need), so the retry fits where the first did not.
 */
export async function compactForRetry<M extends AnyMessage>(
  messages: readonly M[],
  share: number,
  options: Omit<CompactorOptions<M>, "maxTokens">,
  extra: Pick<CompactOptions<M>, "signal"> = {},
): Promise<M[]> {
  const maxTokens = Math.max(64, Math.floor(estimateTokens(messages) * share));
  const result = await compact(messages, {
    ...options,
    ...extra,
    maxTokens,
    keepTail: Math.floor(maxTokens / 2),
    force: true,
  } as CompactOptions<M>);
  return result?.messages ?? messages.slice();
}
