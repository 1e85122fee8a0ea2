// `context-compactor/summary-kit`: the helpers for writing `summarize`, beyond the two the root
// exports (`summarizeWith`, `extractiveSummary`, re-exported here too).
export { renderTranscript } from "./summary-kit/render-transcript.js";
export type { RenderTranscriptOptions } from "./summary-kit/render-transcript.js";
export { buildSummaryPrompt, DEFAULT_SUMMARY_SECTIONS } from "./summary-kit/build-summary-prompt.js";
export type { SummaryPrompt, SummaryPromptOptions, SummarySection } from "./summary-kit/build-summary-prompt.js";
export { summarizeWith } from "./summary-kit/summarize-with.js";
export type { CompleteSummary, SummarizeWithOptions } from "./summary-kit/summarize-with.js";
export { firstOf } from "./summary-kit/first-of.js";
export { summarizeInPlace } from "./summary-kit/summarize-in-place.js";
export type { CompleteInPlace, SummarizeInPlaceOptions } from "./summary-kit/summarize-in-place.js";
export { extractiveSummary } from "./summary-kit/extractive-summary.js";
export type { ExtractiveSummaryOptions } from "./summary-kit/extractive-summary.js";
