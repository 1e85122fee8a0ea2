import { abortedError, raceDeadline } from "../ground/deadline.js";

/** A store call that did not answer within `storeTimeoutMs`: reported to `events.onStoreError`, never awaited further. */
export class StoreTimeoutError extends Error {
  override name = "StoreTimeoutError";
}

/**
 * What one request may still wait on its store. A store that does not answer one call in time is
 * taken as down for the rest of the request: its later calls are given up at once, so that an
 * outage (a client that queues commands while it reconnects) costs a request one `storeTimeoutMs`
 * in all, not one per store call.
 */
export interface StoreBudget {
  /** True once a call of the request has not answered in time. */
  spent?: boolean;
}

/**
 * The result of a store call, or a `StoreTimeoutError` once `timeoutMs` has passed, or a
 * `CompactionError` with code `ABORTED` as soon as `signal` aborts: a store that stops answering
 * (a hung connection, an offline queue) never holds a request longer than the bound. A late
 * answer or rejection is ignored. With the request's `budget`, a call that did not answer in time
 * spends it, and a call made once it is spent is not made: it fails at once with a
 * `StoreTimeoutError` that says why.
 */
export function boundedStoreCall<T>(
  call: () => T | PromiseLike<T>,
  operation: string,
  timeoutMs: number,
  { signal, budget }: { signal?: AbortSignal | undefined; budget?: StoreBudget | undefined } = {},
): Promise<Awaited<T>> {
  if (signal?.aborted) return Promise.reject(abortedError(signal));
  if (budget?.spent)
    return Promise.reject(
      new StoreTimeoutError(`The store's \`${operation}\` was not made: an earlier call of this request timed out`),
    );
  let pending: PromiseLike<T>;
  try {
    pending = Promise.resolve(call());
  } catch (error) {
    return Promise.reject(error);
  }
  const answer = raceDeadline(pending, {
    timeoutMs,
    timedOut: () =>
      new StoreTimeoutError(`The store's \`${operation}\` did not answer within ${timeoutMs} ms (\`storeTimeoutMs\`)`),
    signal,
  });
  return budget === undefined
    ? answer
    : answer.catch((error: unknown) => {
        // Told by name, so that the store's own bound (`redisStore`'s `timeoutMs`, bundled apart
        // with its own class) counts as this one does.
        if ((error as Error | undefined)?.name === "StoreTimeoutError") budget.spent = true;
        throw error;
      });
}

/**
 * A write whose answer the request can do without: waited for, as `boundedStoreCall` waits, while
 * the request's budget is whole; once it is spent, sent all the same but not waited for, its
 * failure reported through `failed` whenever it comes. The request has had its one wait on the
 * store, and a store that was only slow (a loaded machine, not an outage) still gets the write,
 * which the next request would otherwise have to make again.
 */
export async function boundedStoreWrite(
  call: () => unknown,
  operation: string,
  timeoutMs: number,
  { budget, failed }: { budget: StoreBudget | undefined; failed: (error: unknown) => void },
): Promise<void> {
  const spent = budget?.spent === true;
  const written = boundedStoreCall(call, operation, timeoutMs, spent ? {} : { budget }).then(() => undefined, failed);
  if (!spent) await written;
}
