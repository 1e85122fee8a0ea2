// Checkers that say whether a provider's API would accept a request, written from the providers' documentation, SDK types and
// reported error texts. Each rule in the per-provider files quotes its source.
import { anthropicViolations } from "./anthropic.js";
import { bedrockConverseViolations } from "./bedrock-converse.js";
import type { ProviderRequest, Violation } from "./common.js";
import { genkitGeminiViolations } from "./genkit-gemini.js";
import { googleGenaiViolations } from "./google-genai.js";
import { openaiChatViolations } from "./openai-chat.js";
import { openaiResponsesViolations } from "./openai-responses.js";

export type { ProviderRequest, Violation } from "./common.js";
export {
  anthropicViolations,
  bedrockConverseViolations,
  genkitGeminiViolations,
  googleGenaiViolations,
  openaiChatViolations,
  openaiResponsesViolations,
};
export { genkitToGemini } from "./genkit-gemini.js";

export type ProviderFormat =
  | "anthropic"
  | "openai-chat"
  | "openai-responses"
  | "google-genai"
  | "bedrock-converse"
  | "genkit-gemini";

export const PROVIDER_FORMATS: readonly ProviderFormat[] = [
  "anthropic",
  "openai-chat",
  "openai-responses",
  "google-genai",
  "bedrock-converse",
  "genkit-gemini",
];

const CHECKERS: Record<ProviderFormat, (request: ProviderRequest) => Violation[]> = {
  anthropic: anthropicViolations,
  "openai-chat": openaiChatViolations,
  "openai-responses": openaiResponsesViolations,
  "google-genai": googleGenaiViolations,
  "bedrock-converse": bedrockConverseViolations,
  "genkit-gemini": genkitGeminiViolations,
};

/**
 * The reasons the provider would refuse the request; empty when it would accept it.
 * `messages` is Anthropic/Bedrock/Chat `messages`, Responses `input`, Gemini `contents`, Genkit `MessageData[]`;
 * `system` is Anthropic/Bedrock `system` or Gemini `systemInstruction`.
 */
export function providerViolations(format: ProviderFormat, request: ProviderRequest): Violation[] {
  return CHECKERS[format](request);
}

/** Throws an Error listing every violation when the provider would refuse the request. */
export function assertProviderAccepts(format: ProviderFormat, request: ProviderRequest): void {
  const violations = providerViolations(format, request);
  if (violations.length === 0) return;
  const lines = violations.map((v) => `  - [${v.rule}]${v.index !== undefined ? ` at ${v.index}` : ""}: ${v.detail}`);
  throw new Error(`${format} would refuse this request:\n${lines.join("\n")}`);
}
