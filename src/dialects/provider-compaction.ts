// The providers' own compactions, as they sit in a transcript, and only where each provider puts them:
// - OpenAI Responses: an input item `{ type: "compaction", encrypted_content }` (SDK `ResponseCompactionItemParam`,
//   one of the `ResponseInputItem`s of a request's `input`, openai/resources/responses/responses.d.ts), unreadable
//   outside OpenAI. Only a top-level item of a transcript read as Responses is one.
// - Anthropic Messages: a content block `{ type: "compaction", content, signature?, encrypted_content? }` (SDK
//   `BetaCompactionBlockParam`, @anthropic-ai/sdk/resources/beta/messages/messages.d.ts), whose `content` is the
//   summary in plain text, or null for a failed compaction the server treats as a no-op. The API returns it in
//   the assistant response, which the caller appends to its messages ("On subsequent requests, append the
//   response to your messages", platform.claude.com/docs/en/build-with-claude/compaction): only a block of an
//   assistant message's content, in a transcript read as Anthropic, is one.
// Anything else of `type: "compaction"` (a tool result that lists a database's compaction, a block a user
// typed, another format's item) is data: it never freezes the head or becomes the previous summary.
import { records } from "./content-parts.js";
import type { Dialect, MessageRecord } from "./dialect.js";

/** A provider compaction in force: its readable text, when the provider gives one. */
export interface ProviderCompaction {
  text: string | undefined;
}

/** The provider compaction this message holds, read in the transcript's dialect, or undefined. */
export function providerCompactionOf(message: object, dialect: Dialect): ProviderCompaction | undefined {
  const record = message as MessageRecord;
  if (dialect.name === "openai-responses") {
    return record["type"] === "compaction" &&
      record["role"] === undefined &&
      typeof record["encrypted_content"] === "string"
      ? { text: undefined }
      : undefined;
  }
  if (dialect.name !== "anthropic" || record["role"] !== "assistant") return undefined;
  for (const block of records(record["content"])) {
    if (block["type"] !== "compaction") continue;
    const text = block["content"];
    return { text: typeof text === "string" && text.trim() !== "" ? text : undefined };
  }
  return undefined;
}

/** Index of the last message holding a provider compaction at or after `from`, or -1. One pass from the end. */
export function lastProviderCompaction(messages: readonly object[], from: number, dialect: Dialect): number {
  if (dialect.name !== "openai-responses" && dialect.name !== "anthropic") return -1;
  for (let index = messages.length - 1; index >= from; index--) {
    if (providerCompactionOf(messages[index] as object, dialect) !== undefined) return index;
  }
  return -1;
}

/**
 * What a message holding a provider compaction says besides it (an Anthropic reply after a
 * compaction the server made), as a copy without the compaction; undefined when nothing else.
 */
export function withoutProviderCompaction(message: object, dialect: Dialect): MessageRecord | undefined {
  const record = message as MessageRecord;
  if (dialect.name !== "anthropic" || !Array.isArray(record["content"])) return undefined;
  const rest = (record["content"] as unknown[]).filter(
    (block) => (block as MessageRecord | null)?.["type"] !== "compaction",
  );
  return rest.length > 0 ? { ...record, content: rest } : undefined;
}
