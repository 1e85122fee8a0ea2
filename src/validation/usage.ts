import type { ReportedUsage } from "../ground/types.js";
import { expectedMessage } from "../ground/describe-value.js";
import { isPlainObject } from "../ground/plain-object.js";

/**
 * A reported usage as the plan reads it: the request's whole input, and where it was read from.
 * `unusable` says why a report cannot be counted by (the plan then counts by the estimate, and the
 * hook says so once); its `inputTokens` is then 0 and means nothing.
 */
export interface CheckedUsage extends ReportedUsage {
  /** The fields the input was read from, e.g. `input_tokens + cache_creation_input_tokens + cache_read_input_tokens`. */
  readonly read: string;
  readonly unusable?: string;
}

/** A count a provider may report: a finite number from 0; `null` (the Anthropic SDK's "not reported") is 0. */
const isCount = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value) && value >= 0;

type Fields = Record<string, unknown>;

/** One provider's usage shape: how to tell it, and how its whole input is read from it. */
interface UsageShape {
  readonly matches: (fields: Fields) => boolean;
  /** The fields summed into the input (each missing or `null` one counts 0; the first is required). */
  readonly summed: readonly string[];
  readonly path?: string;
}

// Each shape as the SDK types it. Checked in this order: the first that matches reads the report.
const SHAPES: readonly UsageShape[] = [
  // @anthropic-ai/sdk `Usage`: `input_tokens` is only what was neither read from nor written to the
  // prompt cache ("The number of input tokens which were used"), beside
  // `cache_creation_input_tokens` ("used to create the cache entry") and `cache_read_input_tokens`
  // ("read from the cache"), both `number | null`. The request's input is the three together: on a
  // cached Claude Code session `input_tokens` is 8–10 tokens a call, the rest is in the cache fields.
  {
    matches: (fields) =>
      "input_tokens" in fields && ("cache_creation_input_tokens" in fields || "cache_read_input_tokens" in fields),
    summed: ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"],
  },
  // @aws-sdk/client-bedrock-runtime `TokenUsage` (Converse): `inputTokens`, "The number of tokens
  // sent in the request to the model", beside `cacheReadInputTokens` ("read from the cache for the
  // request") and `cacheWriteInputTokens` ("written to the cache for the request"), which it does
  // not hold (a cached request reports 26,000 input tokens of 64,000): the three together.
  {
    matches: (fields) =>
      "inputTokens" in fields && ("cacheReadInputTokens" in fields || "cacheWriteInputTokens" in fields),
    summed: ["inputTokens", "cacheReadInputTokens", "cacheWriteInputTokens"],
  },
  // @google/genai `GenerateContentResponseUsageMetadata`: `promptTokenCount`, "The total number of
  // tokens in the prompt … When `cached_content` is set, this also includes the number of tokens in
  // the cached content": `cachedContentTokenCount` is inside it.
  { matches: (fields) => "promptTokenCount" in fields, summed: ["promptTokenCount"] },
  // openai `ResponseUsage` (Responses API): `input_tokens`, "The number of input tokens", of which
  // `input_tokens_details.cached_tokens` were "retrieved from the cache": the cached part is inside it.
  { matches: (fields) => "input_tokens" in fields, summed: ["input_tokens"] },
  // openai `CompletionUsage` (Chat Completions): `prompt_tokens`, "Number of tokens in the prompt";
  // `prompt_tokens_details.cached_tokens` is a breakdown of it.
  { matches: (fields) => "prompt_tokens" in fields, summed: ["prompt_tokens"] },
  // The AI SDK's `LanguageModelUsage` (ai@6 and 7): `inputTokens`, "The total number of input
  // (prompt) tokens used", with `inputTokenDetails` ({ noCacheTokens, cacheReadTokens,
  // cacheWriteTokens }) as its breakdown. Without the total, the breakdown summed is it.
  {
    matches: (fields) => "inputTokenDetails" in fields && !isCount(fields["inputTokens"]),
    summed: ["noCacheTokens", "cacheReadTokens", "cacheWriteTokens"],
    path: "inputTokenDetails",
  },
  // This library's own `{ inputTokens, messageCount }`, and the AI SDK's usage with its total.
  { matches: () => true, summed: ["inputTokens"] },
];

/** The whole input of a report in the shape that matched, or why it has none. */
function inputOf(fields: Fields, shape: UsageShape): { inputTokens: number; read: string; unusable?: string } {
  const source =
    shape.path === undefined ? fields : isPlainObject(fields[shape.path]) ? (fields[shape.path] as Fields) : {};
  const names = shape.summed.map((name) => (shape.path === undefined ? name : `${shape.path}.${name}`));
  const read = names.join(" + ");
  let inputTokens = 0;
  let counted = 0;
  for (const name of shape.summed) {
    const value = source[name];
    if (value === undefined || value === null) continue;
    if (!isCount(value)) return { inputTokens: 0, read, unusable: `\`${name}\` is not a count (${String(value)})` };
    inputTokens += value;
    counted++;
  }
  if (counted === 0)
    return { inputTokens: 0, read, unusable: `it holds none of ${names.map((name) => `\`${name}\``).join(", ")}` };
  return { inputTokens, read };
}

/**
 * Checks a reported usage against the messages it describes; undefined passes. The report is this
 * library's `{ inputTokens, messageCount }`, or a provider SDK's own usage object with
 * `messageCount` beside its fields (`{ ...response.usage, messageCount }`): Anthropic's `Usage`
 * (its cache reads and writes added to `input_tokens`), OpenAI's Chat Completions and Responses
 * usage, the AI SDK's `LanguageModelUsage`. A report of this library's form with an input that is
 * not a count, or a `messageCount` that is not an index of these messages, is a `TypeError`; a
 * provider's report that holds no usable input comes back with `unusable` saying why.
 */
export function checkedUsage(value: unknown, messageCount: number, name = "usage"): CheckedUsage | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null)
    throw new TypeError(expectedMessage(name, "an object `{ inputTokens, messageCount }`", value));
  const fields = value as Fields;
  const held = fields["messageCount"];
  if (typeof held !== "number" || !Number.isInteger(held) || held < 0 || held > messageCount) {
    throw new TypeError(
      expectedMessage(`${name}.messageCount`, `an integer from 0 to the number of messages (${messageCount})`, held),
    );
  }
  const shape = SHAPES.find((candidate) => candidate.matches(fields)) as UsageShape;
  const own = shape === SHAPES[SHAPES.length - 1] && !("inputTokenDetails" in fields);
  const input = inputOf(fields, shape);
  // The caller wrote this form by hand: a wrong figure in it is a bug to show, not a report to skip.
  if (own && (input.unusable !== undefined || !isCount(fields["inputTokens"]))) {
    throw new TypeError(expectedMessage(`${name}.inputTokens`, "a finite number from 0 and up", fields["inputTokens"]));
  }
  return { ...input, messageCount: held };
}
