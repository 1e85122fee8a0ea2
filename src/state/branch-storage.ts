import { isCompactionError } from "../ground/errors.js";
import { boundedStoreCall } from "../stores/bounded-store-call.js";
import { InvalidStateError } from "../stores/check-state.js";
import type { CompactionStore } from "../stores/compaction-store.js";
import { parseStates, serializeStates, type ConversationState } from "../stores/conversation-state.js";
import { digestMessages } from "../stores/digest.js";
import type { RecentEntries } from "../stores/recent-entries.js";
import { signState, verifiedState } from "../stores/state-signature.js";
import type { ReportStoreError } from "./stateful-options.js";

/** Compare-and-set attempts of one write before it is made as a plain `set` (see `write`). */
const CAS_ATTEMPTS = 3;

/** What `branchStorage` works with. */
export interface BranchStorageOptions {
  store: CompactionStore;
  /** This process's own writes, which stand in while the store does not answer. */
  ownWrites: RecentEntries | undefined;
  /** With a `signingKey`: what is written is signed, and only what verifies is read. */
  stateKey: Promise<CryptoKey> | undefined;
  storeTimeoutMs: number;
  maxBranches: number;
  report: ReportStoreError;
}

/** A new state to write, and what it is written over. */
export interface BranchWrite {
  next: ConversationState;
  /** The input the new state was made from: a branch that covers more of it is never overwritten. */
  messages: readonly object[];
  /** The branch the new state extends, which it replaces. */
  extended: ConversationState | undefined;
  signal: AbortSignal | undefined;
}

/** The branches of each conversation's key in the store. */
export interface BranchStorage {
  /** The branches stored under `key`; problems are reported to `events.onStoreError`, and read as no state. */
  read(key: string, signal: AbortSignal | undefined): Promise<ConversationState[]>;
  /** Writes a new state as the conversation's most recent branch (see `branchStorage`). */
  write(key: string, write: BranchWrite): Promise<void>;
}

/**
 * Reads and writes the branches of each conversation's key. A write reads what the store holds
 * again first, so that another instance's write in the meantime is kept: the branch the new state
 * extends is replaced, any other branch stays (up to `maxBranches`, the least recently written
 * dropped), and a write is dropped altogether when a branch of this very conversation already
 * covers more (never overwrite newer state). A store with `setIf` makes the write a
 * compare-and-set against what was read: when another instance wrote in between, the merge is
 * made again from what it wrote (up to `CAS_ATTEMPTS` times, then the write goes through as is).
 */
export function branchStorage(options: BranchStorageOptions): BranchStorage {
  const { store, ownWrites, stateKey, storeTimeoutMs, maxBranches, report } = options;
  /** Keys whose store did not answer the last read: their writes are not preceded by another read. */
  const unanswered = new Set<string>();

  /**
   * The branches stored under `key`; problems are reported through `say`. When the store
   * answered, `seen.text` is what it held (`null`: nothing).
   */
  async function readBranches(key: string, signal: AbortSignal | undefined, say: ReportStoreError, seen: { text?: string | null }): Promise<ConversationState[]> {
    let text: unknown;
    try {
      text = await boundedStoreCall(() => store.get(key), "get", storeTimeoutMs, signal);
      unanswered.delete(key);
      seen.text = typeof text === "string" ? text : null;
      // The store answered, and it is the truth: nothing there means expired or deleted, and this
      // instance's own copy goes too.
      if (text === null || text === undefined) ownWrites?.delete(key);
    } catch (error) {
      // An abort means stop; any other failure means "no state" from the store.
      if (isCompactionError(error) && error.code === "ABORTED") throw error;
      unanswered.add(key);
      say(error, { operation: "get", key });
      // What this instance wrote itself stands in while the store does not answer: an outage must
      // not turn every request into a summary of the whole history. The digest check still
      // decides whether it applies.
      text = ownWrites?.get(key);
    }
    if (text === null || text === undefined) return [];
    try {
      if (stateKey !== undefined) {
        const payload = typeof text === "string" ? await verifiedState(text, await stateKey, { kind: "state", key }) : undefined;
        if (payload === undefined) throw new InvalidStateError("Expected stored state signed with this `signingKey` for this key and kind of value");
        text = payload;
      }
      return parseStates(text);
    } catch (error) {
      say(error, { operation: "get", key });
      return [];
    }
  }

  function parseOwnWrite(key: string): ConversationState[] {
    const text = ownWrites?.get(key);
    if (typeof text !== "string" || stateKey !== undefined) return [];
    try {
      return parseStates(text);
    } catch {
      return [];
    }
  }

  const signed = async (key: string, payload: string): Promise<string> => (stateKey === undefined ? payload : signState(payload, await stateKey, { kind: "state", key }));

  async function writeValue(key: string, payload: string): Promise<void> {
    try {
      const value = await signed(key, payload);
      ownWrites?.set(key, value);
      // The result is ready: a write that does not answer in time is reported, not waited for.
      await boundedStoreCall(() => store.set(key, value), "set", storeTimeoutMs, undefined);
    } catch (error) {
      report(error, { operation: "set", key });
    }
  }

  /** `setIf` through the store: false only when the store answered that the key holds something else. */
  async function writeValueIf(key: string, payload: string, expected: string | null, setIf: NonNullable<CompactionStore["setIf"]>): Promise<boolean> {
    let value: string | undefined;
    try {
      value = await signed(key, payload);
      const written = value;
      const swapped = await boundedStoreCall(() => setIf.call(store, key, written, expected), "setIf", storeTimeoutMs, undefined);
      if (swapped) ownWrites?.set(key, value);
      return swapped;
    } catch (error) {
      // As after a failed `set`: this instance's own write stands in while the store does not answer.
      if (value !== undefined) ownWrites?.set(key, value);
      report(error, { operation: "set", key });
      return true;
    }
  }

  return {
    read: (key, signal) => readBranches(key, signal, report, {}),
    async write(key, { next, messages, extended, signal }) {
      for (let attempt = 1; ; attempt++) {
        const seen: { text?: string | null } = {};
        // A store that just failed to answer is not asked again: what this instance holds stands in.
        // A read that merges before a write has had its problems reported by the read before it.
        const current = unanswered.has(key) ? parseOwnWrite(key) : await readBranches(key, signal, () => {}, seen).catch(() => [] as ConversationState[]);
        for (const branch of current) {
          if (branch.covered > next.covered && branch.covered <= messages.length && (await digestMessages(messages.slice(0, branch.covered))) === branch.digest) return;
        }
        const others = current.filter((branch) => branch.digest !== next.digest && branch.digest !== extended?.digest);
        const payload = serializeStates([next, ...others].slice(0, maxBranches));
        const { setIf } = store;
        if (typeof setIf !== "function" || seen.text === undefined || attempt === CAS_ATTEMPTS) return writeValue(key, payload);
        if (await writeValueIf(key, payload, seen.text, setIf)) return;
      }
    },
  };
}
