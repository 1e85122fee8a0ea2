import type { Dialect } from "../dialects/dialect.js";
import type { TranscriptTokens } from "../counting/token-counter.js";
import type { UsageAnchor } from "../counting/usage-anchor.js";
import type { AnyMessage } from "../ground/types.js";
import type { MeasuredTranscript } from "./plan-context.js";
import type { RequestedCompaction } from "./requested-compaction.js";

/** What a compaction would do now. */
export type PlanAction = "none" | "mask" | "truncate" | "summarize" | "skip";

/** Why. */
export type PlanReason = "under-budget" | "over-budget" | "forced" | "nothing-to-summarize" | "no-progress";

/** The dry run of a compaction (see `planCompaction`). */
export interface CompactionPlan<M extends AnyMessage = AnyMessage> {
  /**
   * `none`: at or under budget; `mask`: masking old tool results suffices; `truncate`: nothing new
   * to summarize, but cutting oversized tool payloads of the tail brings it closer (the earlier
   * summary is kept, in `head`); `summarize`: `summarize` would run; `skip`: over budget but nothing
   * worth summarizing.
   */
  action: PlanAction;
  reason: PlanReason;
  /** Token count of the transcript as it is. */
  tokensBefore: number;
  /** The kept system prompt (empty when `action` is `none`). */
  head: M[];
  /** What the summary would replace: the original messages, never masked (empty for `none` and `mask`). */
  older: M[];
  /** What would be kept after the summary (masked where masking ran; empty for `none`). */
  tail: M[];
}

/** A plan plus what the engine needs to carry it out without counting again. */
export interface EnginePlan<M extends AnyMessage> extends CompactionPlan<M> {
  /** Token counts of the transcript the tail is cut from (masked, when masking ran). */
  tokens: TranscriptTokens<M>;
  /** Tokens of `head` and `tail` together, for per-message counters. */
  keptTokens: number | undefined;
  /** Tokens of `older` as they were (unmasked), from the counts already taken; undefined for a whole-list counter. */
  olderTokens: number | undefined;
  previousSummary: string | undefined;
  /** Index in `messages` where the kept suffix starts (`messages.length` when none is kept). */
  tailStart: number;
  /** Indices of messages before `tailStart` kept verbatim after the summary (the turn's request, in an in-turn split). */
  pinned: number[];
  /** The longest summary that fits beside what is kept (`context.maxSummaryTokens`). */
  summaryLimit: number;
  /** The messages of the transcript that this library made (an earlier summary, its reminder). */
  made: ReadonlySet<object>;
  /** True when a user-role summary would be sealed (no stored state vouches for it). */
  sealed: boolean;
  /** The transcript's format: the summary is written in it. */
  dialect: Dialect;
  /** What travels beside the messages (see `MeasuredTranscript.fixedTokens`): the result's count is it plus its messages'. */
  fixedTokens: number;
  /** What the usage report said, when there was one. */
  anchor: UsageAnchor | undefined;
  /**
   * The request with `older` kept as it is and the tool payloads after the system prompt cut to
   * fit the budget, when that fits: what is sent when the summary is refused. Made on demand.
   */
  withoutSummary?: () => EnginePlan<M> | undefined;
  /** The agent's request this plan carries out (its note goes to `summarize` as instructions). */
  requested?: RequestedCompaction;
}

/** The fields a finished plan names; the rest default to "nothing kept, nothing counted". */
export type PlanFields<M extends AnyMessage> = Partial<EnginePlan<M>> & Pick<EnginePlan<M>, "action" | "reason">;

/** A finished plan of the measured transcript. */
export function finishedPlan<M extends AnyMessage>(
  measured: MeasuredTranscript<M>,
  fields: PlanFields<M>,
): EnginePlan<M> {
  return {
    tokensBefore: measured.tokensBefore,
    head: [],
    older: [],
    tail: [],
    tokens: measured.original,
    keptTokens: undefined,
    olderTokens: undefined,
    previousSummary: undefined,
    tailStart: measured.messages.length,
    pinned: [],
    summaryLimit: measured.messageBudget.maxSummaryTokens,
    made: new Set(),
    sealed: measured.sealed,
    dialect: measured.dialect,
    fixedTokens: measured.fixedTokens,
    anchor: measured.anchor,
    ...fields,
  };
}
