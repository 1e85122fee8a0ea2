import { utf8ByteLength } from "../counting/utf8-length.js";
import { cutMiddle } from "../text/cut-middle.js";
import type { AnyMessage, Summarize, SummaryContext } from "../ground/types.js";
import { expectedMessage } from "../ground/describe-value.js";
import {
  messagesToSummarize,
  summaryPromptFor,
  type SummaryPrompt,
  type SummaryPromptOptions,
} from "./build-summary-prompt.js";
import { escapeFences } from "./escape-fences.js";
import { renderBlocks } from "./render-transcript.js";
import { optionalFunction, optionalInteger, optionsObject } from "../ground/checks.js";

/** The caller's model call: the prompt in, the summary text out. Pass `context.signal` on to the model. */
export type CompleteSummary = (prompt: SummaryPrompt, context: SummaryContext) => string | PromiseLike<string>;

/** Options of `summarizeWith`: the prompt's, and a bound on each request to the summarizing model. */
export interface SummarizeWithOptions extends SummaryPromptOptions {
  /**
   * Largest prompt sent to the summarizing model, in tokens (`system` and `user` together). A longer
   * `older` is summarized oldest-first in chunks that fit, each chunk's summary rolled into the next.
   * @default no bound: one request
   */
  maxInputTokens?: number;
  /**
   * How prompt text is counted against `maxInputTokens`.
   * @default UTF-8 bytes / 4, rounded up (the estimate `estimateTokens` uses)
   */
  countPromptTokens?: (text: string) => number;
}

const estimateText = (text: string): number => Math.ceil(utf8ByteLength(text) / 4);
const promptTokens = (prompt: SummaryPrompt, count: (text: string) => number): number =>
  count(prompt.system) + count(prompt.user);

/** Cuts text in the middle to at most `bytes` UTF-8 bytes (a character is at most 3 here), saying how much was left out. */
function cutToBytes(text: string, bytes: number): string {
  return cutMiddle(
    text,
    Math.floor(bytes / 3) - 60,
    (cut) => `[… ${cut} characters left out to fit the summarizer's input …]`,
  );
}

/**
 * Turns your model call into a `summarize`: each compaction builds the prompt with
 * `buildSummaryPrompt` and hands it to `complete` with the context, whose `signal` aborts on a
 * timeout or an abort. What `complete` returns is trimmed and then checked like any summary.
 *
 * With `maxInputTokens`, no request exceeds that bound: an `older` too large for one request (a
 * first compaction of a long imported history) is summarized oldest-first in chunks that fit,
 * each chunk's summary passed on as the previous summary of the next. A failure in any chunk
 * fails the whole compaction, and the transcript stays as it was.
 *
 * @param complete - `({ system, user }, context) => string | Promise<string>`
 * @param options - `sections` and `maxResultChars` for the prompt; `maxInputTokens` and `countPromptTokens` to bound each request
 * @returns a `summarize` for `compactor`
 * @example
 * ```ts
 * const summarize = summarizeWith(async ({ system, user }, { signal }) => {
 *   const response = await openai.chat.completions.create(
 *     { model: "gpt-4.1-mini", messages: [{ role: "system", content: system }, { role: "user", content: user }] },
 *     { signal },
 *   );
 *   return response.choices[0]?.message.content ?? "";
 * }, { maxInputTokens: 100_000 });
 * ```
 */
export function summarizeWith<M extends AnyMessage = AnyMessage>(
  complete: CompleteSummary,
  options: SummarizeWithOptions = {},
): Summarize<M> {
  if (typeof complete !== "function") throw new TypeError(expectedMessage("complete", "a function", complete));
  optionsObject(options, "options", ["sections", "maxResultChars", "maxInputTokens", "countPromptTokens"]);
  const { sections, maxResultChars } = options;
  const maxInputTokens = optionalInteger(options.maxInputTokens, "maxInputTokens", 1, undefined);
  const countPromptTokens =
    optionalFunction<(text: string) => number>(options.countPromptTokens, "countPromptTokens") ?? estimateText;
  const renderOptions = maxResultChars === undefined ? {} : { maxResultChars };

  const ask = async (prompt: SummaryPrompt, context: SummaryContext): Promise<string> => {
    const text = await complete(prompt, context);
    return typeof text === "string" ? text.trim() : text;
  };

  return async (older, context) => {
    const blocks = renderBlocks(messagesToSummarize(older, context), renderOptions, false);
    const whole = summaryPromptFor(blocks.join("\n\n"), context, sections);
    if (maxInputTokens === undefined || promptTokens(whole, countPromptTokens) <= maxInputTokens)
      return ask(whole, context);

    // Oldest first: each chunk takes as many whole messages as fit beside the summary so far.
    let previous = context.previousSummary;
    let next = 0;
    let chunk = 0;
    while (next < blocks.length) {
      chunk++;
      const chunkContext = { ...context, previousSummary: previous };
      const room = maxInputTokens - promptTokens(summaryPromptFor("", chunkContext, sections), countPromptTokens);
      if (room < 1) {
        throw new Error(
          `maxInputTokens (${maxInputTokens}) leaves no room for the transcript beside the prompt and the summary so far (chunk ${chunk})`,
        );
      }
      // Counted piece by piece as the prompt shows it, fences escaped (a request's text is the sum
      // of its parts), then checked whole: what the pieces miss (a tag split between two messages)
      // gives a few messages back, found by halving, so that each check of the whole is one of
      // log(n), not one per message given back.
      const first = next;
      let end = first;
      let used = maxInputTokens - room;
      while (end < blocks.length) {
        const cost = countPromptTokens(`${escapeFences(blocks[end] as string)}\n\n`);
        if (used + cost > maxInputTokens) break;
        used += cost;
        end++;
      }
      const promptOf = (stop: number): SummaryPrompt | undefined => {
        if (stop === first) return undefined;
        const candidate = summaryPromptFor(blocks.slice(first, stop).join("\n\n"), chunkContext, sections);
        return promptTokens(candidate, countPromptTokens) <= maxInputTokens ? candidate : undefined;
      };
      let prompt = promptOf(end);
      if (prompt === undefined && end > first + 1) {
        // The largest number of messages that fits, between none and one fewer than counted.
        let low = first;
        let high = end - 1;
        while (low < high) {
          const middle = Math.ceil((low + high) / 2);
          const candidate = promptOf(middle);
          if (candidate === undefined) high = middle - 1;
          else [low, prompt] = [middle, candidate];
        }
        end = low;
        if (end === first) prompt = undefined;
      }
      next = prompt === undefined ? first : end;
      if (prompt === undefined) {
        // One message larger than a whole request: its middle is left out until it fits.
        let bytes = room * 4;
        let cut = cutToBytes(blocks[next] as string, bytes);
        while (
          promptTokens(summaryPromptFor(cut, chunkContext, sections), countPromptTokens) > maxInputTokens &&
          bytes > 1
        ) {
          bytes = Math.floor(bytes / 2);
          cut = cutToBytes(blocks[next] as string, bytes);
        }
        prompt = summaryPromptFor(cut, chunkContext, sections);
        next++;
      }
      const text = await ask(prompt, chunkContext);
      if (typeof text !== "string" || text === "") {
        throw new Error(
          `the summary of chunk ${chunk} was ${typeof text === "string" ? "empty" : typeof text}; no later chunk was summarized`,
        );
      }
      previous = text;
    }
    return previous ?? "";
  };
}
