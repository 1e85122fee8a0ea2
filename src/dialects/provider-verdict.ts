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
// - Bedrock `ConverseResponse`: `usage` (`TokenUsage`); Gemini `GenerateContentResponse`: `usageMetadata`.
// - A refused native item, when the SDK threw instead of answering (the error is passed as the
//   response):
//   OpenAI: 400 `{ error: { message, type: "invalid_request_error", param: null, code:
//   "invalid_encrypted_content" } }`, the SDK's `APIError` with `status: 400` and `code`
//   (openai core/error.d.ts); the message names a reasoning item's id ("The encrypted content for
//   item rs_… could not be verified") or an abbreviation of the content ("The encrypted content
//   gAAA...DQ== could not be verified."), as github.com/openai/codex/issues/8145 and 8119 show.
//   Anthropic: 400 `{ type: "error", error: { type: "invalid_request_error", message, details: {
//   error_code } } }`, the SDK's `APIError` with `errorCode` (@anthropic-ai/sdk core/error.d.ts),
//   for a `compaction` block: `compaction_signature_invalid` ("The `compaction` block's
//   `signature` does not verify"), `compaction_content_mismatch` ("The `compaction` block's
//   `content` differs from the text its `signature` recorded"), `compaction_tool_changes_mismatch`
//   (@anthropic-ai/sdk resources/messages/messages.d.ts, `Compaction…ErrorDetails`).

import type { ProviderVerdict } from "../ground/types.js";
import { fieldOf, stoppedAtWindow } from "./provider-response.js";

const stringOf = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const countOf = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;

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
  if (stoppedAtWindow(response)) verdicts.push({ kind: "context-window-exceeded" });
  const transformations = fieldOf(response, "input_transformations");
  // Each list of `sent` is read once, however many entries name its items: a map of ids, and the
  // conversation without its system messages, made on the first entry that needs them.
  let byId: Map<unknown, object> | undefined;
  const itemOf = (id: string): object | undefined => {
    if (byId === undefined) {
      byId = new Map();
      for (const item of sent ?? []) {
        const key = fieldOf(item, "id");
        if (key !== undefined && !byId.has(key)) byId.set(key, item);
      }
    }
    return byId.get(id);
  };
  let conversation: readonly object[] | undefined | null = null;
  if (Array.isArray(transformations)) {
    for (const entry of transformations) {
      const type = fieldOf(entry, "type");
      const reason = stringOf(fieldOf(entry, "reason")) ?? "unknown";
      if (type === "thinking_dropped" || type === "thinking_mismatch_allowed") {
        const path = stringOf(fieldOf(entry, "path")) ?? "";
        const index = messageIndexOf(path);
        // The path counts the request's `messages`, which hold no system message: one kept in the
        // transcript (an Anthropic one, an AI SDK one) is sent apart as `system`.
        if (index !== undefined && conversation === null) conversation = conversationOf(sent);
        const message = index === undefined ? undefined : conversation?.[index];
        verdicts.push({
          kind: type === "thinking_dropped" ? "thinking-dropped" : "thinking-mismatch-allowed",
          reason,
          path,
          ...(message === undefined ? {} : { message }),
        });
      } else if (type === "reasoning" && fieldOf(entry, "action") === "removed") {
        const id = stringOf(fieldOf(entry, "id")) ?? "";
        const message = id === "" ? undefined : itemOf(id);
        verdicts.push({ kind: "reasoning-removed", reason, id, ...(message === undefined ? {} : { message }) });
      }
    }
  }
  const refusal = refusalOf(response, sent);
  if (refusal !== undefined) verdicts.push(refusal);
  const miss = fieldOf(fieldOf(response, "diagnostics"), "cache_miss_reason");
  const missType = stringOf(fieldOf(miss, "type"));
  if (missType !== undefined) {
    const missedTokens = countOf(fieldOf(miss, "cache_missed_input_tokens"));
    verdicts.push({ kind: "cache-miss", reason: missType, ...(missedTokens === undefined ? {} : { missedTokens }) });
  }
  return verdicts;
}

/** The messages of a request as the provider numbers them: without the system messages sent apart. */
function conversationOf(sent: readonly object[] | undefined): readonly object[] | undefined {
  return sent?.some((message) => fieldOf(message, "role") === "system") === true
    ? sent.filter((message) => fieldOf(message, "role") !== "system")
    : sent;
}

/** Anthropic's codes for a `compaction` block it will not take as sent. */
const refusedBlockCodes = new Set([
  "compaction_signature_invalid",
  "compaction_content_mismatch",
  "compaction_tool_changes_mismatch",
]);

/** The item a refusal's message names: `for item rs_… could not`; bounded, and no backtracking. */
const namedItem = /for item ([\w-]{1,200}) could not/;

const statusOf = (value: unknown): unknown => fieldOf(value, "status") ?? fieldOf(value, "statusCode");

/**
 * The layers of a thrown SDK error: the value itself (OpenAI's `APIError` carries `code`,
 * Anthropic's `errorCode`), its parsed body (`error`, or an AI SDK `APICallError`'s `responseBody`
 * text), then what it wraps (`cause`, a retry's `lastError`); a few layers, never a loop.
 */
function* errorLayers(response: unknown): Generator<unknown> {
  let value: unknown = response;
  for (let depth = 0; depth < 4 && typeof value === "object" && value !== null; depth++) {
    yield value;
    const body = fieldOf(value, "responseBody");
    if (typeof body === "string" && body.length < 1_000_000) {
      try {
        const parsed = JSON.parse(body) as unknown;
        yield parsed;
        yield fieldOf(parsed, "error");
      } catch {
        // not JSON: nothing to read
      }
    }
    const error = fieldOf(value, "error");
    if (typeof error === "object" && error !== null) {
      yield error;
      yield fieldOf(error, "error");
    }
    value = fieldOf(value, "cause") ?? fieldOf(value, "lastError");
  }
}

/**
 * A provider's refusal of a native item the request carried: OpenAI's `invalid_encrypted_content`
 * (an encrypted compaction or reasoning item it cannot verify, after a key rotation or a move to
 * another organization), Anthropic's refused `compaction` block; only on a 400, a bad request.
 * Mapped to the item of `sent` it names (by id), else to the request's provider compaction.
 */
function refusalOf(response: unknown, sent: readonly object[] | undefined): ProviderVerdict | undefined {
  if (typeof response !== "object" || response === null) return undefined;
  let badRequest = false;
  let found: ProviderVerdict | undefined;
  for (const layer of errorLayers(response)) {
    if (statusOf(layer) === 400) badRequest = true;
    if (found !== undefined) continue;
    const code = stringOf(fieldOf(layer, "code"));
    const errorCode =
      stringOf(fieldOf(layer, "errorCode")) ?? stringOf(fieldOf(fieldOf(layer, "details"), "error_code"));
    if (code === "invalid_encrypted_content") {
      const id = namedItem.exec(String(fieldOf(layer, "message") ?? "").slice(0, 10_000))?.[1];
      const message =
        id === undefined ? sent?.find(isCompactionItem) : sent?.find((item) => fieldOf(item, "id") === id);
      found = {
        kind: "native-item-refused",
        provider: "openai",
        code,
        ...(id === undefined ? {} : { id }),
        ...(message === undefined ? {} : { message }),
      };
    } else if (errorCode !== undefined && refusedBlockCodes.has(errorCode)) {
      const message = sent?.find(holdsCompactionBlock);
      found = {
        kind: "native-item-refused",
        provider: "anthropic",
        code: errorCode,
        ...(message === undefined ? {} : { message }),
      };
    }
  }
  return badRequest ? found : undefined;
}

const isCompactionItem = (item: object): boolean =>
  fieldOf(item, "type") === "compaction" && fieldOf(item, "role") === undefined;
const holdsCompactionBlock = (message: object): boolean => {
  const content = fieldOf(message, "content");
  return Array.isArray(content) && content.some((block) => fieldOf(block, "type") === "compaction");
};

/**
 * Whether a refusal concerns a provider compaction: it names none of the request's other items (a
 * reasoning item of its own id), so the compaction's readable shadow is what takes its place.
 */
export function refusesCompaction(verdict: ProviderVerdict): boolean {
  if (verdict.kind !== "native-item-refused") return false;
  return verdict.message === undefined || isCompactionItem(verdict.message) || holdsCompactionBlock(verdict.message);
}
