import { isCompactionError } from "../ground/errors.js";
import { boundedStoreCall, boundedStoreWrite, type StoreBudget } from "../stores/bounded-store-call.js";
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
  /** The request's store budget: once a call of the request went unanswered, the write is not sent. */
  budget?: StoreBudget | undefined;
}

/** The branches of each conversation's key in the store. */
export interface BranchStorage {
  /** The branches stored under `key`; problems are reported to `events.onStoreError`, and read as no state. */
  read(key: string, signal: AbortSignal | undefined, budget?: StoreBudget): Promise<ConversationState[]>;
  /**
   * False when the store did not answer the last read of `key` (what was read then is this
   * instance's own copy, or nothing), or answered with less than this instance wrote itself (a
   * write made while it was down never reached it): the state a request was last sent with may
   * then be one it does not hold.
   */
  answered(key: string): boolean;
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
  /** Keys whose store, at the last read, held less than this instance wrote: a write of the outage never reached it. */
  const behind = new Set<string>();

  /** The states of a stored value, verified when it is signed; throws what is wrong with it. */
  async function statesOf(key: string, text: unknown): Promise<ConversationState[]> {
    if (stateKey !== undefined) {
      const payload =
        typeof text === "string" ? await verifiedState(text, await stateKey, { kind: "state", key }) : undefined;
      if (payload === undefined)
        throw new InvalidStateError(
          "Expected stored state signed with this `signingKey` for this key and kind of value",
        );
      return parseStates(payload);
    }
    return parseStates(text);
  }

  /** True when this instance's own write covers more than every branch the store answered with. */
  async function storeIsBehind(key: string, text: unknown, states: ConversationState[]): Promise<boolean> {
    const own = ownWrites?.get(key);
    if (own === undefined || own === text) return false;
    const ownStates = await statesOf(key, own).catch(() => [] as ConversationState[]);
    const most = (list: ConversationState[]) => Math.max(0, ...list.map((state) => state.covered));
    return most(ownStates) > most(states);
  }

  /**
   * The branches stored under `key`; problems are reported through `say`. When the store
   * answered, `seen.text` is what it held (`null`: nothing).
   */
  async function readBranches(
    key: string,
    call: { signal: AbortSignal | undefined; budget: StoreBudget | undefined },
    say: ReportStoreError,
    seen: { text?: string | null },
  ): Promise<ConversationState[]> {
    let text: unknown;
    let answered = false;
    try {
      text = await boundedStoreCall(() => store.get(key), "get", storeTimeoutMs, call);
      answered = true;
      unanswered.delete(key);
      behind.delete(key);
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
      const states = await statesOf(key, text);
      if (answered && (await storeIsBehind(key, text, states))) behind.add(key);
      return states;
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

  const signed = async (key: string, payload: string): Promise<string> =>
    stateKey === undefined ? payload : signState(payload, await stateKey, { kind: "state", key });

  async function writeValue(key: string, payload: string, budget: StoreBudget | undefined): Promise<void> {
    const failed = (error: unknown) => report(error, { operation: "set", key });
    let value: string;
    try {
      value = await signed(key, payload);
    } catch (error) {
      return failed(error);
    }
    ownWrites?.set(key, value);
    // The result is ready: a write that does not answer in time is reported, not waited for.
    await boundedStoreWrite(() => store.set(key, value), "set", storeTimeoutMs, { budget, failed });
  }

  /** `setIf` through the store: false only when the store answered that the key holds something else. */
  async function writeValueIf(
    key: string,
    payload: string,
    {
      expected,
      setIf,
      budget,
    }: { expected: string | null; setIf: NonNullable<CompactionStore["setIf"]>; budget: StoreBudget | undefined },
  ): Promise<boolean> {
    let value: string | undefined;
    try {
      value = await signed(key, payload);
      const written = value;
      const swapped = await boundedStoreCall(() => setIf.call(store, key, written, expected), "setIf", storeTimeoutMs, {
        budget,
      });
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
    read: (key, signal, budget) => readBranches(key, { signal, budget }, report, {}),
    answered: (key) => !unanswered.has(key) && !behind.has(key),
    async write(key, { next, messages, extended, signal, budget }) {
      for (let attempt = 1; ; attempt++) {
        const seen: { text?: string | null } = {};
        // A store that just failed to answer is not asked again: what this instance holds stands in.
        // A read that merges before a write has had its problems reported by the read before it.
        const current = unanswered.has(key)
          ? parseOwnWrite(key)
          : await readBranches(key, { signal, budget }, () => {}, seen).catch(() => [] as ConversationState[]);
        for (const branch of current) {
          if (
            branch.covered > next.covered &&
            branch.covered <= messages.length &&
            (await digestMessages(messages.slice(0, branch.covered))) === branch.digest
          )
            return;
        }
        const others = current.filter((branch) => branch.digest !== next.digest && branch.digest !== extended?.digest);
        const payload = serializeStates([next, ...others].slice(0, maxBranches));
        const { setIf } = store;
        if (typeof setIf !== "function" || seen.text === undefined || attempt === CAS_ATTEMPTS)
          return writeValue(key, payload, budget);
        if (await writeValueIf(key, payload, { expected: seen.text, setIf, budget })) return;
      }
    },
  };
}
