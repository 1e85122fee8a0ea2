import { CompactionError } from "../ground/errors.js";

/** A store call that did not answer within `storeTimeoutMs`: reported to `onStoreError`, never awaited further. */
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
  if (signal?.aborted) return Promise.reject(new CompactionError("ABORTED", "Compaction aborted: the signal was aborted", { cause: signal.reason }));
  return new Promise<Awaited<T>>((resolve, reject) => {
    const timer = setTimeout(() => {
      finish();
      reject(new StoreTimeoutError(`The store's \`${operation}\` did not answer within ${timeoutMs} ms (\`storeTimeoutMs\`)`));
    }, timeoutMs);
    const onAbort = () => {
      finish();
      reject(new CompactionError("ABORTED", "Compaction aborted: the signal was aborted", { cause: signal?.reason }));
    };
    function finish() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
    signal?.addEventListener("abort", onAbort, { once: true });
    let pending: T | PromiseLike<T>;
    try {
      pending = call();
    } catch (error) {
      finish();
      reject(error);
      return;
    }
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
