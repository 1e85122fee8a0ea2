import { aiSdk } from "./ai-sdk.js";
import { anthropic } from "./anthropic.js";
import { bedrockConverse } from "./bedrock-converse.js";
import type { Dialect, DialectName, MessageRecord } from "./dialect.js";
import { genkit } from "./genkit.js";
import { googleGenai } from "./google-genai.js";
import { langchain } from "./langchain.js";
import { openaiChat } from "./openai-chat.js";
import { openaiResponses } from "./openai-responses.js";
import { piAgent } from "./pi-agent.js";
import { claimIndexOf, type MessageFormats } from "./format-claims.js";

/**
 * Every dialect, most distinctive first (the order of `formatOrder`): a message goes to the first
 * that claims it. OpenAI chat comes last and also takes what nobody claims: a plain
 * `{ role, content: "…" }` reads the same in every format that has such messages.
 */
export const dialects: readonly Dialect[] = [
  googleGenai,
  langchain,
  openaiResponses,
  genkit,
  bedrockConverse,
  piAgent,
  anthropic,
  aiSdk,
  openaiChat,
];

/** The dialect that reads this message. */
export function dialectOf(message: object): Dialect {
  return dialectAt(claimIndexOf(message));
}

/** The dialect of a claim index (see `claimIndexOf`): below 0, what no format claims, reads as OpenAI chat. */
export function dialectAt(claim: number): Dialect {
  return claim < 0 ? openaiChat : dialects[claim]!;
}

/** The dialect of a message of a call whose formats are already read (`formats`), else looked up. */
export function dialectIn(message: object, formats: MessageFormats | undefined): Dialect {
  return dialectAt(formats === undefined ? claimIndexOf(message) : formats.of(message));
}

/**
 * Tells which message format a transcript is in, from the first message that only one format
 * could hold. A transcript of plain text messages reads as `"openai-chat"`.
 *
 * @param messages - the transcript
 * @returns the dialect's name
 * @example
 * ```ts
 * detectDialect([{ role: "model", parts: [{ text: "Hi" }] }]); // "google-genai"
 * ```
 */
export function detectDialect(messages: readonly object[]): DialectName {
  return transcriptDialect(messages).name;
}

/** The dialect of a whole transcript (see `detectDialect`). */
export function transcriptDialect(messages: readonly object[], formats?: MessageFormats): Dialect {
  if (!Array.isArray(messages)) return openaiChat;
  // A message of typeless text blocks alone (`{ role: "user", content: [{ text }] }`) is Bedrock's
  // and Genkit's alike: it names the format only when no later message tells the two apart.
  let textBlocksOnly: Dialect | undefined;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index];
    if (typeof message !== "object" || message === null) continue;
    const m = message as MessageRecord;
    // The first format that claims it, in the order of `dialects` (that of `formatOrder`).
    const claim = formats === undefined ? claimIndexOf(m) : formats.at(index);
    if (claim < 0) continue;
    const dialect = dialects[claim] as Dialect;
    if (dialect !== bedrockConverse || !holdsTextBlocksOnly(m)) return dialect;
    textBlocksOnly ??= dialect;
  }
  return textBlocksOnly ?? openaiChat;
}

/** True for a message of typeless text blocks alone, which reads the same in Bedrock and Genkit. */
export function holdsTextBlocksOnly(m: MessageRecord): boolean {
  const content = m["content"];
  return (
    Array.isArray(content) &&
    content.every(
      (block) =>
        typeof block === "object" &&
        block !== null &&
        Object.keys(block).length === 1 &&
        typeof (block as MessageRecord)["text"] === "string",
    )
  );
}
