/**
 * A transcript entry: any non-null object. Usually it has a string `role`; an OpenAI Responses
 * item such as `function_call` has a `type` instead. Everything on it is carried through untouched.
 */
export type AnyMessage = object;

/** The message formats the library reads (see `detectDialect`). */
export type DialectName =
  | "openai-chat"
  | "anthropic"
  | "ai-sdk"
  | "openai-responses"
  | "google-genai"
  | "bedrock-converse"
  | "langchain"
  | "pi-agent"
  | "genkit";

/**
 * The role of the summary and reminder messages. `"auto"` gives `"system"` where the format's
 * messages can hold a system message (OpenAI chat and Responses, the AI SDK, LangChain) and
 * `"user"` where they cannot, or where the common providers refuse one after the first position
 * (Anthropic, Bedrock, Gemini, Genkit, pi). `"system"` in a format of the second kind gives
 * `"user"` too: a request the provider would refuse is never the answer.
 */
export type SummaryRole = "auto" | "system" | "user";

/** What `summarize` receives besides the messages. */
export interface SummaryContext {
  /** Aborts when the compaction times out (`summary.timeoutMs`) or the caller's signal aborts. */
  signal: AbortSignal;
  /** Extra instructions from a forced compaction (`compact(messages, { force: true, instructions })`). */
  instructions: string | undefined;
  /**
   * Text (without `SUMMARY_PREFIX`) of the earlier summaries this summary carries forward: the ones
   * it merges (`merging`, joined), or a provider's compaction it follows. Undefined when the earlier
   * summaries stay in the transcript as they are, and this summary adds a section after them for
   * `older` alone (see `docs/fit-ladder.md`, "Summaries are frozen").
   */
  previousSummary: string | undefined;
  /**
   * When this summary merges earlier sections of the summary into itself: their texts, oldest
   * first. They are the newest sections; older ones stay as they are before the merged one.
   */
  merging?: readonly string[];
  /**
   * The earlier sections that stay in the request, as they are, before this summary: what it need
   * not say again (`extractiveSummary`'s `keptSummary`). Undefined when none stays.
   */
  keptSummary?: string;
  /**
   * The library's own messages before `older` (the earlier summary, its reminder), which stay in
   * the request unless the result replaces them: a summarizer that replaces the whole history (a
   * provider's compaction) sends them with `older`. Not part of `older`: they are not summarized again.
   */
  earlier?: readonly AnyMessage[];
  /** Token count of the whole transcript before compaction. */
  tokensBefore: number;
  /** The budget, `maxTokens`. */
  maxTokens: number;
  /** The tail budget, `keepTail`. */
  keepTail: number;
  /**
   * The longest summary text that fits, in tokens: `summary.maxTokens` less what the prefix and the
   * message around the text take, or less when the kept messages leave less room. A longer summary is an
   * `INVALID_SUMMARY` and the transcript stays as it was.
   */
  maxSummaryTokens: number;
  /**
   * The messages kept before the summary (the system prompt, when there is one): with `older`, the
   * start of the request just sent, which `summarizeInPlace` sends again so that the provider's
   * prompt cache serves it. Always set by the hook; optional for summarizers called by hand.
   */
  head?: readonly AnyMessage[];
  /**
   * The start of the request as it was sent, up to the kept tail: `head`, then `older` with any
   * message kept from among them (a long turn's request) in its place. What `summarizeInPlace`
   * sends, so that it matches the provider's cached prefix message for message. Always set by the
   * hook; optional for summarizers called by hand.
   */
  requestPrefix?: readonly AnyMessage[];
}

/**
 * What a summarizer may return instead of a summary text: messages that replace the older part
 * exactly as given (a provider's own compaction item or block), never prefixed, sealed, cut, masked
 * or read again as a boundary, and the same rules of size and fit as a summary.
 */
export interface SummaryReplacement {
  /** The messages put in place of the older part, in the transcript's own format. */
  messages: readonly object[];
  /** A readable account of the same: `previousSummary` for a later summarizer that cannot read `messages`, and what `statefulCompactor` sends after a switch of provider or model. */
  text?: string;
  /** The provider and model that made `messages`: `statefulCompactor` sends them back only to the same. Set by `openaiCompaction` and `anthropicCompaction`. */
  madeBy?: CompactionSource;
}

/** Who made a provider compaction: only that provider and model can read it. */
export interface CompactionSource {
  provider: string;
  model: string;
}

/** The caller's summarizer. May call a model; the library never does. Sync or async. */
export type Summarize<M extends AnyMessage = AnyMessage> = (
  older: M[],
  context: SummaryContext,
) => string | SummaryReplacement | PromiseLike<string | SummaryReplacement>;

/** Whole-list token counter. Must be monotone: a longer suffix never counts less. */
export type CountTokens<M extends AnyMessage = AnyMessage> = (messages: readonly M[]) => number;

/**
 * What the provider reported for the last request: the whole input it counted (`inputTokens`), and
 * how many of the current messages (the first `messageCount`) that request held. What the figure
 * holds beyond the estimate of those messages is what travelled beside them (the system prompt
 * passed apart, the tool definitions): it is counted as a fixed part of every request planned
 * after, and the messages added since are counted on top (see `docs/counting.md`). With the
 * default estimate, no message then counts less than its o200k word pieces, a lower bound that
 * catches dense tool output. A provider SDK's own usage object can be passed instead: see `UsageReport`.
 */
export interface ReportedUsage {
  inputTokens: number;
  messageCount: number;
}

/**
 * A usage report as `usage` takes it: `{ inputTokens, messageCount }`, or a provider SDK's own
 * usage object with `messageCount` beside its fields (`{ ...response.usage, messageCount }`).
 * Read as the SDK types it: Anthropic's `input_tokens + cache_creation_input_tokens +
 * cache_read_input_tokens`, Bedrock Converse's `inputTokens + cacheReadInputTokens +
 * cacheWriteInputTokens`, Gemini's `promptTokenCount`, OpenAI Responses' `input_tokens`, Chat
 * Completions' `prompt_tokens`, the AI SDK's `inputTokens`. A report with no usable input is counted by the estimate and said
 * through `events.onUsage`.
 */
export type UsageReport = ReportedUsage | { readonly messageCount: number; readonly [field: string]: unknown };

/**
 * `onUsage`: what a usage report showed, said on each call of the plain hook that brings the
 * report (it keeps nothing between calls), once per `statefulCompactor` conversation for
 * `"calibrated"` and `"unusable"`, and for every report of a request over budget:
 * - `"calibrated"`: the report was over the estimate (of the messages it held, plus
 *   `reserveTokens`) by more than 20%; counts follow the report from then on.
 * - `"unusable"`: the report cannot be counted by (`reason` says why: no input field, a figure
 *   that is not a count, or one implausibly small for the messages, such as Anthropic's
 *   `input_tokens` alone under prompt caching); the count is the estimate's.
 * - `"over-budget"`: the request the report describes was over `maxTokens` as the provider counted
 *   it, though the hook had let it through as fitting by its own count.
 */
export interface UsageEvent {
  kind: "calibrated" | "unusable" | "over-budget";
  /** The reported input, as read (`read` names the fields); 0 for `"unusable"`. */
  inputTokens: number;
  /** The fields the input was read from. */
  read: string;
  /** How many of the messages the report held. */
  messageCount: number;
  /** The estimate of those messages. */
  estimatedTokens: number;
  /** What the report shows travelled beside the messages, counted as a fixed part of each request. */
  fixedTokens: number;
  /** The budget. */
  maxTokens: number;
  /** For `"unusable"`: why. */
  reason?: string;
}

/** What the hook is given before each model call. */
export interface BeforeLlmEvent<M extends AnyMessage = AnyMessage> {
  /** The transcript about to be sent. Never mutated. Other fields of the event (a loop's `tools`, `model`, `turn`) are ignored. */
  messages: readonly M[];
  /** Aborting it abandons a compaction in progress (`CompactionError` with code `ABORTED`). */
  signal?: AbortSignal;
  /** The provider's reported usage for the last request, to count by (see `UsageReport`). */
  usage?: UsageReport;
  /**
   * The provider's response to the last request, as its SDK returned it (an Anthropic `Message`, an
   * OpenAI `Response` or `ChatCompletion`, a Bedrock `ConverseResponse`, a Gemini
   * `GenerateContentResponse`), or the error the SDK threw instead. The request it answers is the
   * start of `messages`: those before the model's latest reply, which the loop appended after it
   * (the objects the hook returned, or the same messages read back from a database). The hook reads
   * what it says: its usage (when `usage` is not given) and a stop at the context window, after
   * which this call compacts whatever the estimate says. With `verdicts: readProviderVerdicts()`
   * (the stateful layer and the adapters always read them), also each input transformation and
   * cache miss (`events.onProviderVerdict`, naming the message of `messages` it concerns) and a
   * refused provider compaction (`"native-item-refused"`), replaced by its readable summary.
   */
  response?: unknown;
}

/** A compacted transcript: what to send instead. */
export interface CompactionResult<M extends AnyMessage = AnyMessage> {
  messages: M[];
  /** Present, and true, when the messages still exceed `maxTokens`: the request will go out over budget. */
  overBudget?: true;
  /** Why, when `overBudget`: see `OverBudgetCause`. */
  overBudgetCause?: OverBudgetCause;
}

/**
 * A before-LLM hook: resolves the messages to send instead, or `null` to send the transcript as is.
 * It is generic in the message type so the result has the type of the messages passed in.
 */
export type BeforeLlmHook<M extends AnyMessage = AnyMessage> = <T extends M>(
  event: BeforeLlmEvent<T>,
) => Promise<CompactionResult<T> | null>;

/** `onCompacting`: sent right before `summarize` runs. Counts are numbers of messages. */
export interface CompactingEvent {
  tokensBefore: number;
  /** Messages about to be summarized. */
  older: number;
  /** Messages kept as the recent tail. */
  tail: number;
}

/**
 * Which summarizer made a summary (`CompactedEvent.madeBy`): with `firstOf`, the one of the chain
 * that succeeded. `name` is the function's own (`openaiCompaction`, `anthropicCompaction`, your
 * `mySummarizer`), `index` its place in the chain from 0, `provider` and `model` those of a
 * native backend. With `strategy: "fallback"` it is the model-free summary, `extractiveSummary`.
 */
export interface SummarizerIdentity {
  name: string;
  index?: number;
  provider?: string;
  model?: string;
}

/** A summarizer of a `firstOf` chain that failed before another made the summary, and why. */
export interface SummarizerFailure extends SummarizerIdentity {
  error: unknown;
}

/** What a request for a compaction (`answerCompactContext`, the `compact_context` tool) is told. */
export interface CompactionRequestAnswer {
  /** True when the conversation's next model call compacts. */
  scheduled: boolean;
  /** Said to the model as the tool's result: what happens, or why nothing does. */
  message: string;
}

/** One thing the provider said it did with the last request (`events.onProviderVerdict`). */
export type ProviderVerdict =
  | {
      /** Anthropic removed a signed thinking block that failed a binding check (`thinking_dropped`), or showed it all the same (`thinking_mismatch_allowed`). */
      kind: "thinking-dropped" | "thinking-mismatch-allowed";
      /** The provider's reason, such as `prefix_binding_mismatch`. */
      reason: string;
      /** Where the block was, as the provider says it: `messages.{i}.content.{j}`. */
      path: string;
      /** The message of the hook's last output that held it, when the path names one. */
      message?: object;
    }
  | {
      /** OpenAI withheld a reasoning item from the model (`input_transformations` of a `Response`). */
      kind: "reasoning-removed";
      reason: string;
      /** The reasoning item's id. */
      id: string;
      /** The item of the hook's last output with that id, when there is one. */
      message?: object;
    }
  | {
      /** Anthropic's prompt cache could not reuse the prefix of the previous request (`diagnostics.cache_miss_reason`). */
      kind: "cache-miss";
      /** The provider's reason: `messages_changed`, `model_changed`, `system_changed`, `tools_changed`, … */
      reason: string;
      /** Input tokens that would have been read from the cache, when the provider says. */
      missedTokens?: number;
    }
  | {
      /** The model stopped because the request filled its context window (`stop_reason: "model_context_window_exceeded"`): the next call compacts. */
      kind: "context-window-exceeded";
    }
  | {
      /**
       * The provider refused a native item the request carried (read from the error its SDK threw,
       * given as `response`): OpenAI's `invalid_encrypted_content`, Anthropic's refused `compaction`
       * block. `statefulCompactor` sends the stored item's readable shadow in its place from then on;
       * the plain hook, the block's own text or the shadow it kept of an item it made.
       */
      kind: "native-item-refused";
      provider: "openai" | "anthropic";
      /** The provider's code: `invalid_encrypted_content`, `compaction_signature_invalid`, `compaction_content_mismatch`, `compaction_tool_changes_mismatch`. */
      code: string;
      /** The refused item's id, when the provider's message names one. */
      id?: string;
      /** The item (or the message holding the block) of the hook's last output it concerns. */
      message?: object;
    };

/** How a compaction shrank the transcript. */
export type CompactionStrategy = "summarize" | "mask" | "truncate" | "fallback";

/** `onCompacted`: sent after a compaction succeeded. */
export interface CompactedEvent {
  strategy: CompactionStrategy;
  tokensBefore: number;
  tokensAfter: number;
  /** Messages replaced by the summary (0 when only masking ran). */
  summarized: number;
  /** Messages carried into the result from the input (the system prompt and the tail); `summarized + kept` is the input length. */
  kept: number;
  /** Time spent compacting, in milliseconds. */
  durationMs: number;
  /** True when the result still exceeds `maxTokens`. */
  overBudget: boolean;
  /** Why, when `overBudget`: see `OverBudgetCause`. */
  overBudgetCause?: OverBudgetCause;
  /**
   * Why `summarize`'s summary could not be used: with `strategy: "fallback"`, and with
   * `strategy: "truncate"` when a refused summary (`INVALID_SUMMARY`) gave way to the older part
   * kept as it is and the tool payloads cut, which fit.
   */
  error?: unknown;
  /** Who made the summary, when one was made (`strategy` `"summarize"` or `"fallback"`); see `SummarizerIdentity`. */
  madeBy?: SummarizerIdentity;
  /**
   * The summarizers of a `firstOf` chain that failed before `madeBy` succeeded, in order, each with
   * its error; with `strategy: "fallback"`, every one of them. Absent when the first one succeeded.
   */
  failures?: SummarizerFailure[];
}

/**
 * Why a result is still over budget: the system prompt alone exceeds it; or the system prompt and
 * the latest user message (which is never summarized away) leave no room for even a summary of a
 * few words; or, with a rung of the ladder turned off, or a summary that may not be smaller than
 * what it replaces, what was kept does.
 */
export type OverBudgetCause = "system-prompt" | "latest-user-message" | "kept-messages";

/** Why a compaction over budget did not happen. */
export type SkipReason = "nothing-to-summarize" | "no-progress" | "error";

/** `onSkipped`: sent when the transcript was over budget but left as it was. */
export interface SkippedEvent {
  reason: SkipReason;
  tokensBefore: number;
  /** The failure, when `reason` is `"error"` (with `onError: "skip"`). */
  error?: unknown;
  /** True when the transcript is over budget and nothing could bring it within (see `overBudgetCause`). */
  overBudget?: boolean;
  overBudgetCause?: OverBudgetCause;
}

/** Options of the model-free masking stage (`ladder.maskToolResults`). */
export interface MaskToolResultsOptions {
  /**
   * Newest tool results left verbatim.
   * @default 3
   */
  keepRecent?: number;
  /**
   * Text that replaces an older tool result.
   * @default MASKED_TOOL_RESULT
   */
  placeholder?: string;
  /**
   * The least that masking alone must free to be used; when it frees less, the hook summarizes
   * instead. Each masking changes the start of the request, which costs the provider's prompt
   * cache, so it should free enough at once not to be needed again next turn.
   * @default Math.floor(maxTokens / 4)
   */
  minFreedTokens?: number;
}

/** The summary message and the call that makes it (`summary` of `compactor`). */
export interface SummaryOptions {
  /**
   * Longest summary, in tokens: passed to `summarize` as `context.maxSummaryTokens`, reserved
   * when the tail is chosen, and enforced (a longer summary, or one not smaller than what it
   * replaces, is `INVALID_SUMMARY`).
   * @default Math.floor((maxTokens - keepTail) / 2)
   */
  maxTokens?: number;
  /**
   * Role of the summary and reminder messages (see `SummaryRole`). `"user"` is the safer choice
   * when tool output is untrusted.
   * @default "auto"
   */
  role?: SummaryRole;
  /**
   * Add `FLUSH_TO_MEMORY_REMINDER` right after the summary.
   * @default false
   */
  flushToMemory?: boolean;
  /**
   * Abort `summarize` after this many milliseconds (`CompactionError` with code `TIMEOUT`).
   * @default no timeout
   */
  timeoutMs?: number;
}

/** The rungs of the fit ladder (`ladder` of `compactor`), in the order they are tried (see docs/fit-ladder.md). */
export interface LadderOptions<M extends AnyMessage = AnyMessage> {
  /**
   * Before summarizing, replace old tool results with a placeholder; skip `summarize` when that suffices.
   * @default false
   */
  maskToolResults?: boolean | MaskToolResultsOptions;
  /**
   * When no user-turn tail fits `keepTail`, keep the last user message plus the newest complete tool groups that fit.
   * `false` turns off this rung only: the latest user message is still kept (alone), and the summary is still checked.
   * @default true
   */
  splitInsideTurn?: boolean;
  /**
   * When the kept messages still do not fit, cut oversized tool results and call arguments in
   * the middle, with a marker saying how much was cut, just enough to fit.
   * @default true
   */
  truncateToolResults?: boolean;
  /**
   * What may start a kept tail.
   * @default a `role: "user"` message that carries no tool result and was not made by this library
   */
  isBoundary?: (message: M) => boolean;
}

/** What the hook tells as it works (`events` of `compactor`). */
export interface CompactorEvents {
  /** Called right before `summarize`. */
  onCompacting?: (event: CompactingEvent) => void;
  /** Called after a successful compaction. */
  onCompacted?: (event: CompactedEvent) => void;
  /** Called when the transcript is over budget but is left as it was. */
  onSkipped?: (event: SkippedEvent) => void;
  /**
   * Say the first request of the process that is still over budget after compaction (or left as
   * it was because nothing could bring it within) through `console.warn`, once. The result carries
   * `overBudget` and `overBudgetCause` either way.
   * @default true
   */
  warnOverBudget?: boolean;
  /**
   * Called with what a usage report showed (see `UsageEvent`): the estimate under by more than
   * 20%, a report that cannot be counted by, a request that went out over budget. Without it, an
   * unusable report and a request over budget are said once per process through `console.warn`.
   */
  onUsage?: (event: UsageEvent) => void;
  /**
   * Called for each thing the provider said it did with the last request, read from the response
   * given as `event.response`: a signed thinking block dropped or let through a failed check, a
   * reasoning item withheld, a prompt-cache miss with its reason, a stop at the context window
   * (after which the call compacts), or a native item refused (the SDK's error given as the
   * response). Each names the message of the hook's last output it concerns. `compactor` tells
   * them with `verdicts: readProviderVerdicts()`, which maps them onto the transcript; without it,
   * only the stop at the context window.
   * @default none
   */
  onProviderVerdict?: (verdict: ProviderVerdict) => void;
}

/**
 * A summary made without a model: `extractiveSummary` is one. Given the older messages and the
 * room for the summary in tokens (as `estimateTokens` counts text), it returns the summary's text.
 * @example
 * ```ts
 * const fallback: ModelFreeSummary = (older, { maxTokens }) => `${older.length} earlier messages`.slice(0, maxTokens * 4);
 * ```
 */
export type ModelFreeSummary = (
  older: readonly AnyMessage[],
  options: { maxTokens: number; previousSummary?: string | undefined; keptSummary?: string | undefined },
) => string;

/** Options of `compactor`. */
export interface CompactorOptions<M extends AnyMessage = AnyMessage> {
  /**
   * Budget: compact only when `countTokens(messages) > maxTokens`. A positive integer.
   * @example 100_000
   */
  maxTokens: number;
  /**
   * Produces the summary of the older messages. Sync or async; may call a model.
   * @example (older) => `${older.length} earlier messages`
   */
  summarize: Summarize<M>;
  /**
   * Tokens of recent tail to keep. An integer from 0 up to `maxTokens - 1`.
   * @default Math.floor(maxTokens / 2)
   */
  keepTail?: number;
  /**
   * Whole-list token counter; must be monotone and return a finite number ≥ 0.
   * @default estimateTokens
   */
  countTokens?: CountTokens<M>;
  /**
   * Tokens sent beside the messages that the count cannot see: a system prompt passed apart
   * (Anthropic's and the AI SDK's `system`, pi's `systemPrompt`, Genkit's `system`) and the tool
   * definitions. Subtracted from `maxTokens`; with `usage`, the part of a report that is not the
   * messages' (one report cannot tell them apart: the rest of it counts as the messages', at the
   * report's ratio to their estimate). An integer from 0 up to `maxTokens - 1`.
   * @default 0
   */
  reserveTokens?: number;
  /**
   * The message format of the transcript, when it must not be guessed: a plain-text Anthropic
   * transcript (string contents only) reads as OpenAI chat, whose summary may be a system message.
   * With it, a message that does not read as that format is a `TypeError` naming its index.
   * @default detected from the messages (see `detectDialect`)
   */
  format?: DialectName;
  /**
   * On a failed compaction: reject with `CompactionError`; resolve `null` and call `events.onSkipped`; or
   * (`"fallback"`) compact with the model-free summary given as `fallback` instead and say so in
   * `events.onCompacted` (never for `ABORTED`: an abort means stop). `"fallback"` needs `fallback`.
   * @default `"fallback"` when `fallback` is given, else `"throw"`
   */
  onError?: "throw" | "skip" | "fallback";
  /**
   * The model-free summary `onError: "fallback"` compacts with when `summarize` fails, and the
   * readable shadow of a replacement `summarize` returned without `text`. Passed in rather than
   * built in, so a hook that never falls back does not ship one: give `extractiveSummary`.
   * @default none
   * @example
   * ```ts
   * import { compactor, extractiveSummary } from "context-compactor";
   * const hook = compactor({ maxTokens: 100_000, summarize, fallback: extractiveSummary });
   * ```
   */
  fallback?: ModelFreeSummary;
  /**
   * A secret that marks this library's summaries. A user-role summary carries a seal (a short
   * HMAC of its text) that the hook checks before it treats a message as an earlier summary, so a
   * user's message that merely starts with the prefix is never rolled forward as one. Without a
   * key, each hook draws a random one: its own summaries verify, those of another instance or of
   * a restarted process are summarized as ordinary text. Give instances one key to share them.
   * `statefulCompactor` also signs what it stores with it, and ignores unsigned state.
   * @default a random key per hook
   */
  signingKey?: string | Uint8Array;
  /**
   * The summary message and its call: its size limit, role, reminder and timeout (see `SummaryOptions`).
   * @default {}
   */
  summary?: SummaryOptions;
  /**
   * The fit ladder's rungs: masking, the in-turn split, truncation, and what may start a kept tail (see `LadderOptions`).
   * @default {}
   */
  ladder?: LadderOptions<M>;
  /**
   * Callbacks on each compaction, and the over-budget warning (see `CompactorEvents`).
   * @default {}
   */
  events?: CompactorEvents;
  /**
   * The agent's own compaction (`compact_context`): the reader `readCompactContext()` makes (from
   * context-compactor/tools). A call of the tool in the model's latest reply makes this call compact,
   * keeping the latest user message and the tool group the call is in, summarizing the finished work
   * before them with the call's `keep` note as instructions; taken only when it frees at least its
   * `minTokens` (a tenth of `maxTokens` by default). The call is read from the transcript, so nothing
   * waits in the process for a conversation. A hook whose agent has no such tool does not carry it.
   * @default false (calls are not read)
   */
  compactTool?: false | CompactToolReader;
  /**
   * The provider's verdicts read from `event.response`: the reader `readProviderVerdicts()` makes
   * (from context-compactor/expert). Each input transformation, cache miss and refused native item
   * goes to `events.onProviderVerdict`, named by the message it concerns, and a refused provider
   * compaction gives way to its readable summary. Without it, the hook reads only the response's
   * usage and a stop at the context window; `statefulCompactor` and the adapters always read them.
   * @default none
   */
  verdicts?: ProviderVerdictReader;
  /**
   * The summary as the provider caches it: what `markFrozenSections()` makes (from
   * context-compactor/cache). Each section of the summary is a content block of its own where the
   * format has blocks, and the provider's cache marker follows the last one, so the next compaction,
   * which keeps those sections as they are, reads them from the provider's cache. A hook without it
   * writes the summary as one text and does not carry the code that writes blocks and markers.
   * @default undefined (the summary one text, no marker)
   */
  cacheMarker?: CacheMarker;
}

/**
 * How a compactor reads the provider's verdicts (what `readProviderVerdicts` makes): the mapping of
 * a response onto the request it answers, and the summary that stands for a refused provider
 * compaction. Opaque to callers.
 */
export interface ProviderVerdictReader {
  readonly read: (
    response: unknown,
    sent: readonly object[],
    tell: ((verdict: ProviderVerdict) => void) | undefined,
  ) => { overflowed: boolean; refused: boolean; usage?: Record<string, unknown> };
  readonly shadow: (messages: readonly never[], settings: never) => unknown;
}

/**
 * Places the provider's cache marker in a summary message (what `markFrozenSections` makes): the
 * message as `format` writes it, and the rest of the request (the head and the kept tail, whose
 * markers count towards the provider's limit). Returns the message to send. Opaque to callers.
 */
export type CacheMarker = (summary: object, format: DialectName, others: readonly (readonly object[])[]) => object;

/**
 * How a compactor reads the agent's own requests (what `readCompactContext` makes): the tool's
 * name, the least a request must free (a tenth of `maxTokens` when undefined), and the two steps
 * of the plan that find a request in the transcript and plan it. Opaque to callers.
 */
export interface CompactToolReader {
  readonly name: string;
  readonly minTokens: number | undefined;
  readonly find: (
    view: never,
    messages: readonly never[],
    where: { from: number; toolName: string },
  ) => { index: number; note: string } | undefined;
  readonly plan: (context: never, request: { index: number; note: string }, minTokens: number) => unknown;
}

/** Options of a one-off `compact` call. */
export interface CompactOptions<M extends AnyMessage = AnyMessage> extends CompactorOptions<M> {
  /**
   * Compact even at or under budget (a user's `/compact`).
   * @default false
   */
  force?: boolean;
  /**
   * Passed to `summarize` as `context.instructions` (a user's `/compact focus on …`).
   * @default none
   */
  instructions?: string;
  /** Aborts the compaction (`CompactionError` with code `ABORTED`). */
  signal?: AbortSignal;
  /**
   * The provider's reported usage for the last request, to count by (see `UsageReport`).
   * @default none: the count is the counter's alone
   */
  usage?: UsageReport;
}

/** Options of `planCompaction`: those of `compact`, with `summarize` optional since a plan never calls it. */
export type PlanOptions<M extends AnyMessage = AnyMessage> = Omit<CompactOptions<M>, "summarize" | "signal"> & {
  summarize?: Summarize<M>;
};
