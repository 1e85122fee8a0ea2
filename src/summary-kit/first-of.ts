import { describeValue } from "../ground/describe-value.js";
import { recordSummarizerAccount, summarizerIdentity } from "../ground/summarizer-account.js";
import type { AnyMessage, Summarize, SummarizerFailure, SummaryReplacement } from "../ground/types.js";

/**
 * A `summarize` that tries summarizers in order and resolves with the first that succeeds: the
 * provider's own compaction first, then your own model. A summarizer that throws, rejects or
 * returns an empty text hands over to the next; an abort or timeout stops the chain. When every
 * one fails it rejects with an `AggregateError` whose message lists each reason (with a single
 * summarizer, with its own error), and the hook reports `SUMMARIZE_FAILED` (or, with
 * `onError: "fallback"`, uses the model-free summary). The hook's `onCompacted` says which one
 * made the summary (`madeBy`) and why those before it failed (`failures`), so a chain that runs
 * on its fallback is never mistaken for one whose first choice works.
 *
 * @param summarizers - one or more `summarize` functions, tried in this order
 * @returns a `summarize` for `compactor`, `statefulCompactor` or any adapter
 * @example
 * ```ts
 * import OpenAI from "openai";
 * import { compactor, firstOf, summarizeWith } from "context-compactor";
 * import { openaiCompaction } from "context-compactor/openai";
 *
 * const client = new OpenAI();
 * const ownModel = summarizeWith(async (prompt) => (await client.responses.create({ model: "gpt-5-mini", input: prompt.user, instructions: prompt.system })).output_text);
 * const hook = compactor({ maxTokens: 100_000, summarize: firstOf(openaiCompaction(client, { model: "gpt-5.2" }), ownModel), fallback: extractiveSummary });
 * ```
 */
export function firstOf<M extends AnyMessage = AnyMessage>(...summarizers: Summarize<M>[]): Summarize<M> {
  if (summarizers.length === 0) throw new TypeError("Expected `firstOf` to get at least one summarizer, got none");
  summarizers.forEach((summarize, index) => {
    if (typeof summarize !== "function")
      throw new TypeError(
        `Expected \`firstOf\` summarizer ${index + 1} to be a function, got ${describeValue(summarize)}`,
      );
  });
  const chain = summarizers.slice();
  // The provider and model of the first native summarizer: what a stored compaction is sent back to.
  const madeBy = chain
    .map((summarize) => (summarize as { madeBy?: unknown }).madeBy)
    .find((source) => source !== undefined);
  const first: Summarize<M> = async (older, context) => {
    const errors: unknown[] = [];
    const failures: SummarizerFailure[] = [];
    for (const [index, summarize] of chain.entries()) {
      if (context.signal.aborted) break;
      let error: unknown;
      try {
        const result: string | SummaryReplacement = await summarize(older, context);
        if (typeof result === "string" ? result.trim() !== "" : typeof result === "object" && result !== null) {
          recordSummarizerAccount(context, { madeBy: summarizerIdentity(summarize, index), failures });
          return result;
        }
        error = new Error(`summarizer ${index + 1} returned an empty summary`);
      } catch (thrown) {
        error = thrown;
      }
      errors.push(error);
      failures.push({ ...summarizerIdentity(summarize, index), error });
    }
    recordSummarizerAccount(context, { failures });
    if (context.signal.aborted) throw context.signal.reason;
    const last = errors.at(-1);
    if (errors.length === 1) throw last;
    const reasons = errors
      .map((error, index) => `${index + 1}: ${error instanceof Error ? error.message : String(error)}`)
      .join("; ");
    throw new AggregateError(errors, `every summarizer failed (${reasons})`);
  };
  return madeBy === undefined ? first : Object.assign(first, { madeBy });
}
