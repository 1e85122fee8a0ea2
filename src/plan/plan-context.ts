import { libraryMessagesOf } from "../dialects/library-messages.js";
import type { Dialect } from "../dialects/dialect.js";
import type { MessageFormats } from "../dialects/format-claims.js";
import { readTranscript } from "../dialects/transcript-format.js";
import { TranscriptTokens } from "../counting/token-counter.js";
import { anchoredCounts, type UsageAnchor, type UsageHistory } from "../counting/usage-anchor.js";
import { FLUSH_TO_MEMORY_REMINDER } from "../ground/constants.js";
import type { Settings } from "../ground/options.js";
import type { AnyMessage, ReportedUsage } from "../ground/types.js";
import type { CheckedUsage } from "../validation/usage.js";
import type { PlanReason } from "./compaction-plan.js";
import { maskToolResults } from "./mask-tool-output.js";
import { latestIndex } from "./search-from-end.js";
import { headLength } from "./split-at-user-boundary.js";
import { SMALLEST_SUMMARY, summaryTokens } from "./summary-tokens.js";
import type { TranscriptView } from "./transcript-view.js";
import type { KeptTail } from "./rungs/kept-tail.js";
import type { RequestedCompaction } from "./requested-compaction.js";

/** What one plan brings besides the messages and settings. */
export interface PlanCall {
  usage?: ReportedUsage | CheckedUsage | undefined;
  /** What the hook learnt from the reports before this one (the per-message ratio they show). */
  history?: UsageHistory | undefined;
  /** The messages a store vouches for as this library's own (no seal needed). */
  stored?: ReadonlySet<object> | undefined;
  /** The formats of the messages, when the caller has already read them (see `TranscriptView`). */
  formats?: MessageFormats | undefined;
  /** A request of the agent's to weigh instead of the one its latest reply holds (what the tool answers, before the next call). */
  request?: RequestedCompaction | undefined;
}

/** The transcript as counted, before anything is decided. */
export interface MeasuredTranscript<M extends AnyMessage> {
  messages: readonly M[];
  /** The options as validated: the ladder's switches, the counter, the summary's role. `options.maxTokens` is the request's budget. */
  options: Settings<M>;
  /** What the messages alone may take, once the fixed part is out of the request's budget (see `messageBudgetOf`). */
  messageBudget: MessageBudget;
  /** What travels beside the messages, as the usage report shows it, else `reserveTokens`: a part of every request's count. */
  fixedTokens: number;
  /** What the usage report said, when there was one. */
  anchor: UsageAnchor | undefined;
  dialect: Dialect;
  /** The call's reading of the transcript: each message's format, told once, and what is asked of it. */
  view: TranscriptView<M>;
  /** Counts of the transcript as it is, anchored on the provider's usage when there is one. */
  original: TranscriptTokens<M>;
  /** The request's count: its messages and the fixed part. */
  tokensBefore: number;
  overBudget: boolean;
  /** True when a user-role summary would be sealed (no stored state vouches for it). */
  sealed: boolean;
  stored: ReadonlySet<object> | undefined;
}

/**
 * The budgets of the messages: the request's (`maxTokens`, `keepTail`, `summary.maxTokens` as
 * given) less what travels beside them. Named apart from the request's, which is `options.maxTokens`.
 */
export interface MessageBudget {
  /** What the messages may take in all. */
  maxTokens: number;
  /** What the kept tail aims at. */
  keepTail: number;
  /** What the summary may take at most. */
  maxSummaryTokens: number;
  /** The least masking alone must free to be used instead of a summary. */
  minFreedTokens: number;
}

/** What the parts of the request may take, in tokens. */
export interface PlanBudget {
  /** What the kept head (system prompt, provider compaction) takes. */
  headTokens: number;
  /** What the hook adds besides the summary: the flush reminder, and the reply where turns must alternate. */
  reminderTokens: number;
  /** What is left for the tail once the head, the reminder and a summary of `maxSummaryTokens` are in. */
  tailRoom: number;
  /** What the tail search may take: `keepTail`, or less when the tail room is smaller. */
  tailBudget: number;
}

/** What every rung of the ladder reads: the transcript, its counts, its boundaries and the budget. */
export interface PlanContext<M extends AnyMessage> extends MeasuredTranscript<M> {
  reason: PlanReason;
  /** Length of the kept head (see `headLength`). */
  head: number;
  /** The messages of the transcript that this library made (an earlier summary, its reminder). */
  made: ReadonlySet<object>;
  /** Whether the message at an index is a user turn (not one this library made). */
  isBoundary: (index: number) => boolean;
  /** Whether a kept tail may start at an index: a user turn that cuts no call from its result. */
  isTailStart: (index: number) => boolean;
  /** Index of the latest user turn after the head, or -1. */
  latestUser: number;
  /** Counts of what the tail is cut from: the masked transcript when masking masked anything, else `original`. */
  tokens: TranscriptTokens<M>;
  /** The budget, counted on first use (masking alone never needs it). */
  readonly budget: PlanBudget;
  /** Tokens of a summary of a few words. */
  smallestSummary(): number;
  /** Tokens of what the summary would replace, as the transcript counts it (masking aside). */
  olderTokens(kept: KeptTail<M>): number;
  /** Tokens of the kept tail. */
  tailTokens(kept: KeptTail<M>): number;
  /**
   * What the kept tail may take: the tail room, and never so much that a summary of a few words
   * (or the older part, when smaller) no longer fits beside it; with nothing but an earlier summary
   * to replace, that summary stays, and the room is what it leaves beside the head.
   */
  roomFor(kept: KeptTail<M>): number;
}

/** Counts the transcript (see `anchoredCounts`) and tells whether it is over budget. */
export function measureTranscript<M extends AnyMessage>(
  messages: readonly M[],
  settings: Settings<M>,
  call: PlanCall,
  view: TranscriptView<M>,
): MeasuredTranscript<M> {
  const dialect = readTranscript(messages, settings.format, "messages", view);
  const {
    tokens: original,
    messagesTotal,
    fixedTokens,
    anchor,
  } = anchoredCounts(
    messages,
    { countTokens: settings.countTokens, reserveTokens: settings.reserveTokens, formats: view },
    call.usage,
    call.history,
  );
  const messageBudget = messageBudgetOf(settings, fixedTokens);
  const tokensBefore = Math.ceil(messagesTotal + fixedTokens);
  const overBudget = Math.ceil(messagesTotal) > messageBudget.maxTokens;
  return {
    messages,
    options: settings,
    messageBudget,
    fixedTokens,
    anchor,
    dialect,
    view,
    original,
    tokensBefore,
    overBudget,
    sealed: call.stored === undefined,
    stored: call.stored,
  };
}

/**
 * The budgets of the messages once what travels beside them (`fixedTokens`) is taken out of
 * `maxTokens`. When the kept tail and the summary no longer fit the room left together, both
 * shrink in proportion, so that a large fixed part (a system prompt and tools of 40,000 tokens
 * in a window of 50,000) leaves the summary its share of the room rather than a few tokens.
 */
export function messageBudgetOf<M extends AnyMessage>(settings: Settings<M>, fixedTokens: number): MessageBudget {
  // With nothing beside the messages, theirs are the request's budgets (the settings hold them by these names).
  if (fixedTokens <= 0) return settings;
  const { keepTail, maxSummaryTokens, minFreedTokens } = settings;
  const maxTokens = Math.max(1, Math.floor(settings.maxTokens - fixedTokens));
  const share = Math.min(1, maxTokens / Math.max(1, keepTail + maxSummaryTokens));
  return {
    maxTokens,
    keepTail: Math.max(0, Math.min(Math.floor(keepTail * share), maxTokens - 1)),
    maxSummaryTokens: Math.max(1, Math.floor(maxSummaryTokens * share)),
    minFreedTokens: Math.min(minFreedTokens, maxTokens),
  };
}

/** Reads what the rungs need of a transcript that is to be compacted. */
export function planContext<M extends AnyMessage>(measured: MeasuredTranscript<M>): PlanContext<M> {
  const { messages, options, messageBudget, dialect, original, view } = measured;
  const head = headLength(messages, dialect, view);
  // The library's own summary counts by position and role; a boundary must also not cut a pair
  // (a duplicate result after a user turn would be left without its call).
  const made = libraryMessagesOf(messages, head, options.summaryRole, {
    stored: measured.stored,
    sealer: options.sealer,
    dialect,
    formats: view,
  });
  // Every rung asks about messages by index, through one reading of the transcript. Masking keeps
  // roles, calls and ids, so what it says of a message holds for its masked copy too.
  const safe = view.safeCuts();
  const isBoundary = (index: number) => !made.has(messages[index] as M) && view.isBoundaryAt(index);
  const isTailStart = (index: number) => safe[index] === 1 && isBoundary(index);
  const tokens = maskedTokens(measured);

  let budget: PlanBudget | undefined;
  let smallest: number | undefined;
  // What the summary would replace, and the kept tail, counted once each: a whole-list counter is
  // called once for each.
  const olderCounts = new WeakMap<readonly M[], number>();
  const tailCounts = new WeakMap<readonly M[], number>();
  const rooms = new WeakMap<readonly M[], number>();
  const context: PlanContext<M> = {
    ...measured,
    reason: measured.overBudget ? "over-budget" : "forced",
    head,
    made,
    isBoundary,
    isTailStart,
    latestUser: latestIndex(messages.length, head, isBoundary),
    tokens,
    get budget() {
      return (budget ??= budgetOf(context));
    },
    smallestSummary: () => (smallest ??= summaryTokens(context, SMALLEST_SUMMARY)),
    olderTokens(kept) {
      const known = olderCounts.get(kept.older);
      if (known !== undefined) return known;
      let count = original.isPerMessage ? original.countRange(head, kept.tailStart) : original.countList(kept.older);
      if (original.isPerMessage) for (const index of kept.pinned) count -= original.countAt(index);
      olderCounts.set(kept.older, count);
      return count;
    },
    tailTokens(kept) {
      if (kept.tailTokens !== undefined) return kept.tailTokens;
      const known = tailCounts.get(kept.tail);
      if (known !== undefined) return known;
      const count = tokens.countList(kept.tail);
      tailCounts.set(kept.tail, count);
      return count;
    },
    roomFor(kept) {
      const known = rooms.get(kept.older);
      if (known !== undefined) return known;
      const keepsSummary = kept.older.length > 0 && kept.older.every((message) => made.has(message));
      const { headTokens, reminderTokens, tailRoom } = context.budget;
      // What replaces the older part takes a summary of a few words, or no more than the older part
      // itself when that is smaller (kept as it is, or summarized into less): a `maxSummaryTokens`
      // below that must not hand the tail room that the result cannot give it.
      const olderAtLeast = kept.older.length === 0 ? 0 : Math.min(context.olderTokens(kept), context.smallestSummary());
      const room = Math.max(
        0,
        keepsSummary
          ? messageBudget.maxTokens - headTokens - tokens.countList(kept.older)
          : Math.min(tailRoom, messageBudget.maxTokens - headTokens - reminderTokens - olderAtLeast),
      );
      rooms.set(kept.older, room);
      return room;
    },
  };
  return context;
}

/** Counts of the transcript with old tool results masked, when `maskToolResults` masks any; else the original counts. */
function maskedTokens<M extends AnyMessage>({
  messages,
  options,
  original,
  view,
}: MeasuredTranscript<M>): TranscriptTokens<M> {
  if (!options.mask) return original;
  const masking = maskToolResults(messages, options.mask, view);
  if (masking.masked === 0) return original;
  return new TranscriptTokens(masking.messages, options.countTokens, { from: original, changed: masking.changed });
}

function budgetOf<M extends AnyMessage>({ options, messageBudget, dialect, tokens, head }: PlanContext<M>): PlanBudget {
  const headTokens = tokens.isPerMessage
    ? tokens.countRange(0, head)
    : head === 0
      ? 0
      : tokens.countList(tokens.messages.slice(0, head));
  const besides = [
    ...(options.flushToMemory ? [dialect.textMessage(options.summaryRole, FLUSH_TO_MEMORY_REMINDER)] : []),
    ...(dialect.replyToSummary ? [dialect.replyToSummary()] : []),
  ];
  const reminderTokens = besides.length > 0 ? tokens.countList(besides as M[]) : 0;
  // Room for the summary is reserved when the tail is chosen, so that summary and tail fit together.
  const tailRoom = messageBudget.maxTokens - headTokens - messageBudget.maxSummaryTokens - reminderTokens;
  return { headTokens, reminderTokens, tailRoom, tailBudget: Math.max(0, Math.min(messageBudget.keepTail, tailRoom)) };
}
