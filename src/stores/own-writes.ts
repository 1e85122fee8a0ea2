import type { CompactionStore } from "./compaction-store.js";
import { recentEntries, type RecentEntries } from "./recent-entries.js";

/** The caches of own writes, one per store object, shared by every compactor over it. */
const caches = new WeakMap<object, RecentEntries>();

/** Own writes kept per store, as `memoryStore` keeps conversations by default. */
const MAX_OWN_WRITES = 1000;

/**
 * This process's own writes to a shared store: a bounded cache that stands in while the store
 * does not answer, so that an outage does not turn every request into a summary of the whole
 * history. It never outlives the store's copy: an entry expires after the store's `ttlMs`, and is
 * dropped when the store answers that it holds nothing under the key.
 */
export function ownWritesOf(store: CompactionStore): RecentEntries {
  let cache = caches.get(store);
  if (cache === undefined) caches.set(store, (cache = recentEntries(MAX_OWN_WRITES, store.ttlMs)));
  return cache;
}
