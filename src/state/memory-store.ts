import { expectedMessage } from "../ground/describe-value.js";
import { rejectUnknownKeys } from "../ground/unknown-keys.js";
import type { CompactionStore } from "./compaction-store.js";

/** Options of `memoryStore`. */
export interface MemoryStoreOptions {
  /**
   * Conversations kept at most; the least recently used is dropped first.
   * @default 1000
   */
  maxEntries?: number;
}

/**
 * A `CompactionStore` in this process's memory: a bounded least-recently-used map. The default
 * store of `statefulCompactor` and the adapters. It lives as long as the process; use a shared store
 * (Redis, KV) when requests of one conversation may reach different processes.
 *
 * @param options - `maxEntries` (default 1000)
 * @returns the store
 * @example
 * ```ts
 * const store = memoryStore({ maxEntries: 10_000 });
 * ```
 */
export function memoryStore(options: MemoryStoreOptions = {}): CompactionStore & { readonly size: number } {
  if (typeof options !== "object" || options === null) throw new TypeError(expectedMessage("options", "an object", options));
  rejectUnknownKeys(options, ["maxEntries"], "");
  const { maxEntries = 1000 } = options;
  const what = "a positive integer";
  if (typeof maxEntries !== "number") throw new TypeError(expectedMessage("maxEntries", what, maxEntries));
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError(expectedMessage("maxEntries", what, maxEntries));
  // A Map iterates in insertion order, so re-inserting on use keeps the least recently used first.
  const entries = new Map<string, string>();
  return {
    get(key) {
      const value = entries.get(key);
      if (value === undefined) return undefined;
      entries.delete(key);
      entries.set(key, value);
      return value;
    },
    set(key, value) {
      entries.delete(key);
      entries.set(key, value);
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    },
    delete(key) {
      entries.delete(key);
    },
    get size() {
      return entries.size;
    },
  };
}
