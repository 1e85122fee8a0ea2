// What a message says, read by its own format's `describe` alone. What only reads messages (the
// model-free summary) imports this, not the dialects: a dialect is one object, and a bundler keeps
// all of an object it keeps, so reading a message through it carries every format's tool pairs,
// cuts, replacements and signatures (2.3 KB gzipped of the summary's import). The functions are the
// dialects' own (a test holds the two lists together), as `format-claims.ts` keeps the formats'
// claims apart for the estimate.
import { describeAiSdk } from "./ai-sdk.js";
import { describeAnthropic } from "./anthropic.js";
import { describeBedrockConverse } from "./bedrock-converse.js";
import { leadingContentText } from "./content-parts.js";
import type { MessageRecord, MessageView } from "./dialect.js";
import { claimIndexOf } from "./format-claims.js";
import { describeGenkit } from "./genkit.js";
import { describeGoogleGenai } from "./google-genai.js";
import { describeLangchain } from "./langchain.js";
import { describeOpenaiChat } from "./openai-chat.js";
import { describeOpenaiResponses } from "./openai-responses.js";
import { describePiAgent } from "./pi-agent.js";

/**
 * Each format's `describe`, in the order of the claims (that of `dialects`); OpenAI chat last, which
 * also reads what no format claims.
 */
export const describers: readonly ((message: MessageRecord) => MessageView)[] = [
  describeGoogleGenai,
  describeLangchain,
  describeOpenaiResponses,
  describeGenkit,
  describeBedrockConverse,
  describePiAgent,
  describeAnthropic,
  describeAiSdk,
  describeOpenaiChat,
];

/** What a message says, in dialect-free terms, as its dialect's `describe` reads it. */
export function describeMessage(message: object): MessageView {
  const claim = claimIndexOf(message);
  const describe = describers[claim < 0 ? describers.length - 1 : claim] as (message: MessageRecord) => MessageView;
  return describe(message as MessageRecord);
}

/**
 * The text a message leads with, as every dialect reads it (`leadingContentText` of its content, or
 * of a Gemini content's parts): enough to know a summary this library wrote, whatever the format.
 */
export function messageLeadingText(message: object): string | undefined {
  const m = message as MessageRecord;
  return leadingContentText(m["content"] ?? m["parts"]);
}
