import type { CompactionStore } from "./compaction-store.js";
import { memoryStore } from "./memory-store.js";

/** The caches of own writes, one per store object, shared by every compactor over it. */
const caches = new WeakMap<object, CompactionStore>();

/**
 * This process's own writes to a shared store: a bounded cache that stands in while the store
 * does not answer, so that an outage does not turn every request into a summary of the whole
 * history. It never outlives the store's copy: an entry expires after the store's `ttlMs`, and
 * `forgetOwnWrite` drops it when the store deletes the key.
 */
export function ownWritesOf(store: CompactionStore): CompactionStore {
  let cache = caches.get(store);
  if (cache === undefined) caches.set(store, (cache = memoryStore(store.ttlMs === undefined ? {} : { ttlMs: store.ttlMs })));
  return cache;
}

/** Drops this process's own write of `key` to `store`: called by a store's `delete`, before it reaches the server. */
export function forgetOwnWrite(store: object, key: string): void {
  caches.get(store)?.delete?.(key);
}
