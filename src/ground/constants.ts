/**
 * Prefix of every summary message this library makes. A message whose text starts with it is
 * recognised as an earlier summary (see `isSummaryMessage`), so the next compaction rolls it forward.
 */
export const SUMMARY_PREFIX = "[Summary of earlier conversation]\n";

/**
 * Content of the reminder added after the summary when `summary.flushToMemory` is on.
 */
export const FLUSH_TO_MEMORY_REMINDER =
  "Before continuing: the earlier transcript was replaced by the summary above; if anything in it or in the messages since is worth keeping, save it with the memory tool now.";

/**
 * The assistant turn that answers the summary in a format whose turns must alternate (Bedrock
 * Converse refuses two user messages in a row: "A conversation must alternate between user and
 * assistant roles"), so the kept tail's first user turn follows an assistant one.
 */
export const SUMMARY_REPLY = "Understood. I will continue from this summary.";

/**
 * Default text that replaces an old tool result when `ladder.maskToolResults` is on.
 */
export const MASKED_TOOL_RESULT = "[Old tool result cleared to save context]";

/** Every format name `format` accepts, in the order the docs list them. */
export const DIALECT_NAMES = [
  "openai-chat",
  "anthropic",
  "ai-sdk",
  "openai-responses",
  "google-genai",
  "bedrock-converse",
  "langchain",
  "pi-agent",
  "genkit",
] as const satisfies readonly import("./types.js").DialectName[];
