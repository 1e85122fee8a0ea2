/**
 * Where `statefulCompactor` keeps each conversation's compaction: any key-value store of strings.
 * A `Map`, Redis, Valkey, Cloudflare KV, Upstash, Keyv or unstorage fits in one line. Each method
 * may be sync or async.
 *
 * @example
 * ```ts
 * const store: CompactionStore = { get: (key) => redis.get(key), set: (key, value) => redis.set(key, value, { EX: 86_400 }) };
 * ```
 */
export interface CompactionStore {
  /** The value stored under `key`, or `null`/`undefined` when there is none. */
  get(key: string): string | null | undefined | PromiseLike<string | null | undefined>;
  /** Stores `value` under `key`, replacing what was there. */
  set(key: string, value: string): unknown;
  /** Removes the value under `key` (optional; used to drop state that no longer applies). */
  delete?(key: string): unknown;
}
