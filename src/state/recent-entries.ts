/** A bounded map of strings that forgets the least recently used entry first. */
export interface RecentEntries {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
  delete(key: string): void;
  readonly size: number;
}

/**
 * At most `maxEntries` values, each living `ttlMs` after its last write when given: what
 * `memoryStore` keeps, and the cache of a process's own writes to a shared store.
 */
export function recentEntries(maxEntries: number, ttlMs: number | undefined): RecentEntries {
  // A Map iterates in insertion order, so re-inserting on use keeps the least recently used first.
  const entries = new Map<string, { value: string; until: number }>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      entries.delete(key);
      if (entry.until <= Date.now()) return undefined;
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value) {
      entries.delete(key);
      entries.set(key, { value, until: ttlMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + ttlMs });
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
