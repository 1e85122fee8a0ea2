// Mastra's provider-level prompt (`LanguageModelV2Prompt`, the AI SDK format) as its
// `processLLMRequest` hands it over: every text, tool-call and tool-result part of a message loaded
// from its message list carries `providerOptions: { mastra: { createdAt } }`, stamped anew on each
// `generate()` (`mergeMastraCreatedAt` in @mastra/core 1.71's message list), and the parts of the
// step just taken carry none until the next call. No provider reads the `mastra` namespace: Mastra's
// own response cache strips `providerOptions.mastra` before hashing a prompt
// (`stripMastraInternalMetadata` in @mastra/core's response-cache processor) for the same reason.
import { asRecord, someRecord } from "./content-parts.js";
import type { MessageRecord } from "./dialect.js";

const stamped = (entry: MessageRecord): boolean => asRecord(entry["providerOptions"])?.["mastra"] !== undefined;

/** The entry without the `mastra` namespace of its `providerOptions` (and without `providerOptions` once empty). */
function unstamped(entry: MessageRecord): MessageRecord {
  if (!stamped(entry)) return entry;
  const { mastra: _mastra, ...others } = entry["providerOptions"] as MessageRecord;
  const { providerOptions: _options, ...rest } = entry;
  return Object.keys(others).length === 0 ? rest : { ...rest, providerOptions: others };
}

/**
 * For a message of a Mastra prompt, what the provider receives of it: a copy without Mastra's
 * bookkeeping (`providerOptions.mastra`, on the message or any of its content parts); undefined
 * for a message that carries none, which is every message not handed over by Mastra.
 */
export function mastraPayload(message: object): object | undefined {
  const m = message as MessageRecord;
  const content = m["content"];
  if (!stamped(m) && !someRecord(content, stamped)) return undefined;
  const copy = unstamped(m);
  return Array.isArray(content)
    ? {
        ...copy,
        content: content.map((part: unknown) =>
          typeof part === "object" && part !== null ? unstamped(part as MessageRecord) : part,
        ),
      }
    : copy;
}
