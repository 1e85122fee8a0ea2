import { resultOf } from "../hook/compactor.js";
import { runCompaction, type CompactionOutcome } from "../hook/engine.js";
import { optionalAbortSignal } from "../ground/abort-signal.js";
import { definedFields } from "../ground/defined-fields.js";
import { expectedMessage } from "../ground/describe-value.js";
import type { Settings } from "../ground/options.js";
import type { AnyMessage, CompactionResult, ReportedUsage } from "../ground/types.js";
import { planWithSettings, type EnginePlan } from "../plan/plan.js";
import { UsageHistories } from "../counting/usage-anchor.js";
import { headLength } from "../plan/split-at-user-boundary.js";
import { assertTranscript } from "../validation/validate-messages.js";
import { checkedUsage } from "../validation/usage.js";
import { bestBranch, inputIndexOf, type AppliedState, type ApplyContext } from "./applied-state.js";
import { archiveLine } from "./archive-line.js";
import { archiveStore } from "./archive-store.js";
import { branchStorage } from "./branch-storage.js";
import { rangeOf } from "./conversation-archive.js";
import { conversationLeases } from "./conversation-leases.js";
import { conversationQueue } from "./conversation-queue.js";
import { STATE_VERSION, type ConversationState } from "./conversation-state.js";
import { UnreadableValueError, digestMessages } from "./digest.js";
import { droppedMessages } from "./dropped-messages.js";
import { recallFromArchive } from "./recall-archive.js";
import { resolveStatefulOptions, type RecallOptions, type StatefulCallOptions, type StatefulCompactorOptions } from "./stateful-options.js";
import { KEY_PREFIX, archiveKeyOf, automaticKey, keyOfId } from "./store-keys.js";
import { storedSummaryOf } from "./stored-compaction.js";
import { coveredTailOf } from "./slid-window.js";
import { stateWithUsage, usageFromState, usageOfBase } from "./stored-usage.js";
import { optionalInteger, optionalNonEmptyString, optionsObject } from "../ground/checks.js";

export type { ArchiveOptions, RecallOptions, StatefulCallOptions, StatefulCompactorOptions, StatefulEvents, StoreErrorContext } from "./stateful-options.js";

/**
 * A compactor that remembers each conversation's compaction in a store: resolves `{ messages }`
 * to send (the caller's own objects after the summary; `overBudget` and its cause when they still
 * do not fit), or `null` when the input can go as it is.
 */
export type StatefulCompactor<M extends AnyMessage = AnyMessage> = (<T extends M>(
  messages: readonly T[],
  call?: StatefulCallOptions,
) => Promise<CompactionResult<T> | null>) & {
  /**
   * With `archive: true`: the archived messages of one conversation that hold `query` (an
   * identifier or a phrase) or sit in the range it names (`"12-40"`), newest first, rendered as
   * `renderTranscript` renders them inside a `<transcript>` fence, secrets redacted, at most
   * `maxTokens` (default 2,000). A message where the query stands as a whole word comes first, then
   * one where it is a whole part of a longer identifier, then one holding it inside a longer word;
   * a query over 1,000 characters is answered with a sentence that says so. Reads only that
   * conversation's archive.
   */
  recall(query: string, options?: RecallOptions): Promise<string>;
};

/** What a recall answers at most unless its `maxTokens` says otherwise. */
const DEFAULT_RECALL_TOKENS = 2000;

/** One call, once its conversation's key is known. */
interface Call<T extends AnyMessage> {
  messages: readonly T[];
  key: string;
  signal: AbortSignal | undefined;
  /** What the caller reported, or else what the state kept of the last request. */
  usage: ReportedUsage | undefined;
  /** What the caller reported itself. */
  reported: ReportedUsage | undefined;
}

/**
 * Builds a compactor whose compaction survives requests, processes and restarts. Frameworks and
 * chat routes hand over the whole history on every call; this continues from the stored
 * compaction instead of summarizing the whole history again.
 *
 * Where a compaction is remembered is the one difference from `compactor`: the plain hook
 * remembers in the transcript (its summary, sealed, goes back to the caller and comes back in the
 * next input), this one remembers in a store (the summary is read back from the store only, and
 * handed to the engine as `stored`):
 *
 * - per conversation it stores only the summary and which leading input messages it replaces
 *   (their count and a SHA-256 digest of exactly those messages), never the transcript;
 * - on each call, when the digest matches the input's own leading messages, it continues from
 *   `[system prompt, summary, ...input after them]`; otherwise (an edited or deleted message, a
 *   regenerated reply, a branch, another conversation under the same key) the state is ignored;
 * - over budget it compacts as `compactor` does, with the stored summary as `previousSummary`.
 *
 * Calls for one conversation on one instance run one after another, so concurrent requests of a
 * conversation summarize once. A failed store call never loses a request (`events.onStoreError`).
 *
 * @param options - the options of `compactor`, plus `store`, `conversationId`, `archive` and `events.onStoreError`
 * @returns `(messages, { conversationId?, signal?, usage? }?) => Promise<{ messages, overBudget?, overBudgetCause? } | null>`
 * @example
 * ```ts
 * const compactChat = statefulCompactor({ maxTokens: 100_000, summarize, store: redisStore });
 * const messages = (await compactChat(history, { conversationId: chatId }))?.messages ?? history;
 * ```
 */
export function statefulCompactor<M extends AnyMessage = AnyMessage>(options: StatefulCompactorOptions<M>): StatefulCompactor<M> {
  const resolved = resolveStatefulOptions<M>(options);
  const { settings, store, defaultId, report, storeTimeoutMs, stateKey } = resolved;
  const queue = conversationQueue();
  const histories = new UsageHistories();
  const branches = branchStorage(resolved);
  const leases = conversationLeases(resolved);
  const archive = resolved.archive
    ? archiveStore({ store, stateKey, storeTimeoutMs, maxBytes: resolved.archiveMaxBytes, report: (error, operation, key) => report(error, { operation, key }) })
    : undefined;

  const compact = async <T extends M>(messages: readonly T[], call: StatefulCallOptions = {}): Promise<CompactionResult<T> | null> => {
    optionsObject(call, "call options", ["conversationId", "signal", "usage"]);
    const signal = optionalAbortSignal(call.signal, "signal");
    const id = optionalNonEmptyString(call.conversationId, "conversationId") ?? defaultId;
    assertTranscript(messages);
    const usage = checkedUsage(call.usage, messages.length);
    let key: string;
    try {
      key = await queue.keyInOrder(async () => (id === undefined ? automaticKey(messages) : keyOfId(id)));
    } catch (error) {
      if (!(error instanceof UnreadableValueError)) throw error;
      // Its opening cannot be read, so the conversation has no key: it is compacted without state.
      return withoutState(error, { messages, key: `${KEY_PREFIX}auto:unreadable`, signal, usage, reported: usage });
    }
    return queue.inTurn(key, () => compactOnce({ messages, key, signal, usage, reported: usage }));
  };

  async function compactOnce<T extends M>(call: Call<T>): Promise<CompactionResult<T> | null> {
    try {
      return await compactStored(call);
    } catch (error) {
      // The input holds a value the digest cannot read: no state can be told to fit it, and none
      // is kept for it. Raised only before the engine runs (a write reports its own).
      if (!(error instanceof UnreadableValueError)) throw error;
      return withoutState(error, call);
    }
  }

  /** A call whose input holds a value the digest cannot read: reported, and compacted as `compactor` does, no state read or kept. */
  async function withoutState<T extends M>(error: UnreadableValueError, { messages, key, signal, usage }: Call<T>): Promise<CompactionResult<T> | null> {
    report(error, { operation: "get", key });
    const outcome = await runCompaction<T>(messages, settings, definedFields({ signal, usage, history: histories.of(key) }));
    return outcome === null ? null : resultOf(outcome);
  }

  /** Read state → plan → lease (only to summarize) → engine → write state → archive. */
  async function compactStored<T extends M>(input: Call<T>): Promise<CompactionResult<T> | null> {
    const { messages, key, signal } = input;
    const apply: ApplyContext<T> = { settings, invalid: (error) => report(error, { operation: "get", key }) };
    let applied = await bestBranch(messages, await branches.read(key, signal), apply);
    const call = { ...input, usage: input.usage ?? (await usageFromState(messages, applied.state)) };
    // One summary per crossing across instances: only the holder of the lease summarizes; the
    // others wait for its state, then go on from it (and summarize alone if it never comes).
    let planned = typeof store.acquire === "function" ? planWithSettings(applied.base, settings, definedFields({ usage: usageOfBase(call.usage, applied.state, applied.origin), stored: applied.stored, history: histories.of(key) })) : undefined;
    if (planned?.action !== "summarize") return compactApplied(call, applied, planned);
    const lease = await leases.acquire(key, signal, async () => {
      const continued = await bestBranch(messages, await branches.read(key, signal), apply);
      return continued.state !== undefined && continued.state.digest !== applied.state?.digest ? continued : undefined;
    });
    if (lease.arrived !== undefined) {
      applied = lease.arrived;
      planned = undefined;
    }
    try {
      return await compactApplied(call, applied, planned);
    } finally {
      await lease.release();
    }
  }

  async function compactApplied<T extends M>(call: Call<T>, applied: AppliedState<T>, planned: EnginePlan<T> | undefined): Promise<CompactionResult<T> | null> {
    const { messages, key, signal, usage, reported } = call;
    const { state, base, origin, stored } = applied;
    const inputIndex = inputIndexOf(applied);
    // A conversation without an id has no archive: a recall names its conversation by id.
    const archived = archive !== undefined && !key.startsWith(`${KEY_PREFIX}auto:`);
    const outcome = await runCompaction<T>(base, archived ? withArchiveLine(settings, call, applied) : settings, definedFields({ signal, usage: usageOfBase(usage, state, origin), stored, planned, history: histories.of(key) }));
    if (outcome === null) {
      // Sent with the state as it is: what the provider reported for it is kept with the state.
      if (reported !== undefined && state !== undefined) {
        await unlessUnreadable(key, async () => {
          const next = await stateWithUsage(messages, state, reported);
          if (next !== undefined) await branches.write(key, { next, messages, extended: state, signal });
        });
      }
      return base === messages ? null : { messages: base.slice() };
    }
    // Beside the state's write, not after it; a failure is reported, never thrown.
    const archiving = archived
      ? Promise.resolve()
          .then(async () => {
            const range = rangeOf(droppedMessages(messages, base, outcome.messages, inputIndex));
            if (range !== undefined) await archive.append(key, range);
          })
          .catch((error: unknown) => report(error, { operation: "set", key: archiveKeyOf(key) }))
      : undefined;
    await writeOutcome(call, applied, outcome);
    await archiving;
    return resultOf(outcome);
  }

  /** Stores what a summary made: the summary, and which leading input messages it covers. */
  async function writeOutcome<T extends M>({ messages, key, signal }: Call<T>, applied: AppliedState<T>, outcome: CompactionOutcome<T>): Promise<void> {
    if (outcome.strategy !== "summarize" && outcome.strategy !== "fallback") return;
    const { state, base } = applied;
    const inputIndex = inputIndexOf(applied);
    const covered = outcome.tailStart >= base.length ? messages.length : inputIndex(outcome.tailStart);
    const pinned = outcome.pinned.map(inputIndex);
    if (covered <= 0 || !pinned.every((index) => index >= 0)) return;
    await unlessUnreadable(key, async () => {
      const next: ConversationState = {
        version: STATE_VERSION,
        covered,
        digest: await digestMessages(messages.slice(0, covered)),
        pinned,
        ...storedSummaryOf(outcome, base, messages, state),
        coveredTail: await coveredTailOf(messages, covered, headLength(messages)),
      };
      await branches.write(key, { next, messages, extended: state, signal });
    });
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

  async function recall(query: string, recallOptions: RecallOptions = {}): Promise<string> {
    if (typeof query !== "string") throw new TypeError(expectedMessage("query", "a string", query));
    optionsObject(recallOptions, "recall options", ["conversationId", "maxTokens", "signal"]);
    if (archive === undefined) throw new TypeError("Expected `archive: true` on the compactor: `recall` reads the archive, and this compactor keeps none");
    const id = optionalNonEmptyString(recallOptions.conversationId, "conversationId") ?? defaultId;
    if (id === undefined) throw new TypeError("Expected a `conversationId` (of the call or the compactor): an archive is read by its conversation's id");
    const maxTokens = optionalInteger(recallOptions.maxTokens, "maxTokens", 1, DEFAULT_RECALL_TOKENS);
    const signal = optionalAbortSignal(recallOptions.signal, "signal");
    const key = keyOfId(id);
    // After the conversation's compactions in progress, so a recall sees what they archive.
    return queue.inTurn(key, async () => {
      const ranges = await archive.read(key, signal);
      return ranges === undefined ? "The archive could not be read: the store did not answer. Try again later." : recallFromArchive(ranges, query, maxTokens);
    });
  }

  return Object.assign(compact, { recall });
}

/**
 * With an archive, the summary ends with the line that says what is archived: every position from
 * the system prompt's end to the kept suffix's start.
 */
function withArchiveLine<T extends AnyMessage>(settings: Settings<T>, { messages }: Call<T>, applied: AppliedState<T>): Settings<T> {
  const head = headLength(messages);
  const inputIndex = inputIndexOf(applied);
  return { ...settings, summarySuffix: (tailStart: number) => archiveLine(head, (tailStart >= applied.base.length ? messages.length : inputIndex(tailStart)) - 1) };
}
