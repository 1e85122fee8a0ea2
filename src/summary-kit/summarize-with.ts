import { expectedMessage } from "../validation/describe-value.js";
import type { AnyMessage, Summarize, SummaryContext } from "../hook/types.js";
import { buildSummaryPrompt, type SummaryPrompt, type SummaryPromptOptions } from "./build-summary-prompt.js";

/** The caller's model call: the prompt in, the summary text out. Pass `context.signal` on to the model. */
export type CompleteSummary = (prompt: SummaryPrompt, context: SummaryContext) => string | PromiseLike<string>;

/**
 * Turns your model call into a `summarize`: each compaction builds the prompt with
 * `buildSummaryPrompt` and hands it to `complete` with the context, whose `signal` aborts on a
 * timeout or an abort. What `complete` returns is trimmed and then checked like any summary.
 *
 * @param complete - `({ system, user }, context) => string | Promise<string>`
 * @param options - `sections` and `maxResultChars` for the prompt
 * @returns a `summarize` for `compactor`
 * @example
 * ```ts
 * const summarize = summarizeWith(async ({ system, user }, { signal }) => {
 *   const response = await openai.chat.completions.create(
 *     { model: "gpt-4.1-mini", messages: [{ role: "system", content: system }, { role: "user", content: user }] },
 *     { signal },
 *   );
 *   return response.choices[0]?.message.content ?? "";
 * });
 * ```
 */
export function summarizeWith<M extends AnyMessage = AnyMessage>(
  complete: CompleteSummary,
  options: SummaryPromptOptions = {},
): Summarize<M> {
  if (typeof complete !== "function") {
    throw new TypeError(expectedMessage("complete", "a function", complete));
  }
  return async (older, context) => {
    const text = await complete(buildSummaryPrompt(older, context, options), context);
    return typeof text === "string" ? text.trim() : text;
  };
}
