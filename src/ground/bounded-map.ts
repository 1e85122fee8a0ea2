/** A map that holds at most `maxEntries` keys, forgetting the one written least recently first. */
export interface BoundedMap<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  delete(key: string): void;
  has(key: string): boolean;
}

/** A bounded map (see `BoundedMap`): what a hook keeps per conversation, without growing with every conversation it ever saw. */
export function boundedMap<V>(maxEntries: number): BoundedMap<V> {
  // A Map iterates in insertion order, so re-inserting on write keeps the least recently written first.
  const entries = new Map<string, V>();
  return {
    get: (key) => entries.get(key),
    has: (key) => entries.has(key),
    delete: (key) => void entries.delete(key),
    set(key, value) {
      entries.delete(key);
      entries.set(key, value);
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    },
  };
}
