// The root export: what a typical user needs. The summary kit, the agent's tools, the provider's
// cache marker and the expert helpers are subpaths of their own (`context-compactor/summary-kit`,
// `/tools`, `/cache`, `/expert`), as are the adapters; `etc/` holds the reviewed report of each entry's surface.
export { compactor } from "./hook/compactor.js";
export type { CompactorHook } from "./hook/compactor.js";
export { compact } from "./hook/compact.js";
export { statefulCompactor } from "./state/stateful-compactor.js";
export type {
  ArchiveOptions,
  RecallOptions,
  StatefulCallOptions,
  StatefulCompactor,
  StatefulCompactorOptions,
  StatefulEvents,
  StoreErrorContext,
} from "./state/stateful-compactor.js";
export { memoryStore } from "./stores/memory-store.js";
export type { MemoryStoreOptions } from "./stores/memory-store.js";
export type { CompactionStore } from "./stores/compaction-store.js";
export { estimateTokens } from "./counting/estimate-tokens.js";
export { extractiveSummary } from "./summary-kit/extractive-summary.js";
export type { ExtractiveSummaryOptions } from "./summary-kit/extractive-summary.js";
export { summarizeWith } from "./summary-kit/summarize-with.js";
export type { CompleteSummary, SummarizeWithOptions } from "./summary-kit/summarize-with.js";
export { CompactionError, isCompactionError } from "./ground/errors.js";
export type { CompactionErrorCode } from "./ground/errors.js";
export type { DialectName } from "./dialects/dialect.js";
export type {
  AnyMessage,
  BeforeLlmEvent,
  BeforeLlmHook,
  CompactedEvent,
  CompactingEvent,
  CompactionResult,
  CompactOptions,
  CompactorEvents,
  CompactorOptions,
  CountTokens,
  LadderOptions,
  MaskToolResultsOptions,
  ModelFreeSummary,
  OverBudgetCause,
  ProviderVerdict,
  ReportedUsage,
  SkippedEvent,
  Summarize,
  SummarizerFailure,
  SummarizerIdentity,
  SummaryContext,
  SummaryOptions,
  SummaryReplacement,
  UsageEvent,
  UsageReport,
} from "./ground/types.js";
