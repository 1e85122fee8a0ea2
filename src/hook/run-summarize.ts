import { CompactionError } from "../ground/errors.js";
import type { AnyMessage, Summarize, SummaryContext, SummaryReplacement } from "../ground/types.js";
import { checkedReplacement, isReplacement } from "./place-replacement.js";

function abortedError(signal: AbortSignal): CompactionError {
  return new CompactionError("ABORTED", "Compaction aborted: the signal was aborted", { cause: signal.reason });
}

/**
 * Calls `summarize` once under the timeout and the caller's signal, and checks its result. Settles
 * as soon as either fires, even if `summarize` never does; a late result or rejection is ignored.
 */
export async function runSummarize<M extends AnyMessage>(
  summarize: Summarize<M>,
  older: M[],
  context: Omit<SummaryContext, "signal">,
  timeoutMs: number | undefined,
  callerSignal: AbortSignal | undefined,
): Promise<string | SummaryReplacement> {
  if (callerSignal?.aborted) throw abortedError(callerSignal);
  const controller = new AbortController();
  let fail: (error: CompactionError) => void = () => {};
  const interrupted = new Promise<never>((_, reject) => {
    fail = reject;
  });
  const onCallerAbort = () => {
    const error = abortedError(callerSignal as AbortSignal);
    controller.abort(error);
    fail(error);
  };
  callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          const error = new CompactionError("TIMEOUT", `Compaction timed out: summarize took longer than ${timeoutMs} ms`);
          controller.abort(error);
          fail(error);
        }, timeoutMs);
  try {
    let pending: Promise<unknown>;
    try {
      pending = Promise.resolve(summarize(older, { ...context, signal: controller.signal }));
    } catch (error) {
      pending = Promise.reject(error);
    }
    const summarized = pending.then(
      (value) => value,
      (error: unknown) => {
        throw new CompactionError("SUMMARIZE_FAILED", `summarize failed: ${messageOf(error)}`, { cause: error });
      },
    );
    // A summarize that settles after the timeout or abort must not surface as an unhandled rejection.
    summarized.catch(() => {});
    const text = await Promise.race([summarized, interrupted]);
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
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    callerSignal?.removeEventListener("abort", onCallerAbort);
  }
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
