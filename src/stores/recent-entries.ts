/** A bounded map of strings that forgets the least recently used entry first. */
export interface RecentEntries {
  get(key: string): string | undefined;
  /** Stores `value`; throws a `RangeError`, and keeps what the key held, when the entry alone is over `maxBytes`. */
  set(key: string, value: string): void;
  delete(key: string): void;
  readonly size: number;
  /** What the entries take, as `bytesOf` counts it. */
  readonly bytes: number;
}

/**
 * What an entry takes: two bytes per UTF-16 code unit of its key and value, what a JavaScript
 * string holds at most (V8 keeps a Latin-1 string in one byte a character, never more than two).
 * Read from the strings' lengths, so counting costs nothing whatever their size.
 */
export const bytesOf = (key: string, value: string): number => (key.length + value.length) * 2;

/**
 * At most `maxEntries` values and `maxBytes` bytes (see `bytesOf`), each living `ttlMs` after
 * its last write when given: what `memoryStore` keeps, and the cache of a process's own writes to
 * a shared store.
 */
export function recentEntries(
  maxEntries: number,
  ttlMs: number | undefined,
  maxBytes = Number.POSITIVE_INFINITY,
): RecentEntries {
  // A Map iterates in insertion order, so re-inserting on use keeps the least recently used first.
  const entries = new Map<string, { value: string; until: number }>();
  let bytes = 0;
  const remove = (key: string) => {
    const entry = entries.get(key);
    if (entry === undefined) return;
    entries.delete(key);
    bytes -= bytesOf(key, entry.value);
  };
  return {
    get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      entries.delete(key);
      if (entry.until <= Date.now()) {
        bytes -= bytesOf(key, entry.value);
        return undefined;
      }
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value) {
      const size = bytesOf(key, value);
      // One value that could never fit is refused rather than emptying the store to make room.
      if (size > maxBytes)
        throw new RangeError(
          `Expected a value within the store's \`maxBytes\` (${maxBytes}), got one of ${size} bytes with its key: it was not stored`,
        );
      remove(key);
      entries.set(key, { value, until: ttlMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + ttlMs });
      bytes += size;
      while (entries.size > maxEntries || bytes > maxBytes) remove(entries.keys().next().value as string);
    },
    delete: remove,
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
  };
}
