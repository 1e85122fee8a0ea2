// An Anthropic `Message` as the SDK returns it, for the tests that pass a provider's response to
// the hook: `extra` sets the fields a test is about (`stop_reason`, `input_transformations`, `usage`).
import type Anthropic from "@anthropic-ai/sdk";

export const anthropicUsage = {
  input_tokens: 12,
  output_tokens: 40,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation: null,
  server_tool_use: null,
  service_tier: null,
  inference_geo: null,
} as unknown as Anthropic.Usage;

export function anthropicReply(extra: Partial<Anthropic.Beta.BetaMessage>): Anthropic.Beta.BetaMessage {
  return {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "claude-opus-4-7",
    content: [{ type: "text", text: "Done.", citations: null }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: anthropicUsage as unknown as Anthropic.Beta.BetaUsage,
    container: null,
    context_management: null,
    ...extra,
  } as Anthropic.Beta.BetaMessage;
}
