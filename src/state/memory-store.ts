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
   * Milliseconds an entry lives after its last write; none when undefined.
   * @default undefined
   */
  ttlMs?: number;
}

/**
 * A `CompactionStore` in this process's memory: a bounded least-recently-used map. The default
 * store of `statefulCompactor` and the adapters. It lives as long as the process; use a shared store
 * (Redis, KV) when requests of one conversation may reach different processes.
 *
 * @param options - `maxEntries` (default 1000), `ttlMs` (default none)
 * @returns the store
 * @example
 * ```ts
 * const store = memoryStore({ maxEntries: 10_000 });
 * ```
 */
export function memoryStore(options: MemoryStoreOptions = {}): CompactionStore & { readonly size: number; setIf(key: string, value: string, expected: string | null): boolean } {
  optionsObject(options, "options", ["maxEntries", "ttlMs"]);
  const ttlMs = optionalPositiveMs(options.ttlMs, "ttlMs");
  const maxEntries = optionalInteger(options.maxEntries, "maxEntries", 1, 1000);
  const entries = recentEntries(maxEntries, ttlMs);
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
    ttlMs,
  };
  return store;
}
