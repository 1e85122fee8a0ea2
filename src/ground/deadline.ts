// Timeouts and aborts, written once: the summarizer's timeout, the bound on every store call and
// the wait for another instance's lease all race a promise against a timer and a signal.
import { describeValue, expectedMessage } from "./describe-value.js";
import { CompactionError } from "./errors.js";

/** `setTimeout` fires at once for delays above 2^31 - 1 ms, which would turn a long timeout into none. */
export const LONGEST_TIMEOUT_MS = 2_147_483_647;

/** The error every abort ends with: `CompactionError` with code `ABORTED`, the signal's reason as its cause. */
export function abortedError(signal: AbortSignal | undefined): CompactionError {
  return new CompactionError("ABORTED", "Compaction aborted: the signal was aborted", { cause: signal?.reason });
}

/**
 * An optional timeout option: a positive number of milliseconds up to `LONGEST_TIMEOUT_MS`.
 * Throws a `TypeError` (not a number) or a `RangeError` (out of range) naming the option.
 */
export function optionalMilliseconds(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  const what = `a positive number of milliseconds up to ${LONGEST_TIMEOUT_MS}`;
  if (typeof value !== "number") throw new TypeError(expectedMessage(name, what, value));
  if (!(value > 0 && value <= LONGEST_TIMEOUT_MS))
    throw new RangeError(`Expected \`${name}\` to be ${what}, got ${describeValue(value)} (number)`);
  return value;
}

/** How a race ends early. */
export interface Deadline {
  /** Milliseconds until `timedOut` ends the race; none when undefined. */
  timeoutMs?: number | undefined;
  /** The rejection a timeout ends the race with. */
  timedOut?: () => unknown;
  /** Ends the race with `abortedError` as soon as it aborts (at once when it already has). */
  signal?: AbortSignal | undefined;
  /** Told why the race ended early (the timeout's error, or the abort's), to stop the work behind it. */
  interrupted?: (reason: unknown) => void;
}

/**
 * Settles as `pending` does, unless the timeout or the signal comes first: then it rejects at
 * once, even if `pending` never settles, and a late result or rejection of `pending` is ignored
 * (never an unhandled rejection). The timer and the listener are removed however it ends.
 */
export function raceDeadline<T>(pending: PromiseLike<T>, deadline: Deadline): Promise<Awaited<T>> {
  const {
    timeoutMs,
    timedOut = () => new Error(`timed out after ${String(timeoutMs)} ms`),
    signal,
    interrupted,
  } = deadline;
  return new Promise<Awaited<T>>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = () => {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    const stop = (reason: unknown) => {
      finish();
      interrupted?.(reason);
      reject(reason);
    };
    function onAbort() {
      stop(abortedError(signal));
    }
    if (signal?.aborted) {
      stop(abortedError(signal));
      Promise.resolve(pending).then(undefined, () => {});
      return;
    }
    signal?.addEventListener("abort", onAbort, { once: true });
    if (timeoutMs !== undefined) timer = setTimeout(() => stop(timedOut()), timeoutMs);
    Promise.resolve(pending).then(
      (value) => {
        finish();
        resolve(value as Awaited<T>);
      },
      (error: unknown) => {
        finish();
        reject(error);
      },
    );
  });
}

/** Waits `ms`, or rejects with `ABORTED` as soon as `signal` aborts. */
export async function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  const elapsed = Symbol("elapsed");
  try {
    await raceDeadline(new Promise<never>(() => {}), { timeoutMs: ms, timedOut: () => elapsed, signal });
  } catch (reason) {
    if (reason !== elapsed) throw reason;
  }
}
