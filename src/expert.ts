// `context-compactor/expert`: the parts of the engine for callers who build their own loop around
// it: the dry run, the splitter, counters, transcript checks, the strings the library writes.
export { planCompaction } from "./plan/plan.js";
export type { CompactionPlan } from "./plan/plan.js";
export type { PlanOptions } from "./ground/types.js";
export { createCachedCounter } from "./counting/cached-counter.js";
export { splitAtUserBoundary } from "./plan/split-at-user-boundary.js";
export type { Split, SplitOptions } from "./plan/split-at-user-boundary.js";
export { detectDialect } from "./dialects/registry.js";
export { findToolPairProblems } from "./dialects/tool-pairs.js";
export type { ToolPairProblem } from "./dialects/tool-pairs.js";
export { maskToolResults } from "./plan/mask-tool-output.js";
export type { MaskedTranscript } from "./plan/mask-tool-output.js";
export { chainHooks } from "./hook/chain-hooks.js";
export { isContextOverflowError } from "./recovery/is-context-overflow-error.js";
export { SUMMARY_PREFIX, FLUSH_TO_MEMORY_REMINDER, MASKED_TOOL_RESULT, SUMMARY_REPLY } from "./ground/constants.js";
export { readProviderVerdicts } from "./hook/provider-verdict-reader.js";
export type { ProviderVerdictReader } from "./ground/types.js";
