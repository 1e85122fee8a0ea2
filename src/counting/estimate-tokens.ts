import { expectedMessage } from "../ground/describe-value.js";
import { providerPayload } from "../dialects/provider-payload.js";
import type { MessageRecord } from "../dialects/dialect.js";
import { mediaEstimate } from "./media-tokens.js";
import { utf8ByteLength } from "./utf8-length.js";

/**
 * Estimated tokens of one message: `ceil(utf8Bytes(JSON.stringify(message)) / 4)`, except that
 * the data of images and files is counted as providers bill it (see `media-tokens.ts`).
 * @internal
 */
export function estimateMessageTokens(message: unknown, index: number): number {
  let json: string | undefined;
  try {
    // A LangChain instance or a pi message counts as what the provider receives of it.
    const payload = typeof message === "object" && message !== null ? providerPayload(message) : undefined;
    json = JSON.stringify(payload ?? message);
  } catch (error) {
    throw new TypeError(
      `Expected \`messages[${index}]\` to be serializable to JSON: ${(error as Error)?.message ?? String(error)}`,
      { cause: error },
    );
  }
  if (json === undefined) {
    throw new TypeError(expectedMessage(`messages[${index}]`, "serializable to JSON", message));
  }
  const media = mediaEstimate(message);
  if (media === undefined) return Math.ceil(utf8ByteLength(json) / 4);
  return Math.ceil(Math.max(0, utf8ByteLength(json) - media.dataLength) / 4) + media.tokens;
}

/**
 * `estimateMessageTokens` of a message whose call has already read it as holding no list of parts:
 * plain text (`PLAIN_TEXT`), or an OpenAI chat message whose content is text or null. That reading
 * showed no pi message and no typed message (a LangChain instance has a `type`), and the caller
 * has asked `isPlainJsonMessage` for what is left of the estimate's own checks (a Mastra stamp, a
 * Responses `output` list, LangChain's wrapper on a message without a `type`). The count is the
 * same; a call under budget reads each message once rather than twice.
 * @internal
 */
export function estimateListlessMessageTokens(message: MessageRecord, index: number): number {
  let json: string;
  try {
    json = JSON.stringify(message);
  } catch {
    // Said as the full estimate says it: the error names the message.
    return estimateMessageTokens(message, index);
  }
  return Math.ceil(utf8ByteLength(json) / 4);
}

/**
 * Estimates the tokens of a transcript: for each message, the UTF-8 bytes of its JSON
 * serialization divided by 4 and rounded up, then summed. Images and files are counted as
 * providers bill them (1,600 tokens an image, 85 in OpenAI's low detail; 1,600 a file per 75 KB
 * of data), not as bytes / 4 of their base64; a text document counts as its text. A LangChain
 * message instance, or a pi message, counts as what the provider receives of it: not LangChain's
 * serialization wrapper, nor the bookkeeping pi keeps beside a message for itself (usage, cost,
 * timestamps). An estimator, not a tokenizer: pass a real one as `countTokens` for exact counts.
 *
 * @param messages - the transcript
 * @returns the estimate; `0` for an empty array
 * @throws TypeError when `messages` is not an array, or an entry cannot be serialized (the index is named)
 * @example
 * ```ts
 * estimateTokens([{ role: "user", content: "hi" }]); // 8 (the JSON is 29 bytes)
 * ```
 */
export function estimateTokens(messages: readonly unknown[]): number {
  if (!Array.isArray(messages)) {
    throw new TypeError(expectedMessage("messages", "an array", messages));
  }
  let total = 0;
  for (let index = 0; index < messages.length; index++) {
    total += estimateMessageTokens(messages[index], index);
  }
  return total;
}
