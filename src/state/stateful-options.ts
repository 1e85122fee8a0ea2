import { recallToolDefinition } from "../dialects/recall-tool-definition.js";
import { checkedToolName } from "../ground/tool-name.js";
import { optionalMilliseconds } from "../ground/deadline.js";
import { expectedMessage } from "../ground/describe-value.js";
import { isPlainObject } from "../ground/plain-object.js";
import { resolveOptions, type Settings } from "../ground/options.js";
import type { AnyMessage, CompactorEvents, CompactorOptions, UsageReport } from "../ground/types.js";
import type { CompactionStore } from "../stores/compaction-store.js";
import { memoryStore } from "../stores/memory-store.js";
import { ownWritesOf } from "../stores/own-writes.js";
import type { RecentEntries } from "../stores/recent-entries.js";
import { importSigningKey } from "../stores/state-signature.js";
import {
  optionalFunction,
  optionalInteger,
  optionalNonEmptyString,
  optionalPositiveMs,
  optionsObject,
} from "../ground/checks.js";

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
   * `events.onStoreError` and the call goes on without state; a `set` that does not answer is reported and
   * the result returned anyway. A hung or offline store never holds a request longer than this in
   * all: once one store call of a request has not answered in time, its later reads are not made
   * and its writes are sent without being waited for.
   * @default 1000
   */
  storeTimeoutMs?: number;
  /**
   * For a conversation with an id, keeps every message a compaction takes out of the request (those
   * a summary replaces, masked or cut ones), verbatim (the caller's own objects as JSON), in the
   * store under the conversation (`<key>:archive`), with the same store, expiry, `signingKey` and
   * `storeTimeoutMs` as the state: `compact.recall` and the `recall_context` tools read it back,
   * and the summary message ends with one line saying which messages are archived and how to
   * recall them. Costs one more `get` and `set` per compaction, and the archive's bytes. `true`
   * is `{}`; an object sets how much it holds (see `ArchiveOptions`).
   * @default false
   */
  archive?: boolean | ArchiveOptions;
  /**
   * Callbacks on each compaction, the over-budget warning, and store failures (see `StatefulEvents`).
   * @default {}
   */
  events?: StatefulEvents;
}

/** What `statefulCompactor` tells as it works (`events`): those of `compactor`, plus store failures. */
export interface StatefulEvents extends CompactorEvents {
  /**
   * Called when the store's `get` or `set` throws or rejects, does not answer within
   * `storeTimeoutMs`, or holds unreadable state. The call goes on as if there were no state
   * (`get`) or returns its result anyway (`set`). Also called with an `UnreadableValueError` when
   * the input holds a value the digest cannot read (a `Blob`, a `Map`, a `Set`, a class instance
   * with no enumerable data): that call is compacted without state, and nothing is stored for it.
   * @default ignore and continue
   */
  onStoreError?: (error: unknown, context: StoreErrorContext) => void;
}

/** How the archive is bounded (`archive` of `statefulCompactor`, given as an object). */
export interface ArchiveOptions {
  /**
   * The most an archive may hold per conversation, in bytes of its stored value: past it, the
   * oldest messages are dropped first, a message larger than the bound by itself is not archived
   * (the others are), and an `ArchiveTrimmedError` is reported to `events.onStoreError`. A
   * positive integer.
   * @default 8388608 (8 MB)
   */
  maxBytes?: number;
  /**
   * The name the recall tool is registered under, which the summary's archive line tells the model
   * to call. A recall tool made from this compactor takes this name (and refuses another one); with
   * the AI SDK, list it under this key. A tool name as the providers take it: letters, digits, `_`
   * and `-`, at most 64.
   * @default "recall_context"
   */
  toolName?: string;
}

/** Options of `compact.recall`. */
export interface RecallOptions {
  /**
   * The conversation whose archive is read.
   * @default the compactor's own `conversationId`
   */
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
  /**
   * The conversation's id; overrides the instance's `conversationId`.
   * @default the instance's `conversationId`, or the automatic key
   */
  conversationId?: string;
  /** Aborts a compaction in progress (`CompactionError` with code `ABORTED`). */
  signal?: AbortSignal;
  /**
   * The provider's reported usage for the last request; `messageCount` counts these (uncompacted) messages.
   * @default the usage kept with the conversation's state, while the input still holds what it was reported for
   */
  usage?: UsageReport;
  /**
   * The provider's response to the last request, as its SDK returned it, or the error it threw:
   * read as the hook's `event.response` is (verdicts to `events.onProviderVerdict`, a stop at the
   * context window compacts this call, its usage when `usage` is not given and the input still
   * starts with the messages this conversation's last call returned). An error that refuses the
   * stored provider compaction (OpenAI's `invalid_encrypted_content`, Anthropic's
   * `compaction_signature_invalid`) makes its readable shadow take its place, in the store too.
   * @default none
   */
  response?: unknown;
}

/** Reports a failed store call, or unreadable state, to `events.onStoreError`; never throws what it reports. */
export type ReportStoreError = (error: unknown, context: StoreErrorContext) => void;

/** The options of `statefulCompactor`, validated once. */
export interface StatefulSettings<M extends AnyMessage> {
  /** The options `compactor` also takes. */
  settings: Settings<M>;
  store: CompactionStore;
  /** This process's own writes to a shared store; none in front of the default store, which is one already. */
  ownWrites: RecentEntries | undefined;
  defaultId: string | undefined;
  report: ReportStoreError;
  storeTimeoutMs: number;
  /** How long a lease holds: it outlives the slowest summary this compactor allows, so a crashed holder frees it in time. */
  leaseMs: number;
  maxBranches: number;
  archive: boolean;
  archiveMaxBytes: number;
  /** The recall tool's name the archive line gives. */
  archiveToolName: string;
  /** With a `signingKey`: state is signed when written and read only when its signature verifies. */
  stateKey: Promise<CryptoKey> | undefined;
}

/** How long a lease holds, and so how long another instance waits, without `timeoutMs`. */
const DEFAULT_LEASE_MS = 30_000;
/** Store calls never take longer than this unless `storeTimeoutMs` says otherwise. */
const DEFAULT_STORE_TIMEOUT_MS = 1000;
/** What an archive holds per conversation unless `archive.maxBytes` says otherwise: 8 MB. */
const DEFAULT_ARCHIVE_MAX_BYTES = 8 * 1024 * 1024;

function checkedStore(value: unknown): CompactionStore {
  if (value === undefined) return memoryStore();
  const store = value as Partial<CompactionStore> | null;
  if (
    typeof store !== "object" ||
    store === null ||
    typeof store.get !== "function" ||
    typeof store.set !== "function"
  ) {
    throw new TypeError(expectedMessage("store", "an object with `get` and `set` methods", value));
  }
  optionalPositiveMs(store.ttlMs, "store.ttlMs");
  return store as CompactionStore;
}

/** The archive's bound in bytes and its recall tool's name, or undefined when there is no archive. */
function checkedArchive(value: unknown): { maxBytes: number; toolName: string } | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return { maxBytes: DEFAULT_ARCHIVE_MAX_BYTES, toolName: recallToolDefinition.name };
  if (!isPlainObject(value)) throw new TypeError(expectedMessage("archive", "a boolean or an object", value));
  const { maxBytes, toolName } = optionsObject(value, "archive", ["maxBytes", "toolName"], "archive.");
  return {
    maxBytes: optionalInteger(maxBytes, "archive.maxBytes", 1, DEFAULT_ARCHIVE_MAX_BYTES),
    toolName: checkedToolName(toolName, "archive.toolName") ?? recallToolDefinition.name,
  };
}

/** Validates the options of `statefulCompactor` once, with a `TypeError` or `RangeError` naming the option. */
export function resolveStatefulOptions<M extends AnyMessage>(
  options: StatefulCompactorOptions<M>,
): StatefulSettings<M> {
  const settings = resolveOptions<M>(options, "stateful");
  const { store: rawStore, conversationId, storeTimeoutMs, maxBranches, archive, signingKey } = options;
  const store = checkedStore(rawStore);
  // In front of a shared store, a bounded cache of this process's own writes, shared by every
  // compactor over the same store object: a route that makes a compactor per request still
  // continues from its own compactions while the store is down.
  const ownWrites = rawStore === undefined ? undefined : ownWritesOf(store);
  const defaultId = optionalNonEmptyString(conversationId, "conversationId");
  // `resolveOptions` has checked that `events` is an object holding only known keys.
  const onStoreError = optionalFunction<ReportStoreError>(options.events?.onStoreError, "events.onStoreError");
  const timeout = optionalMilliseconds(storeTimeoutMs, "storeTimeoutMs") ?? DEFAULT_STORE_TIMEOUT_MS;
  const branches = optionalInteger(maxBranches, "maxBranches", 1, 4);
  const archiveBytes = checkedArchive(archive);
  const stateKey = signingKey === undefined ? undefined : importSigningKey(signingKey);
  // Awaited by every read and write; this only keeps a failed import from being unhandled meanwhile.
  stateKey?.catch(() => {});
  return {
    settings,
    store,
    ownWrites,
    defaultId,
    report: (error, context) => onStoreError?.(error, context),
    storeTimeoutMs: timeout,
    leaseMs: settings.timeoutMs ?? DEFAULT_LEASE_MS,
    maxBranches: branches,
    archive: archiveBytes !== undefined,
    archiveMaxBytes: archiveBytes?.maxBytes ?? DEFAULT_ARCHIVE_MAX_BYTES,
    archiveToolName: archiveBytes?.toolName ?? recallToolDefinition.name,
    stateKey,
  };
}
