// The providers' own compactions, as they sit in a transcript:
// - OpenAI Responses: an input item `{ type: "compaction", encrypted_content }` (SDK `ResponseCompactionItemParam`,
//   openai/resources/responses/responses.d.ts), unreadable outside OpenAI.
// - Anthropic Messages: a content block `{ type: "compaction", content, signature?, encrypted_content? }` (SDK
//   `BetaCompactionBlockParam`, @anthropic-ai/sdk/resources/beta/messages/messages.d.ts), whose `content` is the
//   summary in plain text, or null for a failed compaction the server treats as a no-op.
import { records } from "./content-parts.js";
import type { MessageRecord } from "./dialect.js";

/** A provider compaction in force: its readable text, when the provider gives one. */
export interface ProviderCompaction {
  text: string | undefined;
}

/** The provider compaction this message holds, or undefined. */
export function providerCompactionOf(message: object): ProviderCompaction | undefined {
  const record = message as MessageRecord;
  if (record["type"] === "compaction") return { text: undefined };
  for (const block of records(record["content"])) {
    if (block["type"] !== "compaction") continue;
    const text = block["content"];
    return { text: typeof text === "string" && text.trim() !== "" ? text : undefined };
  }
  return undefined;
}

/** Index of the last message holding a provider compaction at or after `from`, or -1. One pass from the end. */
export function lastProviderCompaction(messages: readonly object[], from: number): number {
  for (let index = messages.length - 1; index >= from; index--) {
    if (providerCompactionOf(messages[index] as object) !== undefined) return index;
  }
  return -1;
}
