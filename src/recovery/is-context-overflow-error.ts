// What each provider says when a request does not fit the model's window, as their APIs word it:
//   OpenAI (chat and Responses): code `context_length_exceeded`, "This model's maximum context length is …"
//   Anthropic: 400 invalid_request_error "prompt is too long: 208310 tokens > 200000 maximum"; 413 `request_too_large`
//   Google Gen AI: 400 INVALID_ARGUMENT "The input token count (…) exceeds the maximum number of tokens allowed (…)"
//   Bedrock Converse: ValidationException "Input is too long for requested model." (or the model's own words)
const overflowWording =
  /context[_ ]length[_ ]exceeded|maximum context length|prompt is too long|input token count \(?\d*\)? ?exceeds the maximum|exceeds the maximum number of tokens|input is too long|too many input tokens|exceed(?:s|ed)? (?:the )?context (?:limit|window)|input length and [`']?max_tokens[`']? exceed/i;
// Rate limits speak of tokens too ("Request too large … on tokens per min"): never an overflow.
const rateLimitWording = /rate[_ ]limit|tokens per min|requests per min|quota/i;

type Loose = Record<string, unknown>;

function field(value: unknown, key: string): unknown {
  if (typeof value !== "object" || value === null) return undefined;
  try {
    return (value as Loose)[key];
  } catch {
    return undefined;
  }
}

/** The error and everything it wraps: causes, a retry's errors, an SDK's parsed body. */
function* layers(error: unknown): Generator<unknown> {
  const seen = new Set<unknown>();
  const queue = [error];
  while (queue.length > 0 && seen.size < 32) {
    const value = queue.shift();
    if (value === undefined || value === null || seen.has(value)) continue;
    seen.add(value);
    yield value;
    if (typeof value === "string") {
      try {
        queue.push(JSON.parse(value));
      } catch {
        // a plain message, already yielded
      }
      continue;
    }
    for (const key of ["cause", "lastError", "error", "data", "responseBody", "body"]) queue.push(field(value, key));
    const errors = field(value, "errors");
    if (Array.isArray(errors)) queue.push(...errors.slice(0, 8));
  }
}

const statusOf = (value: unknown): unknown => field(value, "status") ?? field(value, "statusCode") ?? field(field(value, "$metadata"), "httpStatusCode");

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
  for (const layer of layers(error)) {
    if (statusOf(layer) === 429) return false;
    const texts = [layer, field(layer, "message"), field(layer, "code"), field(layer, "type"), field(layer, "name")].filter(
      (value): value is string => typeof value === "string",
    );
    if (texts.some((text) => rateLimitWording.test(text))) return false;
    if (texts.some((text) => overflowWording.test(text))) return true;
    if (statusOf(layer) === 413 && texts.some((text) => /request_too_large|too large/i.test(text))) return true;
  }
  return false;
}
