// One conversation's archive in the store: read and appended with the state's signing key, through
// bounded store calls, and bounded in size.

import { isCompactionError } from "../ground/errors.js";
import { ArchiveTrimmedError } from "./archive-trimmed-error.js";
import { boundedStoreCall, boundedStoreWrite, type StoreBudget } from "../stores/bounded-store-call.js";
import { utf8ByteLength } from "../counting/utf8-length.js";
import { InvalidStateError } from "../stores/check-state.js";
import type { CompactionStore } from "../stores/compaction-store.js";
import { appendBounded, parseArchive, serializeArchive, type ArchivedRange } from "./conversation-archive.js";
import { signState, verifiedState } from "../stores/state-signature.js";
import { archiveKeyOf } from "../stores/store-keys.js";

/** What the archive needs of its compactor. */
export interface ArchiveStoreOptions {
  store: CompactionStore;
  /** The HMAC key of `signingKey`, when the state is signed. */
  stateKey: Promise<CryptoKey> | undefined;
  storeTimeoutMs: number;
  maxBytes: number;
  /** `events.onStoreError`, with the archive's own key. */
  report: (error: unknown, operation: "get" | "set", key: string) => void;
}

/** Reads and appends the archives of a compactor's conversations (each under `archiveKeyOf(key)`). */
export function archiveStore({ store, stateKey, storeTimeoutMs, maxBytes, report }: ArchiveStoreOptions) {
  // The archives read last, by key, with the stored text they were read from: a recall that finds
  // the same text reads the same ranges (and what `recallFromArchive` made of them) instead of
  // parsing, verifying and rendering megabytes again. A few conversations only: the rest are read anew.
  const lastRead = new Map<string, { text: string; ranges: ArchivedRange[] }>();
  const remember = (key: string, text: string, ranges: ArchivedRange[]): ArchivedRange[] => {
    lastRead.delete(key);
    lastRead.set(key, { text, ranges });
    if (lastRead.size > 4) lastRead.delete(lastRead.keys().next().value as string);
    return ranges;
  };

  /**
   * The archived ranges of a conversation, oldest first; `undefined` when the store did not answer
   * (reported). An archive that is unsigned, signed with another key or unreadable is reported and
   * read as empty.
   */
  async function read(
    conversationKey: string,
    signal: AbortSignal | undefined,
    budget?: StoreBudget,
  ): Promise<ArchivedRange[] | undefined> {
    const key = archiveKeyOf(conversationKey);
    let text: unknown;
    try {
      text = await boundedStoreCall(() => store.get(key), "get", storeTimeoutMs, { signal, budget });
    } catch (error) {
      if (isCompactionError(error) && error.code === "ABORTED") throw error;
      report(error, "get", key);
      return undefined;
    }
    if (text === null || text === undefined) return [];
    const known = lastRead.get(key);
    if (known !== undefined && known.text === text) return known.ranges;
    try {
      if (typeof text !== "string")
        throw new InvalidStateError(`Expected the stored archive to be a string, got ${typeof text}`);
      let payload: string | undefined = text;
      if (stateKey !== undefined) {
        payload = await verifiedState(text, await stateKey, { kind: "archive", key });
        if (payload === undefined)
          throw new InvalidStateError(
            "Expected the stored archive signed with this `signingKey` for this key and kind of value",
          );
      }
      return remember(key, text, parseArchive(payload));
    } catch (error) {
      report(error, "get", key);
      return [];
    }
  }

  /**
   * Appends the messages a compaction removed (`range`, none when it removed none) to the archive
   * as `read` found it (read now when not given), and resolves to the archive the store holds
   * afterwards: the one written, or the one read when the write failed (it is still there), or
   * `undefined` when the store did not answer the read. When the store did not answer the read,
   * nothing is written: a write would replace the archive it could not read. Past `maxBytes` the
   * oldest messages are dropped, a message larger than the bound by itself is skipped, and an
   * `ArchiveTrimmedError` reported. A write the store refuses (its own value limit, a `memoryStore`'s
   * `maxBytes`) is tried again twice within half the bytes each time, as `maxBytes` trims: the
   * messages that fit are stored, and a message too large for the store is skipped; a write that
   * timed out is not tried again (one wait per call). With `refresh`, an archive that gains nothing
   * is written again all the same, so that it expires no sooner than the state just written beside it.
   */
  async function append(
    conversationKey: string,
    range: ArchivedRange | undefined,
    {
      read: readAlready,
      refresh = false,
      budget,
    }: { read?: { ranges: ArchivedRange[] | undefined }; refresh?: boolean; budget?: StoreBudget } = {},
  ): Promise<ArchivedRange[] | undefined> {
    const key = archiveKeyOf(conversationKey);
    // The result is ready: like the state's write, this one is not given up when the call aborts.
    const current = readAlready === undefined ? await read(conversationKey, undefined, budget) : readAlready.ranges;
    if (current === undefined) return undefined;
    let bound = maxBytes;
    for (let attempt = 0; ; attempt++) {
      const { ranges, trim, added } =
        range === undefined
          ? { ranges: current, trim: { dropped: [], skipped: [] }, added: false }
          : appendBounded(current, range, bound);
      // Every message is archived already (a payload cut again on this call), or too large to be:
      // nothing to write, unless the archive is to live as long as a state written now.
      if (!added && !(refresh && ranges.length > 0)) {
        if (trim.skipped.length > 0) report(new ArchiveTrimmedError([], bound, trim.skipped), "set", key);
        return current;
      }
      const payload = serializeArchive(ranges);
      let value: string;
      try {
        value = stateKey === undefined ? payload : await signState(payload, await stateKey, { kind: "archive", key });
      } catch (error) {
        report(error, "set", key);
        return current;
      }
      // A write sent once the request's store budget is spent is not waited for: what it stored is
      // not known, so the archive named is the one read.
      const waited = budget?.spent !== true;
      let failure: { error: unknown } | undefined;
      // A store that answers `false` kept nothing (Keyv's `set` says so): a refusal, as a throw is.
      const write = async () => {
        if ((await store.set(key, value)) === false)
          throw new Error("The store did not keep the archive: its `set` answered false");
      };
      await boundedStoreWrite(write, "set", storeTimeoutMs, {
        budget,
        failed: (error) => ((failure = { error }), report(error, "set", key)),
      });
      if (!waited) return current;
      if (failure !== undefined) {
        // A refusal (the store's value limit) is tried again within half the bytes; a timeout is not.
        if ((failure.error as Error | undefined)?.name === "StoreTimeoutError" || attempt === 2 || range === undefined)
          return current;
        bound = Math.min(bound, Math.floor(utf8ByteLength(payload) / 2));
        continue;
      }
      if (trim.dropped.length > 0 || trim.skipped.length > 0)
        report(new ArchiveTrimmedError(trim.dropped, bound, trim.skipped), "set", key);
      return ranges;
    }
  }

  return { read, append };
}
