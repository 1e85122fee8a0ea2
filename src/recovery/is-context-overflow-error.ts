// What each provider says when a request does not fit the model's window, as their APIs word it:
//   OpenAI (chat and Responses): code `context_length_exceeded`, "This model's maximum context length is …"
//   Anthropic: 400 invalid_request_error "prompt is too long: 208310 tokens > 200000 maximum"; 413 `request_too_large`
//   Google Gen AI: 400 INVALID_ARGUMENT "The input token count (…) exceeds the maximum number of tokens allowed (…)"
//   Bedrock Converse: ValidationException "Input is too long for requested model." (or the model's own words)
const overflowWording =
  /context[_ ]length[_ ]exceeded|maximum context length|prompt is too long|input token count \(?\d*\)? ?exceeds the maximum|exceeds the maximum number of tokens|input is too long|too many input tokens|exceed(?:s|ed)? (?:the )?context (?:limit|window)|input length and [`']?max_tokens[`']? exceed/i;
// The codes providers give an overflow, and those of rate limits (which speak of tokens too:
// "Request too large … on tokens per min"), read before any wording.
const overflowCodes = new Set(["context_length_exceeded", "model_context_window_exceeded", "string_above_max_length"]);
const rateLimitCodes = new Set([
  "rate_limit_exceeded",
  "rate_limit_error",
  "insufficient_quota",
  "RESOURCE_EXHAUSTED",
  "ThrottlingException",
  "TooManyRequestsException",
]);

type Loose = Record<string, unknown>;

function field(value: unknown, key: string): unknown {
  if (typeof value !== "object" || value === null) return undefined;
  try {
    return (value as Loose)[key];
  } catch {
    return undefined;
  }
}

const statusOf = (value: unknown): unknown =>
  field(value, "status") ?? field(value, "statusCode") ?? field(field(value, "$metadata"), "httpStatusCode");

/** True for an error a provider's API answered with: it carries an HTTP error status. */
function isProviderError(value: unknown): boolean {
  const status = statusOf(value);
  return typeof status === "number" && status >= 400 && status < 600;
}

/**
 * The error and everything it wraps (causes, a retry's errors, an SDK's parsed body), each with
 * whether it is, or lies inside, a provider's error response: only there does wording count.
 */
function* layers(error: unknown): Generator<{ value: unknown; fromProvider: boolean }> {
  const seen = new Set<unknown>();
  const queue: { value: unknown; fromProvider: boolean }[] = [{ value: error, fromProvider: false }];
  while (queue.length > 0 && seen.size < 32) {
    const { value, fromProvider: inherited } = queue.shift() as { value: unknown; fromProvider: boolean };
    if (value === undefined || value === null || seen.has(value)) continue;
    seen.add(value);
    const fromProvider = inherited || isProviderError(value);
    yield { value, fromProvider };
    if (typeof value === "string") {
      // A body kept as text (the AI SDK's `responseBody`) is read as the JSON it holds; a bound on
      // its length keeps a huge message from being parsed for nothing.
      if (fromProvider && value.length < 1_000_000) {
        try {
          queue.push({ value: JSON.parse(value), fromProvider });
        } catch {
          // a plain message, already yielded
        }
      }
      continue;
    }
    for (const key of ["cause", "lastError", "error", "data", "responseBody", "body"]) {
      // A cause is an error of its own; what a provider error holds (its body) is the provider's.
      queue.push({ value: field(value, key), fromProvider: fromProvider && key !== "cause" && key !== "lastError" });
    }
    const errors = field(value, "errors");
    if (Array.isArray(errors))
      for (const inner of errors.slice(0, 8)) queue.push({ value: inner, fromProvider: false });
  }
}

/**
 * Tells whether an error says the request did not fit the model's context window: OpenAI's
 * `context_length_exceeded`, Anthropic's "prompt is too long" (and its 413 `request_too_large`),
 * Google Gen AI's "input token count … exceeds the maximum", Bedrock Converse's
 * `ValidationException` for input too long, and the AI SDK and Agents SDK errors that wrap them
 * (their `cause`, `lastError`, `responseBody`). Rate limits, authentication errors and other bad
 * requests are not. Never throws.
 *
 * @param error - anything caught
 * @returns true for a context overflow
 * @example
 * ```ts
 * try {
 *   response = await client.chat.completions.create({ model, messages });
 * } catch (error) {
 *   if (!isContextOverflowError(error)) throw error;
 *   messages = (await compact(messages, { ...options, force: true, maxTokens: smaller }))?.messages ?? messages;
 *   response = await client.chat.completions.create({ model, messages });
 * }
 * ```
 */
export function isContextOverflowError(error: unknown): boolean {
  for (const { value, fromProvider } of layers(error)) {
    const status = statusOf(value);
    if (status === 429) return false;
    const codes = [field(value, "code"), field(value, "type"), field(value, "name"), field(value, "status")].filter(
      (code): code is string => typeof code === "string",
    );
    if (codes.some((code) => rateLimitCodes.has(code))) return false;
    if (codes.some((code) => overflowCodes.has(code))) return true;
    if (!fromProvider) continue;
    const texts =
      typeof value === "string"
        ? [value]
        : [field(value, "message")].filter((text): text is string => typeof text === "string");
    if (
      status === 413 &&
      codes.concat(texts).some((text) => /request_too_large|too large/i.test(text.slice(0, 10_000)))
    )
      return true;
    if (texts.some((text) => overflowWording.test(text.slice(0, 10_000)))) return true;
  }
  return false;
}
