export { compactor } from "./compactor.js";
export { compact } from "./compact.js";
export { planCompaction } from "./plan.js";
export type { CompactionPlan, PlanAction, PlanReason } from "./plan.js";
export { estimateTokens } from "./estimate-tokens.js";
export { createCachedCounter } from "./cached-counter.js";
export { splitAtUserBoundary } from "./split.js";
export type { Split, SplitOptions } from "./split.js";
export { isSummaryMessage } from "./dialects.js";
export { findToolPairProblems } from "./tool-pairs.js";
export type { ToolPairProblem } from "./tool-pairs.js";
export { maskToolResults } from "./mask-tool-results.js";
export type { MaskedTranscript } from "./mask-tool-results.js";
export { chainHooks } from "./chain-hooks.js";
export { CompactionError, isCompactionError } from "./errors.js";
export type { CompactionErrorCode } from "./errors.js";
export { SUMMARY_PREFIX, FLUSH_TO_MEMORY_REMINDER, MASKED_TOOL_RESULT } from "./constants.js";
export type {
  AnyMessage,
  BeforeLlmEvent,
  BeforeLlmHook,
  CompactedEvent,
  CompactingEvent,
  CompactionResult,
  CompactionStrategy,
  CompactOptions,
  CompactorOptions,
  CountTokens,
  MaskToolResultsOptions,
  PlanOptions,
  SkippedEvent,
  SkipReason,
  Summarize,
  SummaryContext,
} from "./types.js";
export { renderTranscript } from "./summary-kit/render-transcript.js";
export type { RenderTranscriptOptions } from "./summary-kit/render-transcript.js";
export { buildSummaryPrompt, DEFAULT_SUMMARY_SECTIONS } from "./summary-kit/build-summary-prompt.js";
export type { SummaryPrompt, SummaryPromptOptions, SummarySection } from "./summary-kit/build-summary-prompt.js";
export { summarizeWith } from "./summary-kit/summarize-with.js";
export type { CompleteSummary } from "./summary-kit/summarize-with.js";
