import { aiSdk } from "./ai-sdk.js";
import { anthropic } from "./anthropic.js";
import { bedrockConverse } from "./bedrock-converse.js";
import type { Dialect, DialectName, MessageRecord } from "./dialect.js";
import { googleGenai } from "./google-genai.js";
import { langchain } from "./langchain.js";
import { openaiChat } from "./openai-chat.js";
import { openaiResponses } from "./openai-responses.js";

/**
 * Every dialect, most distinctive first: a message goes to the first that claims it. OpenAI chat
 * comes last and also takes what nobody claims: a plain `{ role, content: "…" }` reads the same in
 * every format that has such messages.
 */
export const dialects: readonly Dialect[] = [googleGenai, langchain, openaiResponses, bedrockConverse, anthropic, aiSdk, openaiChat];

// Every stage of a plan asks again about the same messages, so a message that a dialect claims is
// told once and then looked up. A message that shows a format's own marks (a `tool_use` block, a
// `parts` array) keeps that format; a plain one is not remembered, since content added to it later
// may be what tells its format.
const claimed = new WeakMap<object, Dialect>();

/** The dialect that reads this message. */
export function dialectOf(message: object): Dialect {
  const known = claimed.get(message);
  if (known !== undefined) return known;
  const m = message as MessageRecord;
  // The commonest message of all, `{ role, content: "…" }`, reads the same in every format.
  if (typeof m["content"] === "string" && m["type"] === undefined && m["tool_calls"] === undefined && m["role"] !== "tool") return openaiChat;
  for (const dialect of dialects) {
    if (dialect.claims(m)) {
      if (typeof message === "object" && message !== null) claimed.set(message, dialect);
      return dialect;
    }
  }
  return openaiChat;
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
export function transcriptDialect(messages: readonly object[]): Dialect {
  if (!Array.isArray(messages)) return openaiChat;
  for (const message of messages) {
    if (typeof message !== "object" || message === null) continue;
    const m = message as MessageRecord;
    for (const dialect of dialects) if (dialect.claims(m)) return dialect;
  }
  return openaiChat;
}
