import { resultOf } from "../hook/compactor.js";
import { runCompaction, type CompactionOutcome } from "../hook/engine.js";
import { optionalAbortSignal } from "../ground/abort-signal.js";
import { definedFields } from "../ground/defined-fields.js";
import { expectedMessage } from "../ground/describe-value.js";
import type { Settings } from "../ground/options.js";
import type { AnyMessage, CompactionResult, ReportedUsage } from "../ground/types.js";
import { HOOK_SETTINGS } from "../hook/hook-settings.js";
import { MAX_REMEMBERED_REQUESTS, readVerdict } from "../hook/read-verdict.js";
import { requestLength } from "../hook/request-length.js";
import { boundedMap } from "../ground/bounded-map.js";
import { planWithSettings, type EnginePlan } from "../plan/plan.js";
import { formatDialect } from "../dialects/transcript-format.js";
import { UsageHistories } from "../counting/usage-anchor.js";
import { headLength } from "../plan/split-at-user-boundary.js";
import { TranscriptView } from "../plan/transcript-view.js";
import { assertTranscript } from "../dialects/validate-messages.js";
import { checkedUsage } from "../validation/usage.js";
import { bestBranch, formatsOfBase, inputIndexOf, type AppliedState, type ApplyContext } from "./applied-state.js";
import { archiveLine, withoutArchiveLine } from "../archive/archive-line.js";
import { archivePositions } from "../archive/archive-positions.js";
import { archiveStore } from "../archive/archive-store.js";
import { branchStorage } from "./branch-storage.js";
import { rangeOf, type ArchivedRange } from "../archive/conversation-archive.js";
import { conversationLeases } from "./conversation-leases.js";
import { conversationQueue } from "./conversation-queue.js";
import { STATE_VERSION, type ConversationState } from "../stores/conversation-state.js";
import { UnreadableValueError, digestMessages } from "../stores/digest.js";
import type { StoreBudget } from "../stores/bounded-store-call.js";
import { droppedMessages } from "../archive/dropped-messages.js";
import { recallFromArchive } from "../archive/recall-archive.js";
import {
  resolveStatefulOptions,
  type RecallOptions,
  type StatefulCallOptions,
  type StatefulCompactorOptions,
} from "./stateful-options.js";
import { KEY_PREFIX, archiveKeyOf, automaticKey, isAutomaticKey, keyOfId } from "../stores/store-keys.js";
import { storedSummaryOf } from "./stored-compaction.js";
import { shadowState } from "../stores/check-state.js";
import { coveredTailOf } from "./slid-window.js";
import { stateWithUsage, usageFromState, usageOfBase } from "./stored-usage.js";
import { optionalInteger, optionalNonEmptyString, optionsObject } from "../ground/checks.js";

export type {
  ArchiveOptions,
  RecallOptions,
  StatefulCallOptions,
  StatefulCompactorOptions,
  StatefulEvents,
  StoreErrorContext,
} from "./stateful-options.js";

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
  /** With `archive: true`: the name the summary's archive line gives the recall tool (`archive.toolName`), which a recall tool made from this compactor takes. */
  readonly recallToolName: string | undefined;
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
  /** True when the provider stopped the last request at its context window: this call compacts. */
  forced: boolean;
  /** True when the provider refused a native item of the last request: its readable shadow takes its place. */
  refused: boolean;
  /** The states read as the readable shadow of a refused item: written back as they are. */
  shadows?: ReadonlySet<ConversationState>;
  /** What the engine measured, and whether it compacted: what a later request is weighed against. */
  seen: { tokens: number; compacted: boolean };
  /** The call's reading of its input: each message's format, told once, when the call starts. */
  view: TranscriptView<T>;
  /** What the call may still wait on its store: once a store call went unanswered, none is waited for again. */
  budget: StoreBudget;
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
export function statefulCompactor<M extends AnyMessage = AnyMessage>(
  options: StatefulCompactorOptions<M>,
): StatefulCompactor<M> {
  const resolved = resolveStatefulOptions<M>(options);
  const { settings, store, defaultId, report, storeTimeoutMs, stateKey } = resolved;
  const queue = conversationQueue();
  // What each conversation's last call returned: the request a provider's response answers. Held
  // weakly: the caller holds it while the conversation goes on, and a finished one costs nothing.
  const sent = boundedMap<WeakRef<readonly object[]>>(MAX_REMEMBERED_REQUESTS);
  /** The settings of one call: forced by a stop at the context window. */
  const settingsOf = (call: { forced: boolean }) => (call.forced ? { ...settings, force: true } : settings);
  const histories = new UsageHistories();
  const branches = branchStorage(resolved);
  const leases = conversationLeases(resolved);
  const archive = resolved.archive
    ? archiveStore({
        store,
        stateKey,
        storeTimeoutMs,
        maxBytes: resolved.archiveMaxBytes,
        report: (error, operation, key) => report(error, { operation, key }),
      })
    : undefined;

  const compact = async <T extends M>(
    messages: readonly T[],
    call: StatefulCallOptions = {},
  ): Promise<CompactionResult<T> | null> => {
    optionsObject(call, "call options", ["conversationId", "signal", "usage", "response"]);
    const signal = optionalAbortSignal(call.signal, "signal");
    const id = optionalNonEmptyString(call.conversationId, "conversationId") ?? defaultId;
    assertTranscript(messages);
    const view = new TranscriptView(messages, undefined);
    let key: string;
    try {
      key = await queue.keyInOrder(async () =>
        id === undefined ? automaticKey(messages, formatDialect(messages, settings.format, view), view) : keyOfId(id),
      );
    } catch (error) {
      if (!(error instanceof UnreadableValueError)) throw error;
      // Its opening cannot be read, so the conversation has no key: it is compacted without state.
      const usage = checkedUsage(call.usage, messages.length);
      return withoutState(error, {
        messages,
        key: `${KEY_PREFIX}auto:unreadable`,
        signal,
        usage,
        reported: usage,
        forced: false,
        refused: false,
        seen: { tokens: 0, compacted: false },
        view,
        budget: {},
      });
    }
    return queue.inTurn(key, async () => {
      const verdict = readVerdict(call.response, sent.get(key)?.deref(), settings.onProviderVerdict);
      // The response's report describes the messages before the model's latest reply: the history
      // as the caller keeps it, read back from a database or not.
      const reported =
        call.usage ??
        (verdict.usage === undefined
          ? undefined
          : {
              ...verdict.usage,
              messageCount: requestLength(messages, formatDialect(messages, settings.format, view)),
            });
      const usage = checkedUsage(reported, messages.length);
      const seen = { tokens: 0, compacted: false };
      const result = await compactOnce({
        messages,
        key,
        signal,
        usage,
        reported: usage,
        forced: verdict.overflowed,
        refused: verdict.refused,
        seen,
        view,
        budget: {},
      });
      sent.set(key, new WeakRef(result === null ? messages : result.messages));
      return result;
    });
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
  async function withoutState<T extends M>(
    error: UnreadableValueError,
    call: Call<T>,
  ): Promise<CompactionResult<T> | null> {
    const { messages, key, signal, usage, seen, view } = call;
    report(error, { operation: "get", key });
    const outcome = await runCompaction<T>(
      messages,
      settingsOf(call),
      definedFields({
        signal,
        usage,
        history: histories.of(key),
        measured: (tokens: number) => (seen.tokens = tokens),
        formats: view,
      }),
    );
    seen.compacted = outcome !== null;
    return outcome === null ? null : resultOf(outcome);
  }

  /** Read state → plan → lease (only to summarize) → engine → write state → archive. */
  async function compactStored<T extends M>(input: Call<T>): Promise<CompactionResult<T> | null> {
    const { messages, key, signal, view, budget } = input;
    const apply: ApplyContext<T> = {
      settings,
      invalid: (error) => report(error, { operation: "get", key }),
      followsSlidWindow: !isAutomaticKey(key),
      formats: view,
    };
    // After a refusal, every stored provider compaction of the conversation stands as its readable
    // shadow: the provider will refuse the item again, and the shadow says what it replaced.
    const shadows = new Set<ConversationState>();
    const readBranches = async () => {
      const states = await branches.read(key, signal, budget);
      if (!input.refused) return states;
      return states.map((state) => {
        const shadow = shadowState(state, messages, settings);
        if (shadow !== undefined) shadows.add(shadow);
        return shadow ?? state;
      });
    };
    let applied = await bestBranch(messages, await readBranches(), apply);
    // A usage the caller reports describes the request it sent, made with the conversation's state
    // as the store held it. When the store did not answer, this call cannot tell which state that
    // was (another instance's, which never reached this one), and counts as a call without it would.
    const answered = branches.answered(key);
    const reported = answered ? input.reported : undefined;
    const call = {
      ...input,
      reported,
      usage: (answered ? input.usage : undefined) ?? (await usageFromState(messages, applied.state)),
      shadows,
    };
    // One summary per crossing across instances: only the holder of the lease summarizes; the
    // others wait for its state, then go on from it (and summarize alone if it never comes).
    let planned =
      typeof store.acquire === "function"
        ? planWithSettings(
            applied.base,
            settingsOf(input),
            definedFields({
              usage: usageOfBase(call.usage, applied.state, applied.origin),
              stored: applied.stored,
              history: histories.of(key),
              formats: formatsOfBase(applied, view),
            }),
          )
        : undefined;
    if (planned?.action !== "summarize") return compactApplied(call, applied, planned);
    const lease = await leases.acquire(
      key,
      signal,
      async () => {
        const continued = await bestBranch(messages, await readBranches(), apply);
        return continued.state !== undefined && continued.state.digest !== applied.state?.digest
          ? continued
          : undefined;
      },
      budget,
    );
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

  async function compactApplied<T extends M>(
    call: Call<T>,
    applied: AppliedState<T>,
    planned: EnginePlan<T> | undefined,
  ): Promise<CompactionResult<T> | null> {
    const { messages, key, signal, usage, reported, seen, view, budget } = call;
    const callSettings = settingsOf(call);
    const { state, base, origin, stored } = applied;
    const baseFormats = formatsOfBase(applied, view);
    const inputIndex = inputIndexOf(applied);
    // A conversation without an id has no archive: a recall names its conversation by id.
    const archived = archive !== undefined && !isAutomaticKey(key);
    const engineUsage = usageOfBase(usage, state, origin);
    // The archive is read before a compaction that archives (a summary, cut payloads), and only
    // then: it says where a window that no state follows starts, the summary's line names what it
    // holds (nothing, when it could not be read), and the append after the compaction writes it.
    let archiveRead: { ranges: ArchivedRange[] | undefined } | undefined;
    // The positions the store took (or left out, too large) before the summary: not appended again
    // after it. Those of a write it refused or did not answer are, so that a late answer is not lost.
    const appendedFirst = new Set<number>();
    // The stored summary ends with the archive line written with it: the next summary keeps its
    // sections without that line and ends with a line of its own.
    let engineSettings: Settings<T> =
      archived && state !== undefined
        ? {
            ...callSettings,
            withoutSummarySuffix: (text) =>
              withoutArchiveLine(text, {
                last: (state.conversationCovered ?? state.covered) - 1,
                toolName: resolved.archiveToolName,
              }),
          }
        : callSettings;
    if (archived) {
      planned ??= planWithSettings(
        base,
        callSettings,
        definedFields({ usage: engineUsage, stored, history: histories.of(key), formats: baseFormats }),
      );
      if (planned.action === "summarize" || planned.action === "truncate")
        archiveRead = { ranges: await archive.read(key, signal, budget) };
    }
    const positionOf = archivePositions(messages, state, archiveRead?.ranges, {
      dialect: formatDialect(messages, settings.format, view),
      formats: view,
    });
    if (archived && archiveRead !== undefined && archiveRead.ranges !== undefined && planned?.action === "summarize") {
      // What the summary replaces is archived before the summary names it: the line names what the
      // store took, not what was asked of it (a value the store refused, a message it skipped).
      const kept = new Set<number>(planned.pinned);
      const sent = base.filter(
        (_, index) => index < planned!.head.length || index >= planned!.tailStart || kept.has(index),
      );
      const replaced = rangeOf(droppedMessages({ messages, base, sent, inputIndex, positionOf }));
      const held = await archive.append(key, replaced, { read: archiveRead, budget });
      if (held !== archiveRead.ranges) for (const entry of replaced?.messages ?? []) appendedFirst.add(entry.index);
      archiveRead = { ranges: held };
      engineSettings = withArchiveLine(engineSettings, {
        messages,
        applied,
        plan: planned,
        positionOf,
        archivedBefore: archiveRead.ranges,
        toolName: resolved.archiveToolName,
        view,
      });
    }
    const storedText = state?.madeBy === undefined ? undefined : state.text;
    const outcome = await runCompaction<T>(
      base,
      engineSettings,
      definedFields({
        signal,
        usage: engineUsage,
        stored,
        planned,
        storedText,
        history: histories.of(key),
        measured: (tokens: number) => (seen.tokens = tokens),
        formats: baseFormats,
      }),
    );
    seen.compacted = outcome !== null;
    if (outcome === null) {
      // The shadow that stood in for a refused item is the conversation's state from now on, in
      // the store too, so that no later request (of any instance) sends the item again.
      if (state !== undefined && call.shadows?.has(state) === true) {
        await unlessUnreadable(key, async () => {
          const next = reported === undefined ? undefined : await stateWithUsage(messages, state, reported);
          await branches.write(key, { next: next ?? state, messages, extended: state, signal, budget });
        });
      } else if (reported !== undefined && state !== undefined && !(archived && store.ttlMs !== undefined)) {
        // Sent with the state as it is: what the provider reported for it is kept with the state;
        // not when a store that expires values would then keep the state longer than its archive.
        await unlessUnreadable(key, async () => {
          const next = await stateWithUsage(messages, state, reported);
          if (next !== undefined) await branches.write(key, { next, messages, extended: state, signal, budget });
        });
      }
      return base === messages ? null : { messages: base.slice() };
    }
    const summarized = outcome.strategy === "summarize" || outcome.strategy === "fallback";
    await writeOutcome(call, applied, outcome, positionOf);
    // After the state's write, so that the archive expires no sooner than the state that names it.
    // A result that only masks old tool results archives nothing: they are still in the input as
    // they were, and are archived with the summary that removes them.
    if (archived && outcome.strategy !== "mask") {
      try {
        const range = rangeOf(
          droppedMessages({ messages, base, sent: outcome.messages, inputIndex, positionOf }).filter(
            (entry) => !appendedFirst.has(entry.index),
          ),
        );
        // Written again after the state only where values expire: the archive then lives as long as the state.
        await archive.append(key, range, {
          ...(archiveRead === undefined ? {} : { read: archiveRead }),
          refresh: summarized && store.ttlMs !== undefined,
          budget,
        });
      } catch (error) {
        report(error, { operation: "set", key: archiveKeyOf(key) });
      }
    }
    return resultOf(outcome);
  }

  /** Stores what a summary made: the summary, and which leading input messages it covers. */
  async function writeOutcome<T extends M>(
    { messages, key, signal, view, budget }: Call<T>,
    applied: AppliedState<T>,
    outcome: CompactionOutcome<T>,
    positionOf: (index: number) => number,
  ): Promise<void> {
    if (outcome.strategy !== "summarize" && outcome.strategy !== "fallback") return;
    const { state, base } = applied;
    const inputIndex = inputIndexOf(applied);
    const covered = outcome.tailStart >= base.length ? messages.length : inputIndex(outcome.tailStart);
    const pinned = outcome.pinned.map(inputIndex);
    if (covered <= 0 || !pinned.every((index) => index >= 0)) return;
    const dialect = formatDialect(messages, settings.format, view);
    await unlessUnreadable(key, async () => {
      const next: ConversationState = {
        version: STATE_VERSION,
        covered,
        digest: await digestMessages(messages.slice(0, covered)),
        pinned,
        ...storedSummaryOf(outcome, applied, messages, {
          dialect,
          formats: view,
          baseFormats: formatsOfBase(applied, view),
        }),
        coveredTail: await coveredTailOf(messages, covered, headLength(messages, dialect, view)),
        conversationCovered: positionOf(covered),
      };
      await branches.write(key, { next, messages, extended: state, signal, budget });
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
    if (archive === undefined)
      throw new TypeError(
        "Expected `archive: true` on the compactor: `recall` reads the archive, and this compactor keeps none",
      );
    const id = optionalNonEmptyString(recallOptions.conversationId, "conversationId") ?? defaultId;
    if (id === undefined)
      throw new TypeError(
        "Expected a `conversationId` (of the call or the compactor): an archive is read by its conversation's id",
      );
    const maxTokens = optionalInteger(recallOptions.maxTokens, "maxTokens", 1, DEFAULT_RECALL_TOKENS);
    const signal = optionalAbortSignal(recallOptions.signal, "signal");
    const key = keyOfId(id);
    // After the conversation's compactions in progress, so a recall sees what they archive.
    return queue.inTurn(key, async () => {
      const ranges = await archive.read(key, signal);
      return ranges === undefined
        ? "The archive could not be read: the store did not answer. Try again later."
        : recallFromArchive(ranges, query, maxTokens);
    });
  }

  // Its checked options, for `answerCompactContext` (what a `compact_context` tool call returns).
  Object.defineProperty(compact, HOOK_SETTINGS, { value: settings });
  return Object.assign(compact, { recall, recallToolName: resolved.archive ? resolved.archiveToolName : undefined });
}

/** What the archive line is made from. */
interface ArchiveLineContext<T extends AnyMessage> {
  messages: readonly T[];
  applied: AppliedState<T>;
  plan: EnginePlan<T>;
  positionOf: (index: number) => number;
  /** The archive as the store holds it once the summary's messages were appended; undefined when the store did not answer. */
  archivedBefore: readonly ArchivedRange[] | undefined;
  /** The name the recall tool is registered under (`archive.toolName`). */
  toolName: string;
  /** The call's reading of its input. */
  view: TranscriptView<T>;
}

/**
 * With an archive, the summary ends with the line that says what is archived once this summary's
 * messages are: the positions up to the kept suffix's start that the archive then holds (or that
 * stay in the request, pinned), back to the first one it does not (a message of an archive that
 * expired or was lost is not named). When the archive could not be read, nothing will be written,
 * and the summary ends without a line.
 */
function withArchiveLine<T extends AnyMessage>(
  settings: Settings<T>,
  { messages, applied, plan, positionOf, archivedBefore, toolName, view }: ArchiveLineContext<T>,
): Settings<T> {
  if (archivedBefore === undefined) return settings;
  const inputIndex = inputIndexOf(applied);
  const head = headLength(messages, formatDialect(messages, settings.format, view), view);
  return {
    ...settings,
    summarySuffix: (tailStart: number) => {
      const end = positionOf(tailStart >= applied.base.length ? messages.length : inputIndex(tailStart));
      const held = new Set(archivedBefore.flatMap((range) => range.messages.map((entry) => entry.index)));
      // What this summary keeps (pinned, still in the request) is there to read too.
      for (const index of plan.pinned) if (inputIndex(index) >= 0) held.add(positionOf(inputIndex(index)));
      // The newest run of positions the archive holds: a message it skipped (too large) ends the run.
      let last = end - 1;
      while (last >= head && !held.has(last)) last--;
      let from = last + 1;
      while (from > head && held.has(from - 1)) from--;
      return from <= last ? archiveLine(from, last, toolName) : [];
    },
  };
}
