import { abortedError, raceDeadline } from "../ground/deadline.js";

/** A store call that did not answer within `storeTimeoutMs`: reported to `events.onStoreError`, never awaited further. */
export class StoreTimeoutError extends Error {
  override name = "StoreTimeoutError";
}

/**
 * The result of a store call, or a `StoreTimeoutError` once `timeoutMs` has passed, or a
 * `CompactionError` with code `ABORTED` as soon as `signal` aborts: a store that stops answering
 * (a hung connection, an offline queue) never holds a request longer than the bound. A late
 * answer or rejection is ignored.
 */
export function boundedStoreCall<T>(call: () => T | PromiseLike<T>, operation: string, timeoutMs: number, signal: AbortSignal | undefined): Promise<Awaited<T>> {
  if (signal?.aborted) return Promise.reject(abortedError(signal));
  let pending: PromiseLike<T>;
  try {
    pending = Promise.resolve(call());
  } catch (error) {
    return Promise.reject(error);
  }
  return raceDeadline(pending, {
    timeoutMs,
    timedOut: () => new StoreTimeoutError(`The store's \`${operation}\` did not answer within ${timeoutMs} ms (\`storeTimeoutMs\`)`),
    signal,
  });
}
