import { abortedError, raceDeadline } from "../ground/deadline.js";
import { CompactionError } from "../ground/errors.js";
import { summarizerAccountOf, summarizerIdentity, type SummarizerAccount } from "../ground/summarizer-account.js";
import type { AnyMessage, Summarize, SummaryContext, SummaryReplacement } from "../ground/types.js";
import { checkedReplacement, isReplacement } from "./place-replacement.js";

/**
 * Calls `summarize` once under the timeout and the caller's signal, and checks its result. Settles
 * as soon as either fires, even if `summarize` never does; a late result or rejection is ignored.
 * `limits.account` hears who made the summary and which summarizers of a chain failed first,
 * whether the call succeeds or not.
 */
export async function runSummarize<M extends AnyMessage>(
  summarize: Summarize<M>,
  older: M[],
  context: Omit<SummaryContext, "signal">,
  limits: {
    timeoutMs: number | undefined;
    signal: AbortSignal | undefined;
    account?: (account: SummarizerAccount) => void;
  },
): Promise<string | SummaryReplacement> {
  const { timeoutMs, signal: callerSignal } = limits;
  if (callerSignal?.aborted) throw abortedError(callerSignal);
  // `summarize` is told through its own signal why it should stop.
  const controller = new AbortController();
  let pending: Promise<unknown>;
  const called: SummaryContext = { ...context, signal: controller.signal };
  // A chain (`firstOf`) says who made the summary; any other summarizer made it itself.
  const told = (succeeded: boolean) =>
    limits.account?.(
      summarizerAccountOf(called) ??
        (succeeded ? { madeBy: summarizerIdentity(summarize, undefined), failures: [] } : { failures: [] }),
    );
  try {
    pending = Promise.resolve(summarize(older, called));
  } catch (error) {
    pending = Promise.reject(error);
  }
  const summarized = pending.then(
    (value) => {
      told(true);
      return value;
    },
    (error: unknown) => {
      told(false);
      throw new CompactionError("SUMMARIZE_FAILED", `summarize failed: ${messageOf(error)}`, { cause: error });
    },
  );
  const text = await raceDeadline(summarized, {
    timeoutMs,
    timedOut: () => new CompactionError("TIMEOUT", `Compaction timed out: summarize took longer than ${timeoutMs} ms`),
    signal: callerSignal,
    interrupted: (reason) => controller.abort(reason),
  });
  if (isReplacement(text)) return checkedReplacement(text);
  if (typeof text !== "string" || text.trim() === "") {
    throw new CompactionError(
      "INVALID_SUMMARY",
      typeof text === "string"
        ? "summarize returned an empty summary; the transcript was left as it was"
        : `summarize returned ${text === null ? "null" : typeof text} instead of a string or \`{ messages }\`; the transcript was left as it was`,
    );
  }
  return text;
}

/** What a thrown value says, whatever it is: a null-prototype object or a throwing `toString` must not escape uncoded. */
function messageOf(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message);
    return String(error);
  } catch {
    return "a thrown value that cannot be printed";
  }
}
