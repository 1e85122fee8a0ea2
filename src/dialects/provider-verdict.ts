// What a provider's response says it did with the request: the shapes of the SDKs' response types,
// read here and nowhere else.
// - Anthropic `Message` (@anthropic-ai/sdk resources/messages, resources/beta/messages):
//   `stop_reason: "model_context_window_exceeded"` ("we exceeded the model's context window");
//   `input_transformations` (beta): `{ type: "thinking_dropped" | "thinking_mismatch_allowed",
//   path: "messages.{i}.content.{j}", reason }`, "ignore types you do not recognize";
//   `diagnostics.cache_miss_reason`: `{ type: "messages_changed" | "model_changed" |
//   "system_changed" | "tools_changed" | …, cache_missed_input_tokens? }`, null while pending;
//   `usage`: "Total input tokens in a request is the summation of `input_tokens`,
//   `cache_creation_input_tokens`, and `cache_read_input_tokens`."
// - OpenAI `Response` (openai resources/responses): `input_transformations`: "Reasoning inputs
//   withheld from the model, in input order", `{ type: "reasoning", action: "removed", id, reason }`;
//   `usage.input_tokens` (cached tokens included, `input_tokens_details.cached_tokens`).
// - OpenAI `ChatCompletion`: `usage.prompt_tokens`.

import type { ProviderVerdict } from "../ground/types.js";

const fieldOf = (value: unknown, key: string): unknown => (typeof value === "object" && value !== null && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined);
const stringOf = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const countOf = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined);

/** `messages.{i}.content.{j}` as the index of the message, or undefined for any other path. */
function messageIndexOf(path: string): number | undefined {
  const match = /^messages\.(\d{1,9})\.content\.\d{1,9}$/.exec(path);
  return match === null ? undefined : Number(match[1]);
}

/**
 * Every verdict of a response, in the provider's order, each mapped to the message of `sent` (the
 * request the response answers, as the hook last returned it) it concerns. Unknown entries are
 * passed over, as the SDKs ask.
 */
export function verdictsOf(response: unknown, sent: readonly object[] | undefined): ProviderVerdict[] {
  const verdicts: ProviderVerdict[] = [];
  if (fieldOf(response, "stop_reason") === "model_context_window_exceeded") verdicts.push({ kind: "context-window-exceeded" });
  const transformations = fieldOf(response, "input_transformations");
  if (Array.isArray(transformations)) {
    for (const entry of transformations) {
      const type = fieldOf(entry, "type");
      const reason = stringOf(fieldOf(entry, "reason")) ?? "unknown";
      if (type === "thinking_dropped" || type === "thinking_mismatch_allowed") {
        const path = stringOf(fieldOf(entry, "path")) ?? "";
        const index = messageIndexOf(path);
        const message = index === undefined ? undefined : sent?.[index];
        verdicts.push({ kind: type === "thinking_dropped" ? "thinking-dropped" : "thinking-mismatch-allowed", reason, path, ...(message === undefined ? {} : { message }) });
      } else if (type === "reasoning" && fieldOf(entry, "action") === "removed") {
        const id = stringOf(fieldOf(entry, "id")) ?? "";
        const message = id === "" ? undefined : sent?.find((item) => fieldOf(item, "id") === id);
        verdicts.push({ kind: "reasoning-removed", reason, id, ...(message === undefined ? {} : { message }) });
      }
    }
  }
  const miss = fieldOf(fieldOf(response, "diagnostics"), "cache_miss_reason");
  const missType = stringOf(fieldOf(miss, "type"));
  if (missType !== undefined) {
    const missedTokens = countOf(fieldOf(miss, "cache_missed_input_tokens"));
    verdicts.push({ kind: "cache-miss", reason: missType, ...(missedTokens === undefined ? {} : { missedTokens }) });
  }
  return verdicts;
}

/** The response's `usage` object, as the SDK returned it, when it has one. */
export function usageOf(response: unknown): Record<string, unknown> | undefined {
  const usage = fieldOf(response, "usage");
  return typeof usage === "object" && usage !== null && !Array.isArray(usage) ? (usage as Record<string, unknown>) : undefined;
}
