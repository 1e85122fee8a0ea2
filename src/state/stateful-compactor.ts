import { runCompaction } from "../hook/engine.js";
import { optionalMilliseconds, pause } from "../ground/deadline.js";
import { resolveOptions } from "../ground/options.js";
import type { AnyMessage, CompactorOptions, ReportedUsage } from "../ground/types.js";
import { headLength } from "../plan/split-at-user-boundary.js";
import { optionalAbortSignal } from "../ground/abort-signal.js";
import { expectedMessage } from "../ground/describe-value.js";
import { rejectUnknownKeys } from "../ground/unknown-keys.js";
import { assertTranscript } from "../validation/validate-messages.js";
import { checkedUsage } from "../validation/usage.js";
import type { CompactionStore } from "./compaction-store.js";
import { STATE_VERSION, parseStates, serializeStates, type ConversationState } from "./conversation-state.js";
import { boundedStoreCall } from "./bounded-store-call.js";
import { checkedSummary, InvalidStateError } from "./check-state.js";
import { CompactionError, isCompactionError } from "../ground/errors.js";
import { planWithSettings, type EnginePlan } from "../plan/plan.js";
import { UnreadableValueError, digestMessages } from "./digest.js";
import { importSigningKey, signState, verifiedState } from "./state-signature.js";
import { memoryStore } from "./memory-store.js";
import { ownWritesOf } from "./own-writes.js";
import { storedSummaryOf } from "./stored-compaction.js";
import { coveredTailOf, slidState } from "./slid-window.js";
import { KEY_PREFIX, archiveKeyOf, automaticKey, keyOfId, leaseKeyOf } from "./store-keys.js";
import { archiveStore } from "./archive-store.js";
import { archiveLine } from "./archive-line.js";
import { rangeOf, type ArchivedMessage } from "./conversation-archive.js";
import { recallFromArchive } from "./recall-archive.js";
import { providerPayload } from "../dialects/messages.js";

/** What failed when a store call threw or rejected. */
export interface StoreErrorContext {
  operation: "get" | "set";
  /** The store key of the conversation. */
  key: string;
}

/** Options of `statefulCompactor`: those of `compactor`, plus where and under which id the state lives. */
export interface StatefulCompactorOptions<M extends AnyMessage = AnyMessage> extends CompactorOptions<M> {
  /**
   * Where each conversation's compaction is kept. Share one store between requests, processes or
   * machines (Redis, KV) and each continues from the others' compaction.
   * @default memoryStore() (one per statefulCompactor)
   */
  store?: CompactionStore;
  /**
   * The conversation's id, when one instance serves one conversation (a call's own `conversationId` wins).
   * @default derived from the system prompt and the opening (at least the three messages after it)
   */
  conversationId?: string;
  /**
   * Branches of one conversation kept under its key (an edited message, a regenerated reply, two
   * conversations that open alike under the automatic key): each is digest-checked, the one that
   * covers the longest prefix of the input is used, and the least recently written is dropped.
   * @default 4
   */
  maxBranches?: number;
  /**
   * The longest a store call may take. A `get` that does not answer in time is reported to
   * `onStoreError` and the call goes on without state; a `set` that does not answer is reported and
   * the result returned anyway. A hung or offline store never holds a request longer than this.
   * @default 1000
   */
  storeTimeoutMs?: number;
  /**
   * Called when the store's `get` or `set` throws or rejects, or holds unreadable state. The call
   * goes on as if there were no state (`get`) or returns its result anyway (`set`). Also called
   * with an `UnreadableValueError` when the input holds a value the digest cannot read (a `Blob`,
   * a `Map`, a `Set`, a class instance with no enumerable data): that call is compacted without
   * state, and nothing is stored for it.
   * @default ignore and continue
   */
  onStoreError?: (error: unknown, context: StoreErrorContext) => void;
  /**
   * For a conversation with an id, keeps every message a compaction takes out of the request (those
   * a summary replaces, masked or cut ones), verbatim (the caller's own objects as JSON), in the
   * store under the conversation (`<key>:archive`), with the same store, expiry, `signingKey` and
   * `storeTimeoutMs` as the state: `compact.recall` and the `recall_context` tools read it back,
   * and the summary message ends with one line saying which messages are archived and how to
   * recall them. Costs one more `get` and `set` per compaction, and the archive's bytes.
   * @default false
   */
  archive?: boolean;
  /**
   * The most an archive may hold per conversation, in bytes of its stored value: past it, the
   * oldest messages are dropped first, and an `ArchiveTrimmedError` is reported to `onStoreError`.
   * @default 8388608 (8 MB)
   */
  archiveMaxBytes?: number;
}

/** Options of `compact.recall`. */
export interface RecallOptions {
  /** The conversation whose archive is read; the compactor's own `conversationId` when left out. */
  conversationId?: string;
  /**
   * The most the answer may take, in estimated tokens (UTF-8 bytes / 4).
   * @default 2000
   */
  maxTokens?: number;
  /** Aborts the read (`CompactionError` with code `ABORTED`). */
  signal?: AbortSignal;
}

/** Options of one call of a stateful compactor. */
export interface StatefulCallOptions {
  /** The conversation's id; overrides the instance's `conversationId`. */
  conversationId?: string;
  /** Aborts a compaction in progress (`CompactionError` with code `ABORTED`). */
  signal?: AbortSignal;
  /** The provider's reported usage for the last request; `messageCount` counts these (uncompacted) messages. */
  usage?: ReportedUsage;
}

/**
 * A compactor that remembers each conversation's compaction in a store: resolves the messages to
 * send (the caller's own objects after the summary), or `null` when the input can go as it is.
 */
export type StatefulCompactor<M extends AnyMessage = AnyMessage> = (<T extends M>(
  messages: readonly T[],
  call?: StatefulCallOptions,
) => Promise<T[] | null>) & {
  /**
   * With `archive: true`: the archived messages of one conversation that hold `query` (an
   * identifier or a phrase) or sit in the range it names (`"12-40"`), newest first, rendered as
   * `renderTranscript` renders them inside a `<transcript>` fence, secrets redacted, at most
   * `maxTokens` (default 2,000). Reads only that conversation's archive.
   */
  recall(query: string, options?: RecallOptions): Promise<string>;
};

/** Compare-and-set attempts of one write before it is made as a plain `set` (see `writeState`). */
const CAS_ATTEMPTS = 3;

function checkedStore(value: unknown): CompactionStore {
  if (value === undefined) return memoryStore();
  const store = value as Partial<CompactionStore> | null;
  if (typeof store !== "object" || store === null || typeof store.get !== "function" || typeof store.set !== "function") {
    throw new TypeError(expectedMessage("store", "an object with `get` and `set` methods", value));
  }
  const { ttlMs } = store;
  if (ttlMs !== undefined) {
    const what = "a positive number of milliseconds";
    if (typeof ttlMs !== "number") throw new TypeError(expectedMessage("store.ttlMs", what, ttlMs));
    if (!(ttlMs > 0)) throw new RangeError(expectedMessage("store.ttlMs", what, ttlMs));
  }
  return store as CompactionStore;
}

/** How long a lease holds, and so how long another instance waits, without `summary.timeoutMs`. */
const DEFAULT_LEASE_MS = 30_000;
/** How often a waiting instance looks for the lease holder's state. */
const LEASE_POLL_MS = 100;

/** Store calls never take longer than this unless `storeTimeoutMs` says otherwise. */
const DEFAULT_STORE_TIMEOUT_MS = 1000;

function checkedStoreTimeout(value: unknown): number {
  return optionalMilliseconds(value, "storeTimeoutMs") ?? DEFAULT_STORE_TIMEOUT_MS;
}

function checkedBranches(value: unknown): number {
  if (value === undefined) return 4;
  if (typeof value !== "number") throw new TypeError(expectedMessage("maxBranches", "a positive integer", value));
  if (!Number.isInteger(value) || value < 1) throw new RangeError(expectedMessage("maxBranches", "a positive integer", value));
  return value;
}

/** What an archive holds per conversation unless `archiveMaxBytes` says otherwise: 8 MB. */
const DEFAULT_ARCHIVE_MAX_BYTES = 8 * 1024 * 1024;
/** What a recall answers at most unless its `maxTokens` says otherwise. */
const DEFAULT_RECALL_TOKENS = 2000;

function checkedPositiveInteger(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number") throw new TypeError(expectedMessage(name, "a positive integer", value));
  if (!Number.isInteger(value) || value < 1) throw new RangeError(expectedMessage(name, "a positive integer", value));
  return value;
}

function checkedId(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new TypeError(expectedMessage(name, "a non-empty string", value));
  if (value === "") throw new RangeError(expectedMessage(name, "a non-empty string", value));
  return value;
}

/**
 * Builds a compactor whose compaction survives requests, processes and restarts. Frameworks and
 * chat routes hand over the whole history on every call; this continues from the stored
 * compaction instead of summarizing the whole history again:
 *
 * - per conversation it stores only the summary and which leading input messages it replaces
 *   (their count and a SHA-256 digest of exactly those messages), never the transcript;
 * - on each call, when the digest matches the input's own leading messages, it continues from
 *   `[system prompt, summary, ...input after them]`; otherwise (an edited or deleted message, a
 *   regenerated reply, a branch, another conversation under the same key) the state is ignored;
 * - over budget it compacts as `compactor` does, with the stored summary as `previousSummary`.
 *
 * Calls for one conversation on one instance run one after another, so concurrent requests of a
 * conversation summarize once. A failed store call never loses a request (`onStoreError`).
 *
 * @param options - the options of `compactor`, plus `store`, `conversationId` and `onStoreError`
 * @returns `(messages, { conversationId?, signal?, usage? }?) => Promise<messages | null>`
 * @example
 * ```ts
 * const compactChat = statefulCompactor({ maxTokens: 100_000, summarize, store: redisStore });
 * const messages = (await compactChat(history, { conversationId: chatId })) ?? history;
 * ```
 */
export function statefulCompactor<M extends AnyMessage = AnyMessage>(options: StatefulCompactorOptions<M>): StatefulCompactor<M> {
  const settings = resolveOptions<M>(options, "stateful");
  const { store: rawStore, conversationId: rawId, onStoreError } = options as StatefulCompactorOptions<M>;
  const store = checkedStore(rawStore);
  // In front of a shared store, a bounded cache of this process's own writes (none in front of the
  // default, which is one already), shared by every compactor over the same store object: a route
  // that makes a compactor per request still continues from its own compactions while the store is down.
  const nearby = rawStore === undefined ? undefined : ownWritesOf(store);
  const defaultId = checkedId(rawId, "conversationId");
  if (onStoreError !== undefined && typeof onStoreError !== "function") {
    throw new TypeError(expectedMessage("onStoreError", "a function", onStoreError));
  }
  const report = (error: unknown, context: StoreErrorContext) => onStoreError?.(error, context);
  const storeTimeoutMs = checkedStoreTimeout((options as StatefulCompactorOptions<M>).storeTimeoutMs);
  // A lease outlives the slowest summary this compactor allows, so a crashed holder frees it in time.
  const leaseMs = settings.timeoutMs ?? DEFAULT_LEASE_MS;
  const maxBranches = checkedBranches((options as StatefulCompactorOptions<M>).maxBranches);
  const { archive: rawArchive, archiveMaxBytes } = options as StatefulCompactorOptions<M>;
  if (rawArchive !== undefined && typeof rawArchive !== "boolean") throw new TypeError(expectedMessage("archive", "a boolean", rawArchive));
  const archiveBytes = checkedPositiveInteger(archiveMaxBytes, "archiveMaxBytes", DEFAULT_ARCHIVE_MAX_BYTES);
  const queues = new Map<string, Promise<void>>();
  let arrival: Promise<void> = Promise.resolve();

  // One conversation's calls run in order, so the second of two concurrent calls sees the first's state.
  function inTurn<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = queues.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const settled = result.then(
      () => {},
      () => {},
    );
    queues.set(key, settled);
    void settled.then(() => {
      if (queues.get(key) === settled) queues.delete(key);
    });
    return result;
  }

  // With a `signingKey`, state is signed when written and read only when its signature verifies.
  const { signingKey } = options;
  const stateKey = signingKey === undefined ? undefined : importSigningKey(signingKey);
  // Awaited by every read and write; this only keeps a failed import from being unhandled meanwhile.
  stateKey?.catch(() => {});

  const archive = rawArchive === true
    ? archiveStore({ store, stateKey, storeTimeoutMs, maxBytes: archiveBytes, report: (error, operation, key) => report(error, { operation, key }) })
    : undefined;

  /** Keys whose store did not answer the last read: their writes are not preceded by another read. */
  const unanswered = new Set<string>();

  /**
   * The branches stored under `key`; problems are reported to `onStoreError` unless `quiet` (a read
   * already reported them). When the store answered, `seen.text` is what it held (`null`: nothing).
   */
  async function readStates(key: string, signal: AbortSignal | undefined, quiet = false, seen: { text?: string | null } = {}): Promise<ConversationState[]> {
    // A read that merges before a write has had its problems reported by the read before it.
    const say = quiet ? () => {} : report;
    let text: unknown;
    try {
      text = await boundedStoreCall(() => store.get(key), "get", storeTimeoutMs, signal);
      unanswered.delete(key);
      seen.text = typeof text === "string" ? text : null;
      // The store answered, and it is the truth: nothing there means expired or deleted, and this
      // instance's own copy goes too.
      if (text === null || text === undefined) nearby?.delete?.(key);
    } catch (error) {
      // An abort means stop; any other failure means "no state" from the store.
      if (isCompactionError(error) && error.code === "ABORTED") throw error;
      unanswered.add(key);
      say(error, { operation: "get", key });
      // What this instance wrote itself stands in while the store does not answer: an outage must
      // not turn every request into a summary of the whole history. The digest check still
      // decides whether it applies.
      text = nearby?.get(key);
    }
    if (text === null || text === undefined) return [];
    try {
      if (stateKey !== undefined) {
        const payload = typeof text === "string" ? await verifiedState(text, await stateKey) : undefined;
        if (payload === undefined) throw new InvalidStateError("Expected stored state signed with this `signingKey`; it is unsigned or signed with another key");
        text = payload;
      }
      return parseStates(text);
    } catch (error) {
      say(error, { operation: "get", key });
      return [];
    }
  }

  /**
   * Writes a new state as the conversation's most recent branch. What the store holds now is read
   * again first, so that another instance's write in the meantime is kept: the branch the new state
   * extends is replaced, any other branch stays (up to `maxBranches`, the least recently written
   * dropped), and a write is dropped altogether when a branch of this very conversation already
   * covers more (never overwrite newer state). A store with `setIf` makes the write a
   * compare-and-set against what was read: when another instance wrote in between, the merge is
   * made again from what it wrote (up to `CAS_ATTEMPTS` times, then the write goes through as is).
   */
  async function writeState<T extends M>(key: string, next: ConversationState, messages: readonly T[], extended: ConversationState | undefined, signal: AbortSignal | undefined): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const seen: { text?: string | null } = {};
      // A store that just failed to answer is not asked again: what this instance holds stands in.
      const current = unanswered.has(key) ? parseNearby(key) : await readStates(key, signal, true, seen).catch(() => [] as ConversationState[]);
      for (const branch of current) {
        if (branch.covered > next.covered && branch.covered <= messages.length && (await digestMessages(messages.slice(0, branch.covered))) === branch.digest) return;
      }
      const others = current.filter((branch) => branch.digest !== next.digest && branch.digest !== extended?.digest);
      const payload = serializeStates([next, ...others].slice(0, maxBranches));
      if (typeof store.setIf !== "function" || seen.text === undefined || attempt === CAS_ATTEMPTS) return writeValue(key, payload);
      if (await writeValueIf(key, payload, seen.text)) return;
    }
  }

  /** `setIf` through the store: false only when the store answered that the key holds something else. */
  async function writeValueIf(key: string, payload: string, expected: string | null): Promise<boolean> {
    let value: string | undefined;
    try {
      value = stateKey === undefined ? payload : await signState(payload, await stateKey);
      const swapped = await boundedStoreCall(() => (store.setIf as NonNullable<CompactionStore["setIf"]>)(key, value as string, expected), "setIf", storeTimeoutMs, undefined);
      if (swapped) nearby?.set(key, value);
      return swapped;
    } catch (error) {
      // As after a failed `set`: this instance's own write stands in while the store does not answer.
      if (value !== undefined) nearby?.set(key, value);
      report(error, { operation: "set", key });
      return true;
    }
  }

  function parseNearby(key: string): ConversationState[] {
    const text = nearby?.get(key);
    if (typeof text !== "string" || stateKey !== undefined) return [];
    try {
      return parseStates(text);
    } catch {
      return [];
    }
  }

  async function writeValue(key: string, payload: string): Promise<void> {
    try {
      const value = stateKey === undefined ? payload : await signState(payload, await stateKey);
      nearby?.set(key, value);
      // The result is ready: a write that does not answer in time is reported, not waited for.
      await boundedStoreCall(() => store.set(key, value), "set", storeTimeoutMs, undefined);
    } catch (error) {
      report(error, { operation: "set", key });
    }
  }

  /** Runs a write, which is skipped, and reported, when the input holds a value the digest cannot read. */
  async function unlessUnreadable(key: string, write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (!(error instanceof UnreadableValueError)) throw error;
      report(error, { operation: "set", key });
    }
  }

  /** The input as the stored state says to send it: the system prompt, the stored summary, then what it does not cover. */
  async function applied<T extends M>(messages: readonly T[], key: string, stored: ConversationState | undefined): Promise<{ state: ConversationState | undefined; base: readonly T[]; origin: number[] | undefined; stored: ReadonlySet<object> }> {
    const head = headLength(messages);
    // The summary is taken from the store only: a message of the input that looks like one is text of its author.
    const none = { state: stored, base: messages, origin: undefined, stored: new Set<object>() };
    if (stored === undefined || stored.covered <= head) return none;
    let state: ConversationState | undefined = stored;
    if (state.covered > messages.length || (await digestMessages(messages.slice(0, state.covered))) !== state.digest) state = await slidState(messages, state, head);
    if (state === undefined) return none;
    let summary: T[];
    try {
      summary = checkedSummary(state, messages, head, settings as never);
    } catch (error) {
      report(error, { operation: "get", key });
      return none;
    }
    const kept = [...state.pinned, ...range(state.covered, messages.length)];
    return {
      state,
      base: messages.slice(0, head).concat(summary, kept.map((index) => messages[index] as T)),
      // Where each message of `base` sits in the input; -1 for a stored summary message.
      origin: [...range(0, head), ...summary.map(() => -1), ...kept],
      stored: new Set(summary),
    };
  }

  /**
   * Before summarizing, a lease on the conversation in the store, when the store offers leases:
   * another instance that is summarizing the same crossing is waited for (up to `summary.timeoutMs`, or
   * 30 s), and its state used when it arrives and applies: `"leased"` when this call holds the
   * lease, `"wait"` when another does, `"free"` when the store has no leases or could not say.
   */
  async function mayCompact(key: string, token: string, signal: AbortSignal | undefined): Promise<"leased" | "wait" | "free"> {
    const acquire = store.acquire;
    if (typeof acquire !== "function") return "free";
    let answer: Promise<unknown> | undefined;
    try {
      return (await boundedStoreCall(() => (answer = Promise.resolve(acquire.call(store, leaseKeyOf(key), token, leaseMs))), "acquire", storeTimeoutMs, signal)) ? "leased" : "wait";
    } catch (error) {
      // Given up on (an abort, a timeout): a lease the store still grants is held by nobody, and
      // would keep every other call of the conversation waiting until it expires.
      void answer?.then((granted) => granted && releaseLease(key, token), () => undefined);
      if (isCompactionError(error) && error.code === "ABORTED") throw error;
      report(error, { operation: "get", key });
      return "free";
    }
  }

  async function releaseLease(key: string, token: string): Promise<void> {
    try {
      await boundedStoreCall(() => store.release?.(leaseKeyOf(key), token), "release", storeTimeoutMs, undefined);
    } catch (error) {
      report(error, { operation: "set", key });
    }
  }

  /** The usage a state kept, when the input still holds the messages it was reported for. */
  async function usageFromState(messages: readonly object[], state: ConversationState | undefined): Promise<ReportedUsage | undefined> {
    const kept = state?.usage;
    if (state === undefined || kept === undefined || kept.messageCount > messages.length) return undefined;
    const digest = await digestMessages(messages.slice(state.covered, kept.messageCount));
    return digest === kept.digest ? { inputTokens: kept.inputTokens, messageCount: kept.messageCount } : undefined;
  }

  /** Keeps a reported usage with the state the request was sent with, when it is new. */
  async function rememberUsage(key: string, messages: readonly M[], state: ConversationState, reported: ReportedUsage, signal: AbortSignal | undefined): Promise<void> {
    if (reported.messageCount < state.covered || reported.messageCount > messages.length) return;
    if (state.usage?.messageCount === reported.messageCount && state.usage.inputTokens === reported.inputTokens) return;
    const digest = await digestMessages(messages.slice(state.covered, reported.messageCount));
    await writeState(key, { ...state, usage: { inputTokens: reported.inputTokens, messageCount: reported.messageCount, digest } }, messages, state, signal);
  }

  /** Of a key's branches, the one that covers the longest prefix of this input, applied; or the input as it is. */
  async function bestBranch<T extends M>(messages: readonly T[], key: string, states: readonly ConversationState[]) {
    for (const state of [...states].sort((a, b) => b.covered - a.covered)) {
      const continued = await applied(messages, key, state);
      if (continued.stored.size > 0) return continued;
    }
    return applied(messages, key, undefined);
  }

  async function compactOnce<T extends M>(
    messages: readonly T[],
    key: string,
    signal: AbortSignal | undefined,
    usage: ReportedUsage | undefined,
  ): Promise<T[] | null> {
    try {
      return await compactLeased(messages, key, signal, usage);
    } catch (error) {
      // The input holds a value the digest cannot read: no state can be told to fit it, and none
      // is kept for it. Raised only before the engine runs (a write reports its own).
      if (!(error instanceof UnreadableValueError)) throw error;
      return withoutState(error, key, messages, signal, usage);
    }
  }

  /** A call whose input holds a value the digest cannot read: reported, and compacted as `compactor` does, no state read or kept. */
  async function withoutState<T extends M>(error: UnreadableValueError, key: string, messages: readonly T[], signal: AbortSignal | undefined, usage: ReportedUsage | undefined): Promise<T[] | null> {
    report(error, { operation: "get", key });
    const outcome = await runCompaction<T>(messages, settings as never, { ...(signal ? { signal } : {}), ...(usage ? { usage } : {}) });
    return outcome === null ? null : outcome.messages;
  }

  async function compactLeased<T extends M>(messages: readonly T[], key: string, signal: AbortSignal | undefined, usage: ReportedUsage | undefined): Promise<T[] | null> {
    let { state, base, origin, stored } = await bestBranch(messages, key, await readStates(key, signal));
    // A call that reports no usage (the first model call of a request) is counted from the usage the
    // state kept of the last request sent with it.
    const reported = usage;
    usage ??= await usageFromState(messages, state);
    // One summary per crossing across instances: only the holder of the lease summarizes; the
    // others wait for its state, then go on from it (and summarize alone if it never comes).
    const token = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    let lease: "leased" | "wait" | "free" = "free";
    let planned = typeof store.acquire === "function" ? planWithSettings(base, settings as never, usageOfBase(usage, state, origin), stored) : undefined;
    if (planned?.action === "summarize") {
      lease = await mayCompact(key, token, signal);
      const deadline = Date.now() + leaseMs;
      while (lease === "wait" && Date.now() < deadline) {
        await pause(LEASE_POLL_MS, signal);
        const continued = await bestBranch(messages, key, await readStates(key, signal));
        if (continued.state !== undefined && continued.state.digest !== state?.digest) {
          ({ state, base, origin, stored } = continued);
          planned = undefined;
          break;
        }
        lease = await mayCompact(key, token, signal);
      }
    }
    try {
      return await compactWith(messages, key, signal, usage, state, base, origin, stored, planned, reported);
    } finally {
      if (lease === "leased") await releaseLease(key, token);
    }
  }

  async function compactWith<T extends M>(
    messages: readonly T[],
    key: string,
    signal: AbortSignal | undefined,
    usage: ReportedUsage | undefined,
    state: ConversationState | undefined,
    base: readonly T[],
    origin: number[] | undefined,
    stored: ReadonlySet<object>,
    planned: EnginePlan<T> | undefined,
    reported: ReportedUsage | undefined,
  ): Promise<T[] | null> {
    const inputIndex = (index: number) => (origin === undefined ? index : (origin[index] as number));
    const head = headLength(messages);
    // With an archive, the summary ends with the line that says what is archived: every position
    // from the system prompt's end to the kept suffix's start.
    // A conversation without an id has no archive: a recall names its conversation by id.
    const archived = archive !== undefined && !key.startsWith(`${KEY_PREFIX}auto:`);
    const callSettings = !archived
      ? settings
      : { ...settings, summarySuffix: (tailStart: number) => archiveLine(head, (tailStart >= base.length ? messages.length : inputIndex(tailStart)) - 1) };
    const outcome = await runCompaction<T>(base, callSettings as never, { ...(signal ? { signal } : {}), ...(usageOfBase(usage, state, origin) === undefined ? {} : { usage: usageOfBase(usage, state, origin) as ReportedUsage }), stored, ...(planned ? { planned } : {}) });
    if (outcome === null) {
      // Sent with the state as it is: what the provider reported for it is kept with the state.
      if (reported !== undefined && state !== undefined) await unlessUnreadable(key, () => rememberUsage(key, messages, state, reported, signal));
      return base === messages ? null : base.slice();
    }
    // Beside the state's write, not after it; a failure is reported, never thrown.
    const archiving = archived ? archiveDropped(key, messages, base, outcome.messages, inputIndex).catch((error: unknown) => report(error, { operation: "set", key: archiveKeyOf(key) })) : undefined;
    if (outcome.strategy === "summarize" || outcome.strategy === "fallback") {
      const covered = outcome.tailStart >= base.length ? messages.length : inputIndex(outcome.tailStart);
      const pinned = outcome.pinned.map(inputIndex);
      if (covered > 0 && pinned.every((index) => index >= 0)) {
        await unlessUnreadable(key, async () => {
          const next: ConversationState = {
            version: STATE_VERSION,
            covered,
            digest: await digestMessages(messages.slice(0, covered)),
            pinned,
            ...storedSummaryOf(outcome, base, messages, state),
            coveredTail: await coveredTailOf(messages, covered, head),
          };
          await writeState(key, next, messages, state, signal);
        });
      }
    }
    await archiving;
    return outcome.messages;
  }

  /**
   * Archives the input messages the request no longer holds as they are: those a summary replaced,
   * and those whose tool results were masked or whose payloads were cut (the request holds a copy).
   * A stored summary (archived when it was made) is not one. Each is kept as the caller sent it, in
   * its own format; one already archived is not archived again, so a cut made again on every call
   * costs a read and no write.
   */
  async function archiveDropped(key: string, messages: readonly M[], base: readonly M[], sent: readonly object[], inputIndex: (index: number) => number): Promise<void> {
    const shown = new Set<object>(sent);
    const dropped: ArchivedMessage[] = [];
    for (let index = 0; index < base.length; index++) {
      const at = inputIndex(index);
      // A LangChain instance is kept as its fields, without its serialization wrapper (which no
      // dialect reads back), and a pi message without pi's bookkeeping: what the provider received.
      if (at >= 0 && !shown.has(base[index] as object)) dropped.push({ index: at, message: providerPayload(messages[at] as object) ?? (messages[at] as object) });
    }
    const range = rangeOf(dropped);
    if (range !== undefined) await archive?.append(key, range);
  }

  async function recall(query: string, recallOptions: RecallOptions = {}): Promise<string> {
    if (typeof query !== "string") throw new TypeError(expectedMessage("query", "a string", query));
    if (typeof recallOptions !== "object" || recallOptions === null) throw new TypeError(expectedMessage("recall options", "an object", recallOptions));
    rejectUnknownKeys(recallOptions, ["conversationId", "maxTokens", "signal"], "");
    if (archive === undefined) throw new TypeError("Expected `archive: true` on the compactor: `recall` reads the archive, and this compactor keeps none");
    const id = checkedId(recallOptions.conversationId, "conversationId") ?? defaultId;
    if (id === undefined) throw new TypeError("Expected a `conversationId` (of the call or the compactor): an archive is read by its conversation's id");
    const maxTokens = checkedPositiveInteger(recallOptions.maxTokens, "maxTokens", DEFAULT_RECALL_TOKENS);
    const signal = optionalAbortSignal(recallOptions.signal, "signal");
    const key = keyOfId(id);
    // After the conversation's compactions in progress, so a recall sees what they archive.
    return inTurn(key, async () => {
      const ranges = await archive.read(key, signal);
      return ranges === undefined ? "The archive could not be read: the store did not answer. Try again later." : recallFromArchive(ranges, query, maxTokens);
    });
  }

  const compact = async <T extends M>(messages: readonly T[], call: StatefulCallOptions = {}): Promise<T[] | null> => {
    if (typeof call !== "object" || call === null) throw new TypeError(expectedMessage("call options", "an object", call));
    rejectUnknownKeys(call, ["conversationId", "signal", "usage"], "");
    const signal = optionalAbortSignal(call.signal, "signal");
    const id = checkedId(call.conversationId, "conversationId") ?? defaultId;
    assertTranscript(messages);
    const usage = checkedUsage(call.usage, messages.length);
    // Keys are made in the order calls arrive, so calls of one conversation also queue in that order.
    const keyed = arrival.then(async () => (id === undefined ? automaticKey(messages) : keyOfId(id)));
    arrival = keyed.then(
      () => {},
      () => {},
    );
    let key: string;
    try {
      key = await keyed;
    } catch (error) {
      if (!(error instanceof UnreadableValueError)) throw error;
      // Its opening cannot be read, so the conversation has no key: it is compacted without state.
      return withoutState(error, `${KEY_PREFIX}auto:unreadable`, messages, signal, usage);
    }
    return inTurn(key, () => compactOnce(messages, key, signal, usage));
  };
  return Object.assign(compact, { recall });
}

/**
 * The reported usage in terms of what the engine counts. The last request was sent with the state
 * now applied (a compaction stores its state as it returns the request), so it held the summary
 * and the input messages below `messageCount`. Usage from before the state, or beside state that
 * no longer applies, describes another request and is left out.
 */
function usageOfBase(usage: ReportedUsage | undefined, state: ConversationState | undefined, origin: number[] | undefined): ReportedUsage | undefined {
  if (usage === undefined) return undefined;
  if (origin === undefined) return state === undefined ? usage : undefined;
  if (state === undefined || usage.messageCount < state.covered) return undefined;
  let held = 0;
  for (const index of origin) if (index < usage.messageCount) held++;
  return { inputTokens: usage.inputTokens, messageCount: held };
}

function range(from: number, to: number): number[] {
  const indices: number[] = [];
  for (let index = from; index < to; index++) indices.push(index);
  return indices;
}
