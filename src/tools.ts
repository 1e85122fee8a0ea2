// `context-compactor/tools`: the agent's own tools, for any API that lets a model call tools: `compact_context`
// (the agent asks for a compaction) and `recall_context` (it reads back what left the request).
export { compactToolDefinition } from "./dialects/compact-tool-definition.js";
export type { CompactToolInputSchema } from "./dialects/compact-tool-definition.js";
export { answerCompactContext } from "./hook/compaction-requests.js";
export type { CompactionRequestOptions } from "./hook/compaction-requests.js";
export type { CompactionRequestAnswer } from "./ground/types.js";
export { recallToolDefinition } from "./dialects/recall-tool-definition.js";
export type { RecallToolInputSchema } from "./dialects/recall-tool-definition.js";
export { ArchiveTrimmedError } from "./archive/archive-trimmed-error.js";
export { readCompactContext } from "./plan/requested-compaction.js";
export type { CompactToolReader } from "./ground/types.js";
