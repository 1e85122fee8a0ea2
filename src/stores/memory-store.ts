import type { CompactionStore } from "./compaction-store.js";
import { recentEntries } from "./recent-entries.js";
import { optionalInteger, optionalPositiveMs, optionsObject } from "../ground/checks.js";

/** Options of `memoryStore`. */
export interface MemoryStoreOptions {
  /**
   * Conversations kept at most; the least recently used is dropped first.
   * @default 1000
   */
  maxEntries?: number;
  /**
   * Bytes kept at most, counted as two per UTF-16 code unit of each key and value (what a
   * JavaScript string takes in memory at most); the least recently used entries are dropped first.
   * A single value larger than this is refused: `set` throws a `RangeError`, which
   * `statefulCompactor` reports to `events.onStoreError` like any failed write.
   * @default 67108864 (64 MB)
   */
  maxBytes?: number;
  /**
   * Milliseconds an entry lives after its last write; none when undefined.
   * @default undefined
   */
  ttlMs?: number;
}

/** Bytes `memoryStore` keeps unless `maxBytes` says otherwise: 64 MB. */
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * A `CompactionStore` in this process's memory: a least-recently-used map bounded in entries and
 * in bytes (an archive can make one conversation's entry megabytes). The default store of
 * `statefulCompactor` and the adapters. It lives as long as the process; use a shared store
 * (Redis, KV) when requests of one conversation may reach different processes.
 *
 * @param options - `maxEntries` (default 1000), `maxBytes` (default 64 MB), `ttlMs` (default none)
 * @returns the store, with `size` (entries) and `bytes` (what they take) to watch it
 * @example
 * ```ts
 * const store = memoryStore({ maxEntries: 10_000, maxBytes: 256 * 1024 * 1024 });
 * ```
 */
export function memoryStore(options: MemoryStoreOptions = {}): CompactionStore & {
  readonly size: number;
  readonly bytes: number;
  setIf(key: string, value: string, expected: string | null): boolean;
} {
  optionsObject(options, "options", ["maxEntries", "maxBytes", "ttlMs"]);
  const ttlMs = optionalPositiveMs(options.ttlMs, "ttlMs");
  const maxEntries = optionalInteger(options.maxEntries, "maxEntries", 1, 1000);
  const maxBytes = optionalInteger(options.maxBytes, "maxBytes", 1, DEFAULT_MAX_BYTES);
  const entries = recentEntries(maxEntries, ttlMs, maxBytes);
  const leases = new Map<string, { token: string; until: number }>();
  const store = {
    get: (key: string): string | undefined => entries.get(key),
    set: (key: string, value: string): void => entries.set(key, value),
    setIf(key: string, value: string, expected: string | null): boolean {
      if ((entries.get(key) ?? null) !== expected) return false;
      entries.set(key, value);
      return true;
    },
    acquire(key: string, token: string, leaseMs: number): boolean {
      const held = leases.get(key);
      if (held !== undefined && held.until > Date.now()) return false;
      leases.set(key, { token, until: Date.now() + leaseMs });
      return true;
    },
    release(key: string, token: string): void {
      if (leases.get(key)?.token === token) leases.delete(key);
    },
    get size(): number {
      return entries.size;
    },
    get bytes(): number {
      return entries.bytes;
    },
    ttlMs,
  };
  return store;
}
