import { pause } from "../ground/deadline.js";
import { isCompactionError } from "../ground/errors.js";
import { boundedStoreCall, boundedStoreWrite, type StoreBudget } from "../stores/bounded-store-call.js";
import type { CompactionStore } from "../stores/compaction-store.js";
import type { ReportStoreError } from "./stateful-options.js";
import { leaseKeyOf } from "../stores/store-keys.js";

/** How often a waiting instance looks for the lease holder's state. */
const LEASE_POLL_MS = 100;

/** What `conversationLeases` works with. */
export interface ConversationLeaseOptions {
  store: CompactionStore;
  /** How long a lease holds, and so the longest another instance waits for its holder's state. */
  leaseMs: number;
  storeTimeoutMs: number;
  report: ReportStoreError;
}

/** What came of asking for the lease: the state another instance made meanwhile, if any, and the lease to give back. */
export interface LeaseOutcome<T> {
  /** What `arrived` found while another instance held the lease, or once this call took it; undefined when this call may summarize. */
  arrived: T | undefined;
  /** Gives the lease back when this call holds it; does nothing otherwise. Never rejects. */
  release(): Promise<void>;
}

/** The leases of a store's conversations. */
export interface ConversationLeases {
  /**
   * Before summarizing: the lease on the conversation, when the store offers leases. While another
   * instance holds it, `arrived` is asked every `LEASE_POLL_MS` for the state that instance writes,
   * up to `leaseMs`; when it answers, that is the outcome, and this call does not summarize the
   * same crossing again; so too when `arrived` answers right after this call took the lease (its
   * holder before finished in between). A store that has no leases, could not say, or a holder
   * that never writes lets the call summarize alone.
   */
  acquire<T>(
    key: string,
    signal: AbortSignal | undefined,
    arrived: () => Promise<T | undefined>,
    budget?: StoreBudget,
  ): Promise<LeaseOutcome<T>>;
}

type Answer = "leased" | "wait" | "free";

/** One summary per crossing across instances: only the holder of a conversation's lease summarizes it. */
export function conversationLeases(options: ConversationLeaseOptions): ConversationLeases {
  const { store, leaseMs, storeTimeoutMs, report } = options;

  async function release(key: string, token: string, budget?: StoreBudget): Promise<void> {
    // Once the store has not answered a call of this request, the release is sent but not waited
    // for: a compare-and-delete that runs late is still right (a client that queues it while it
    // reconnects frees the lease as soon as the store is back).
    await boundedStoreWrite(() => store.release?.(leaseKeyOf(key), token), "release", storeTimeoutMs, {
      budget,
      failed: (error) => report(error, { operation: "set", key }),
    });
  }

  /** `"leased"` when this call holds the lease, `"wait"` when another does, `"free"` when the store has no leases or could not say. */
  async function ask(
    key: string,
    token: string,
    signal: AbortSignal | undefined,
    budget: StoreBudget | undefined,
  ): Promise<Answer> {
    const acquire = store.acquire;
    if (typeof acquire !== "function") return "free";
    let answer: Promise<unknown> | undefined;
    try {
      return (await boundedStoreCall(
        () => (answer = Promise.resolve(acquire.call(store, leaseKeyOf(key), token, leaseMs))),
        "acquire",
        storeTimeoutMs,
        { signal, budget },
      ))
        ? "leased"
        : "wait";
    } catch (error) {
      // Given up on (an abort, a timeout): a lease the store still grants is held by nobody, and
      // would keep every other call of the conversation waiting until it expires.
      void answer?.then(
        (granted) => granted && release(key, token),
        () => undefined,
      );
      if (isCompactionError(error) && error.code === "ABORTED") throw error;
      report(error, { operation: "get", key });
      return "free";
    }
  }

  return {
    async acquire<T>(
      key: string,
      signal: AbortSignal | undefined,
      arrived: () => Promise<T | undefined>,
      budget?: StoreBudget,
    ): Promise<LeaseOutcome<T>> {
      const token = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
      let lease = await ask(key, token, signal, budget);
      const deadline = Date.now() + leaseMs;
      // Another instance may have summarized, written its state and given the lease back between
      // this call's read of the state and its ask: what it wrote is looked for once more, so that
      // the same crossing is not summarized twice.
      let found = lease === "leased" ? await arrived() : undefined;
      while (lease === "wait" && Date.now() < deadline) {
        await pause(LEASE_POLL_MS, signal);
        found = await arrived();
        if (found !== undefined) break;
        lease = await ask(key, token, signal, budget);
      }
      const held = lease === "leased";
      return { arrived: found, release: () => (held ? release(key, token, budget) : Promise.resolve()) };
    },
  };
}
