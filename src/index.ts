export { compactor } from "./hook/compactor.js";
export type { CompactorHook } from "./hook/compactor.js";
export type { CompactionRequestOptions } from "./hook/compaction-requests.js";
export { compact } from "./hook/compact.js";
export { planCompaction } from "./plan/plan.js";
export type { CompactionPlan } from "./plan/plan.js";
export { estimateTokens } from "./counting/estimate-tokens.js";
export { createCachedCounter } from "./counting/cached-counter.js";
export { splitAtUserBoundary } from "./plan/split-at-user-boundary.js";
export type { Split, SplitOptions } from "./plan/split-at-user-boundary.js";
export { isSummaryMessage } from "./dialects/messages.js";
export { detectDialect } from "./dialects/registry.js";
export type { DialectName } from "./dialects/dialect.js";
export { findToolPairProblems } from "./dialects/tool-pairs.js";
export type { ToolPairProblem } from "./dialects/tool-pairs.js";
export { maskToolResults } from "./plan/mask-tool-output.js";
export type { MaskedTranscript } from "./plan/mask-tool-output.js";
export { chainHooks } from "./hook/chain-hooks.js";
export { statefulCompactor } from "./state/stateful-compactor.js";
export type { ArchiveOptions, RecallOptions, StatefulCallOptions, StatefulCompactor, StatefulCompactorOptions, StatefulEvents, StoreErrorContext } from "./state/stateful-compactor.js";
export { recallToolDefinition } from "./dialects/recall-tool-definition.js";
export { compactToolDefinition } from "./dialects/compact-tool-definition.js";
export type { CompactToolInputSchema } from "./dialects/compact-tool-definition.js";
export type { RecallToolInputSchema } from "./dialects/recall-tool-definition.js";
export { ArchiveTrimmedError } from "./archive/archive-trimmed-error.js";
export { memoryStore } from "./stores/memory-store.js";
export type { MemoryStoreOptions } from "./stores/memory-store.js";
export type { CompactionStore } from "./stores/compaction-store.js";
export { CompactionError, isCompactionError } from "./ground/errors.js";
export { isContextOverflowError } from "./recovery/is-context-overflow-error.js";
export type { CompactionErrorCode } from "./ground/errors.js";
export { SUMMARY_PREFIX, FLUSH_TO_MEMORY_REMINDER, MASKED_TOOL_RESULT, SUMMARY_REPLY } from "./ground/constants.js";
export type {
  AnyMessage,
  BeforeLlmEvent,
  BeforeLlmHook,
  CompactedEvent,
  CompactionRequestAnswer,
  ProviderVerdict,
  CompactingEvent,
  CompactionResult,
  OverBudgetCause,
  CompactOptions,
  CompactorEvents,
  CompactorOptions,
  CountTokens,
  LadderOptions,
  MaskToolResultsOptions,
  PlanOptions,
  ReportedUsage,
  UsageEvent,
  UsageReport,
  SkippedEvent,
  Summarize,
  SummarizerFailure,
  SummarizerIdentity,
  SummaryContext,
  SummaryOptions,
  SummaryReplacement,
} from "./ground/types.js";
export { renderTranscript } from "./summary-kit/render-transcript.js";
export type { RenderTranscriptOptions } from "./summary-kit/render-transcript.js";
export { buildSummaryPrompt, DEFAULT_SUMMARY_SECTIONS } from "./summary-kit/build-summary-prompt.js";
export type { SummaryPrompt, SummaryPromptOptions, SummarySection } from "./summary-kit/build-summary-prompt.js";
export { summarizeWith } from "./summary-kit/summarize-with.js";
export { firstOf } from "./summary-kit/first-of.js";
export { summarizeInPlace } from "./summary-kit/summarize-in-place.js";
export type { CompleteInPlace, SummarizeInPlaceOptions } from "./summary-kit/summarize-in-place.js";
export { extractiveSummary } from "./summary-kit/extractive-summary.js";
export type { ExtractiveSummaryOptions } from "./summary-kit/extractive-summary.js";
export type { ModelFreeSummary } from "./ground/types.js";
export type { CompleteSummary, SummarizeWithOptions } from "./summary-kit/summarize-with.js";
