import { resultOf } from "./compactor.js";
import { runCompaction } from "./engine.js";
import { definedFields } from "../ground/defined-fields.js";
import { resolveOptions } from "../ground/options.js";
import { sealerOf } from "../text/seal-signer.js";
import { checkedUsage } from "../validation/usage.js";
import type { AnyMessage, CompactOptions, CompactionResult } from "../ground/types.js";

/**
 * Compacts a transcript once, with the same engine as the hook. `force: true` compacts even under
 * budget (a user's `/compact`), and `instructions` reach `summarize` as `context.instructions`.
 *
 * @param messages - the transcript; not changed
 * @param options - the options of `compactor`, plus `force`, `instructions` and `signal`
 * @returns `{ messages }` with the compacted transcript, or `null` when nothing was done
 * @example
 * ```ts
 * const result = await compact(messages, { maxTokens: 100_000, summarize, force: true, instructions: "focus on the API design" });
 * ```
 */
export async function compact<M extends AnyMessage>(
  messages: readonly M[],
  options: CompactOptions<M>,
): Promise<CompactionResult<M> | null> {
  const settings = resolveOptions<M>(options, "compact");
  settings.sealer = sealerOf(settings.sealKey);
  const usage = Array.isArray(messages) ? checkedUsage(options.usage, messages.length) : undefined;
  const outcome = await runCompaction(messages, settings, definedFields({ signal: settings.signal, usage }));
  return outcome === null ? null : resultOf(outcome);
}
