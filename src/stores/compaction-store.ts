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
  /**
   * Takes a lease: stores `token` under `key` only when nothing is there, for `ttlMs` (Redis: `SET
   * key token NX PX ttlMs`). Resolves true when taken. Optional: with it, instances that need the
   * same compaction at once make one summary between them.
   */
  acquire?(key: string, token: string, ttlMs: number): boolean | PromiseLike<boolean>;
  /** Gives a lease back: deletes `key` only while it still holds `token` (a compare-and-delete). */
  release?(key: string, token: string): unknown;
  /**
   * Compare-and-set: stores `value` under `key` only while the key still holds `expected` (`null`:
   * while it holds nothing), and resolves true when it did. Optional: with it, a write never
   * overwrites state another instance wrote after this one read; without it, `set` follows a read.
   */
  setIf?(key: string, value: string, expected: string | null): boolean | PromiseLike<boolean>;
  /**
   * Milliseconds the store keeps a value after its last write, when it expires values (Redis `EX`,
   * a KV `expirationTtl`). The cache a compactor keeps of its own writes, which stands in while
   * the store does not answer, keeps them no longer.
   * @default undefined (the store never expires values)
   */
  readonly ttlMs?: number | undefined;
}
