import {
  context,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Exception,
  type Span,
  type Tracer,
} from "@opentelemetry/api";
import type { CompactedEvent, CompactingEvent, ProviderVerdict, SkippedEvent } from "../ground/types.js";
import { isCompactionError } from "../ground/errors.js";
import { expectedMessage } from "../ground/describe-value.js";
import { rejectUnknownKeys } from "../ground/unknown-keys.js";
import { redactLikelySecrets } from "../text/likely-secrets.js";
import { codePointHeadOf } from "../text/cut-points.js";

// Attribute names. The GenAI ones are the OpenTelemetry GenAI semantic conventions'
// (open-telemetry/semantic-conventions-genai, model/gen-ai/registry.yaml; the JavaScript constants
// of @opentelemetry/semantic-conventions 1.45.0 spell `gen_ai.operation.name` and
// `gen_ai.usage.input_tokens` / `output_tokens` the same way):
// - `gen_ai.conversation.compacted` (boolean, added by semantic-conventions-genai#162): "whether the
//   effective conversation context used for this operation is a compacted view of a prior
//   conversation". Unset means unknown, so it is only ever set to true.
// - `gen_ai.operation.name` is Required on every GenAI span, which is how a GenAI span is told apart.
// - `gen_ai.usage.input_tokens` / `gen_ai.usage.output_tokens`: "the number of tokens used in the
//   GenAI input (prompt)" / "response (completion)", here the summarizer's.
// - `error.type` (general conventions, stable): "describes a class of error the operation ended with".
// - `gen_ai.provider.name` ("openai", "anthropic" among its well-known values) and
//   `gen_ai.response.finish_reasons` ("array of reasons the model stopped generating tokens"), on a
//   provider's verdict (@opentelemetry/semantic-conventions 1.45.0, experimental_attributes).
// The conventions name nothing a compaction reports (tokens after it, messages kept, its
// strategy) nor what a provider changed in a request (an input transformation, a cache miss's
// reason, a refused item), so those live in this library's own namespace, `context_compactor.*`.
const GEN_AI_CONVERSATION_COMPACTED = "gen_ai.conversation.compacted";
const GEN_AI_OPERATION_NAME = "gen_ai.operation.name";
const GEN_AI_USAGE_INPUT_TOKENS = "gen_ai.usage.input_tokens";
const GEN_AI_USAGE_OUTPUT_TOKENS = "gen_ai.usage.output_tokens";
const ERROR_TYPE = "error.type";
const STRATEGY = "context_compactor.strategy";
const TOKENS_BEFORE = "context_compactor.tokens_before";
const TOKENS_AFTER = "context_compactor.tokens_after";
const MESSAGES_SUMMARIZED = "context_compactor.messages_summarized";
const MESSAGES_KEPT = "context_compactor.messages_kept";
const DURATION_MS = "context_compactor.duration_ms";
const OVER_BUDGET = "context_compactor.over_budget";
const OVER_BUDGET_CAUSE = "context_compactor.over_budget_cause";
const SKIP_REASON = "context_compactor.skip_reason";
const MADE_BY = "context_compactor.made_by";
const MADE_BY_PROVIDER = "context_compactor.made_by.provider";
const MADE_BY_MODEL = "context_compactor.made_by.model";
const SUMMARIZERS_FAILED = "context_compactor.summarizers_failed";
const GEN_AI_PROVIDER_NAME = "gen_ai.provider.name";
const GEN_AI_RESPONSE_FINISH_REASONS = "gen_ai.response.finish_reasons";
const VERDICT_EVENT = "context_compactor.provider_verdict";
const VERDICT_KIND = "context_compactor.verdict.kind";
const VERDICT_REASON = "context_compactor.verdict.reason";
const VERDICT_PATH = "context_compactor.verdict.path";
const VERDICT_ITEM_ID = "context_compactor.verdict.item_id";
const VERDICT_CODE = "context_compactor.verdict.code";
const VERDICT_MISSED_TOKENS = "context_compactor.verdict.missed_tokens";
/** The most characters of a provider's string a verdict's attribute carries. */
const MOST_VERDICT_CHARS = 200;

/** A provider's verdict as the attributes of its span event; what the provider said is bounded. */
function verdictAttributes(verdict: ProviderVerdict): Attributes {
  const text = (value: string): string => bounded(value, MOST_VERDICT_CHARS);
  const base = { [VERDICT_KIND]: verdict.kind };
  switch (verdict.kind) {
    case "thinking-dropped":
    case "thinking-mismatch-allowed":
      return {
        ...base,
        [GEN_AI_PROVIDER_NAME]: "anthropic",
        [VERDICT_REASON]: text(verdict.reason),
        [VERDICT_PATH]: text(verdict.path),
      };
    case "reasoning-removed":
      return {
        ...base,
        [GEN_AI_PROVIDER_NAME]: "openai",
        [VERDICT_REASON]: text(verdict.reason),
        [VERDICT_ITEM_ID]: text(verdict.id),
      };
    case "cache-miss":
      return {
        ...base,
        [GEN_AI_PROVIDER_NAME]: "anthropic",
        [VERDICT_REASON]: text(verdict.reason),
        ...(verdict.missedTokens === undefined ? {} : { [VERDICT_MISSED_TOKENS]: verdict.missedTokens }),
      };
    case "context-window-exceeded":
      // Anthropic's `stop_reason`, the response's one finish reason.
      return {
        ...base,
        [GEN_AI_PROVIDER_NAME]: "anthropic",
        [GEN_AI_RESPONSE_FINISH_REASONS]: ["model_context_window_exceeded"],
      };
    case "native-item-refused":
      return {
        ...base,
        [GEN_AI_PROVIDER_NAME]: verdict.provider,
        [VERDICT_CODE]: text(verdict.code),
        ...(verdict.id === undefined ? {} : { [VERDICT_ITEM_ID]: text(verdict.id) }),
      };
    default:
      return base;
  }
}

/** Who made the summary and which summarizers of a chain failed first, as span attributes. */
function madeByAttributes(event: CompactedEvent): Attributes {
  const { madeBy, failures } = event;
  return {
    ...(madeBy === undefined ? {} : { [MADE_BY]: madeBy.name }),
    ...(madeBy?.provider === undefined ? {} : { [MADE_BY_PROVIDER]: madeBy.provider }),
    ...(madeBy?.model === undefined ? {} : { [MADE_BY_MODEL]: madeBy.model }),
    ...(failures === undefined ? {} : { [SUMMARIZERS_FAILED]: failures.map((failure) => failure.name) }),
  };
}

/** Options of `otelEvents`. */
export interface OtelEventsOptions {
  /**
   * Name of the span each compaction makes.
   * @default "compaction"
   */
  spanName?: string;
  /**
   * Set on every compaction span, such as the conversation's `gen_ai.conversation.id`.
   * @default {}
   */
  attributes?: Attributes;
  /** Your own `onCompacting`, called after the span is started. */
  onCompacting?: (event: CompactingEvent) => void;
  /** Your own `onCompacted`, called after the span is ended. */
  onCompacted?: (event: CompactedEvent) => void;
  /** Your own `onSkipped`, called after the span is ended. */
  onSkipped?: (event: SkippedEvent) => void;
  /** Your own `onProviderVerdict`, called after the verdict is recorded. */
  onProviderVerdict?: (verdict: ProviderVerdict) => void;
}

/** The callbacks `otelEvents` returns, to give as the `events` of any entry point. */
export interface OtelEvents {
  onCompacting: (event: CompactingEvent) => void;
  onCompacted: (event: CompactedEvent) => void;
  onSkipped: (event: SkippedEvent) => void;
  onProviderVerdict: (verdict: ProviderVerdict) => void;
}

/** The usage the summarizing model reported, for `recordSummaryUsage`. */
export interface SummaryUsage {
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
}

interface Started {
  owner: object;
  span: Span;
  /** The summarizer's usage so far: a chunked summary makes several model calls. */
  inputTokens: number;
  outputTokens: number;
}

/**
 * Compaction spans started by `onCompacting` and not yet ended, under the context that was active
 * when each started. The hook's callbacks and `summarize` run in the async context of the hook's
 * call, so the end of a compaction finds its span there; concurrent calls under different spans
 * never meet. A compaction whose `summarize` throws with `onError: "throw"` calls nothing after
 * `onCompacting`: its span is never ended nor exported, and goes with its context.
 */
const inProgress = new WeakMap<Context, Started[]>();

function startedIn(parent: Context): Started[] {
  let spans = inProgress.get(parent);
  if (spans === undefined) inProgress.set(parent, (spans = []));
  return spans;
}

/** The newest span `owner` started under `parent`, taken out of the list. */
function takeStarted(parent: Context, owner: object): Span | undefined {
  const spans = inProgress.get(parent) ?? [];
  for (let index = spans.length - 1; index >= 0; index--) {
    if (spans[index]!.owner === owner) return spans.splice(index, 1)[0]!.span;
  }
  return undefined;
}

/** `error.type`: the `CompactionError`'s code, else the error's name; `_OTHER` is the conventions' value when there is none. */
function errorType(error: unknown): string {
  if (isCompactionError(error)) return error.code;
  if (error instanceof Error) return bounded(String(error.name), MOST_TYPE_CHARS);
  return "_OTHER";
}

/**
 * The most characters of an error's name or code an attribute carries. Both are the thrower's to
 * set: an SDK that files the server's error text as its `code` (or a name set from a response)
 * carries what the message does, and is bounded and redacted as it is.
 */
const MOST_TYPE_CHARS = 100;

/** The most characters of an error's message an event or a status carries. */
const MOST_MESSAGE_CHARS = 500;
/** The most characters of an error's stack an event carries. */
const MOST_STACK_CHARS = 4_000;

/**
 * `text` redacted and cut to `most` characters. Traces are exported to places the transcript never
 * goes, and a summarizer's error may quote the request it failed on (a key, a whole prompt): only
 * the start of it is kept, with whatever may be a secret redacted (`redactLikelySecrets`: a port or
 * a word more is no loss in a trace). It is read a little past the cut, so that a secret across it
 * is judged whole.
 */
function bounded(text: string, most: number): string {
  // Cut on a code point: half a surrogate pair is not valid Unicode, and an exporter's JSON holding
  // it is refused or garbled.
  const read = codePointHeadOf(text, most + 1024);
  const redacted = redactLikelySecrets(read);
  return redacted.length > most || read.length < text.length ? `${codePointHeadOf(redacted, most - 1)}…` : redacted;
}

/** An error's text, whatever was thrown: a `toString` that throws is no reason to lose the span. */
function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  try {
    return String(error);
  } catch {
    return Object.prototype.toString.call(error);
  }
}

/**
 * What `recordException` is given: the error's code or name, its message bounded and redacted, and
 * its stack with the message at its head replaced by that bounded one (V8 writes
 * `Name: message` first), the whole bounded and redacted too.
 */
function exceptionOf(error: unknown): Exception {
  const message = bounded(messageOf(error), MOST_MESSAGE_CHARS);
  if (!(error instanceof Error)) return message;
  const name = bounded(String(error.name), MOST_TYPE_CHARS);
  const code = (error as { code?: unknown }).code;
  const exception: Exception = {
    name,
    message,
    ...(typeof code === "string" ? { code: bounded(code, MOST_TYPE_CHARS) } : typeof code === "number" ? { code } : {}),
  };
  const { stack } = error;
  if (typeof stack === "string") {
    // The message where the stack holds it near its start, whatever name opens it (an error named
    // after its stack was taken opens with `Error: …`): replaced by the bounded one, never copied whole.
    const messageAt = error.message === "" ? -1 : stack.slice(0, error.message.length + 200).indexOf(error.message);
    const frames = messageAt >= 0 ? `${name}: ${message}${stack.slice(messageAt + error.message.length)}` : stack;
    exception.stack = bounded(frames, MOST_STACK_CHARS);
  }
  return exception;
}

function checkCallback(options: OtelEventsOptions, name: keyof OtelEvents): void {
  const value = options[name];
  if (value !== undefined && typeof value !== "function")
    throw new TypeError(expectedMessage(name, "a function", value));
}

/**
 * Makes `onCompacting`, `onCompacted` and `onSkipped` that trace each compaction with
 * OpenTelemetry, to spread into the options of any entry point. Each compaction is a span
 * (`compaction`, a child of the span active when the hook runs) with its tokens before and after,
 * the messages summarized and kept, the strategy, the duration, whether it is still over budget
 * and why, or why it was skipped; a skipped compaction's error is recorded on it with status
 * `ERROR`. An error's message is recorded redacted and cut to 500 characters, its stack to 4,000. The active span, when it is a GenAI span (it has `gen_ai.operation.name`), gets
 * `gen_ai.conversation.compacted: true`. A call within budget makes no span. Each provider verdict
 * (`onProviderVerdict`) is an event `context_compactor.provider_verdict` of the active span (or
 * of a span of that name when none is active), with its kind, reason, path, item id, code or
 * missed tokens, `gen_ai.provider.name`, and `gen_ai.response.finish_reasons` for a stop at the
 * context window.
 *
 * @param tracer - the `Tracer` the spans are made with (`trace.getTracer("my-app")`)
 * @param options - `spanName`, `attributes` for every span, and your own callbacks, called after the span's
 * @returns `{ onCompacting, onCompacted, onSkipped, onProviderVerdict }`
 * @example
 * ```ts
 * import { trace } from "@opentelemetry/api";
 * import { compactor } from "context-compactor";
 * import { otelEvents } from "context-compactor/otel";
 *
 * const hook = compactor({ maxTokens: 100_000, summarize, events: otelEvents(trace.getTracer("my-agent")) });
 * ```
 */
export function otelEvents(tracer: Tracer, options: OtelEventsOptions = {}): OtelEvents {
  if (typeof tracer !== "object" || tracer === null || typeof tracer.startSpan !== "function") {
    throw new TypeError(expectedMessage("tracer", "an OpenTelemetry `Tracer` (with `startSpan`)", tracer));
  }
  if (typeof options !== "object" || options === null)
    throw new TypeError(expectedMessage("options", "an object", options));
  rejectUnknownKeys(
    options,
    ["spanName", "attributes", "onCompacting", "onCompacted", "onSkipped", "onProviderVerdict"],
    "",
  );
  const { spanName = "compaction", attributes = {} } = options;
  if (typeof spanName !== "string" || spanName === "")
    throw new TypeError(expectedMessage("spanName", "a non-empty string", spanName));
  if (typeof attributes !== "object" || attributes === null || Array.isArray(attributes)) {
    throw new TypeError(expectedMessage("attributes", "an object of span attributes", attributes));
  }
  for (const name of ["onCompacting", "onCompacted", "onSkipped", "onProviderVerdict"] as const)
    checkCallback(options, name);
  const owner = {};

  const start = (parent: Context, startTime?: number): Span =>
    tracer.startSpan(spanName, { attributes, ...(startTime === undefined ? {} : { startTime }) }, parent);

  /**
   * The span of the compaction ending now: the one `onCompacting` started, when it was called;
   * else one made now (masking and truncating never summarize, a skip may come before
   * `summarize`), begun `durationMs` ago when that is known.
   */
  const ending = (followsCompacting: boolean, durationMs?: number): Span => {
    const parent = context.active();
    return (
      (followsCompacting ? takeStarted(parent, owner) : undefined) ??
      start(parent, durationMs === undefined ? undefined : Date.now() - durationMs)
    );
  };

  return {
    onCompacting(event) {
      const parent = context.active();
      const span = start(parent);
      span.setAttribute(TOKENS_BEFORE, event.tokensBefore);
      startedIn(parent).push({ owner, span, inputTokens: 0, outputTokens: 0 });
      options.onCompacting?.(event);
    },
    onCompacted(event) {
      const span = ending(event.strategy === "summarize" || event.strategy === "fallback", event.durationMs);
      span.setAttributes({
        [STRATEGY]: event.strategy,
        [TOKENS_BEFORE]: event.tokensBefore,
        [TOKENS_AFTER]: event.tokensAfter,
        [MESSAGES_SUMMARIZED]: event.summarized,
        [MESSAGES_KEPT]: event.kept,
        [DURATION_MS]: event.durationMs,
        [OVER_BUDGET]: event.overBudget,
        ...(event.overBudgetCause === undefined ? {} : { [OVER_BUDGET_CAUSE]: event.overBudgetCause }),
        ...madeByAttributes(event),
      });
      // With `onError: "fallback"` the compaction succeeded with the model-free summary: the
      // summarizer's failure is recorded, and the span's status stays unset.
      if (event.error !== undefined) span.recordException(exceptionOf(event.error));
      span.end();
      const active = trace.getActiveSpan();
      if (active !== undefined && isGenAiSpan(active)) active.setAttribute(GEN_AI_CONVERSATION_COMPACTED, true);
      options.onCompacted?.(event);
    },
    onSkipped(event) {
      const span = ending(event.reason === "error");
      span.setAttributes({
        [SKIP_REASON]: event.reason,
        [TOKENS_BEFORE]: event.tokensBefore,
        ...(event.overBudget === undefined ? {} : { [OVER_BUDGET]: event.overBudget }),
        ...(event.overBudgetCause === undefined ? {} : { [OVER_BUDGET_CAUSE]: event.overBudgetCause }),
      });
      if (event.reason === "error") {
        const { error } = event;
        span.recordException(exceptionOf(error));
        span.setAttribute(ERROR_TYPE, errorType(error));
        span.setStatus({ code: SpanStatusCode.ERROR, message: bounded(messageOf(error), MOST_MESSAGE_CHARS) });
      }
      span.end();
      options.onSkipped?.(event);
    },
    onProviderVerdict(verdict) {
      // What the provider said of the last request is an event of the span the hook runs in (an
      // agent's step, a chat route's request); with none active, of a span of its own, so that no
      // verdict goes untraced.
      const attributes = verdictAttributes(verdict);
      const active = trace.getActiveSpan();
      if (active?.isRecording()) active.addEvent(VERDICT_EVENT, attributes);
      else {
        const span = tracer.startSpan(
          VERDICT_EVENT,
          { attributes: { ...options.attributes, ...attributes } },
          context.active(),
        );
        span.addEvent(VERDICT_EVENT, attributes);
        span.end();
      }
      options.onProviderVerdict?.(verdict);
    },
  };
}

/**
 * A span is a GenAI span when it carries `gen_ai.operation.name`, which the conventions require on
 * every GenAI span. Only the SDK's spans let their attributes be read; another tracer's spans
 * are left alone.
 */
function isGenAiSpan(span: Span): boolean {
  const { attributes } = span as { attributes?: Attributes };
  return typeof attributes === "object" && attributes !== null && attributes[GEN_AI_OPERATION_NAME] !== undefined;
}

/**
 * Records the summarizing model's usage on the compaction in progress, as `gen_ai.usage.input_tokens`
 * and `gen_ai.usage.output_tokens`. Call it from your `summarize`, after the model call and
 * outside any span of your own, so that the context is the hook's; the calls of a summary made in
 * chunks (`summarizeWith`'s `maxInputTokens`) add up. Does nothing (and returns
 * false) when no compaction traced by `otelEvents` is in progress there.
 *
 * @param usage - `{ inputTokens?, outputTokens? }`, as the provider reported them
 * @returns whether a compaction span received it
 * @example
 * ```ts
 * import { summarizeWith } from "context-compactor";
 * import { recordSummaryUsage } from "context-compactor/otel";
 *
 * const summarize = summarizeWith(async ({ system, user }, { signal }) => {
 *   const response = await openai.chat.completions.create({ model: "gpt-4.1-mini", messages: [{ role: "system", content: system }, { role: "user", content: user }] }, { signal });
 *   recordSummaryUsage({ inputTokens: response.usage?.prompt_tokens, outputTokens: response.usage?.completion_tokens });
 *   return response.choices[0]?.message.content ?? "";
 * });
 * ```
 */
export function recordSummaryUsage(usage: SummaryUsage): boolean {
  const started = inProgress.get(context.active())?.at(-1);
  if (started === undefined || typeof usage !== "object" || usage === null) return false;
  if (typeof usage.inputTokens === "number")
    started.span.setAttribute(GEN_AI_USAGE_INPUT_TOKENS, (started.inputTokens += usage.inputTokens));
  if (typeof usage.outputTokens === "number")
    started.span.setAttribute(GEN_AI_USAGE_OUTPUT_TOKENS, (started.outputTokens += usage.outputTokens));
  return true;
}
