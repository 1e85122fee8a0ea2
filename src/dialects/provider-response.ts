// The two things every caller of the plain hook may need from a provider's response, read without
// the verdicts' mapping (provider-verdict.ts, which the stateful layer and the adapters carry):
// - Anthropic `Message.stop_reason: "model_context_window_exceeded"` ("we exceeded the model's
//   context window"): the next call compacts.
// - The SDK's usage object: `usage` (Anthropic `Message`, OpenAI `Response` and `ChatCompletion`,
//   Bedrock `ConverseResponse`), `usageMetadata` (Gemini `GenerateContentResponse`).

/** A response field, own properties only (a prototype's `usage` is no report). */
export const fieldOf = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null && Object.hasOwn(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;

/** True when the provider stopped the request at its context window. */
export function stoppedAtWindow(response: unknown): boolean {
  return fieldOf(response, "stop_reason") === "model_context_window_exceeded";
}

/** The response's `usage` object (Gemini's `usageMetadata`), as the SDK returned it, when it has one. */
export function usageOf(response: unknown): Record<string, unknown> | undefined {
  const usage = fieldOf(response, "usage") ?? fieldOf(response, "usageMetadata");
  return typeof usage === "object" && usage !== null && !Array.isArray(usage)
    ? (usage as Record<string, unknown>)
    : undefined;
}
