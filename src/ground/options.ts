import { optionalAbortSignal } from "./abort-signal.js";
import { optionalMilliseconds } from "./deadline.js";
import { DIALECT_NAMES, MASKED_TOOL_RESULT } from "./constants.js";
import type {
  AnyMessage,
  CacheMarker,
  CompactToolReader,
  CompactedEvent,
  CompactingEvent,
  CountTokens,
  DialectName,
  ModelFreeSummary,
  ProviderVerdict,
  ProviderVerdictReader,
  SkippedEvent,
  Summarize,
  UsageEvent,
} from "./types.js";
import { describeValue, expectedMessage, typeName } from "./describe-value.js";
import { rejectUnknownKeys } from "./unknown-keys.js";
import { integer, oneOf, optionalBoolean, optionalFunction, optionalInteger, optionalOneOf } from "./checks.js";
import { isPlainObject } from "./plain-object.js";

/** Seals a user-role summary and verifies one, under a hook's key (`sealerOf` in text/seal-signer.ts). */
export interface Sealer {
  /** `body` followed by its seal, for a summary message of `role`. */
  seal(body: string, role: string): string;
  /** The body of `text` when it ends in a seal that verifies for `role`; undefined otherwise. */
  verify(text: string, role: string): string | undefined;
}

/** Options after validation, with every default filled in. */
export interface Settings<M extends AnyMessage = AnyMessage> {
  maxTokens: number;
  keepTail: number;
  summarize: Summarize<M> | undefined;
  /** `undefined` means the built-in estimator, whose per-message counts allow a linear tail search. */
  countTokens: CountTokens<M> | undefined;
  flushToMemory: boolean;
  /**
   * `"auto"` is held as `"system"`: each format's `textMessage` gives `"user"` where its messages
   * cannot hold a system message, so the two ask for the same message.
   */
  summaryRole: "system" | "user";
  /** The pinned message format, or undefined to detect it. */
  format: DialectName | undefined;
  /** Tokens sent beside the messages, counted as the request's fixed part while no usage measures it (see `messageBudgetOf`). */
  reserveTokens: number;
  /** The caller's boundary rule; undefined means the default (a user turn that carries no tool result), which the plan applies. */
  isBoundary: ((message: M) => boolean) | undefined;
  timeoutMs: number | undefined;
  onError: "throw" | "skip" | "fallback";
  /** The model-free summary for `onError: "fallback"` and for a replacement's readable shadow; undefined when none was given. */
  fallback: ModelFreeSummary | undefined;
  mask: { keepRecent: number; placeholder: string } | undefined;
  /** The least masking alone must free to be used instead of a summary. */
  minFreedTokens: number;
  splitInsideTurn: boolean;
  truncateToolResults: boolean;
  maxSummaryTokens: number;
  onCompacting: ((event: CompactingEvent) => void) | undefined;
  onCompacted: ((event: CompactedEvent) => void) | undefined;
  onSkipped: ((event: SkippedEvent) => void) | undefined;
  warnOverBudget: boolean;
  onProviderVerdict: ((verdict: ProviderVerdict) => void) | undefined;
  /** The verdicts' reader (`verdicts`, checked by `compactor`); undefined when the hook reads only a response's usage and stop. */
  verdicts?: ProviderVerdictReader | undefined;
  onUsage: ((event: UsageEvent) => void) | undefined;
  /**
   * The agent's own tool (`compactTool`): the name its calls are read under in the transcript, and
   * the least a compaction it asks for must free; undefined when its calls are not read.
   */
  compactTool: (Omit<CompactToolReader, "minTokens"> & { minTokens: number }) | undefined;
  /** Places the provider's cache marker in the summary (`cacheMarker`); undefined: no marker. */
  cacheMarker: CacheMarker | undefined;
  force: boolean;
  instructions: string | undefined;
  signal: AbortSignal | undefined;
  /** The key of this hook's seals on user-role summaries: from `signingKey`, or random per hook. */
  sealKey: Uint8Array | undefined;
  /**
   * Seals and verifies user-role summaries under `sealKey`: set by the entry points that seal
   * (`compactor`, `compact`, `planCompaction`, with `sealerOf`); `statefulCompactor`'s summaries are
   * vouched for by its store. Undefined: no user-role summary is sealed or verifies.
   */
  sealer?: Sealer | undefined;
  /**
   * Texts that may end the summary message, longest first, given where the kept suffix starts (set
   * by `statefulCompactor` with `archive: true`); part of the summary, so it counts in its budget.
   * The first that leaves room for a summary of a few words within the plan's limit ends it; none
   * does when none leaves that room.
   */
  summarySuffix?: ((tailStart: number) => readonly string[]) | undefined;
  /** An earlier summary's text without the suffix that ended it (set with `summarySuffix`'s maker): the sections the next summary keeps. */
  withoutSummarySuffix?: ((text: string) => string) | undefined;
}

/** A fresh random key for one hook's seals; undefined where the runtime has no `crypto.getRandomValues` (then no user-role summary verifies). */
function randomKey(): Uint8Array | undefined {
  const crypto = globalThis.crypto;
  return typeof crypto?.getRandomValues === "function" ? crypto.getRandomValues(new Uint8Array(32)) : undefined;
}

/** Which entry point the options were given to: they differ in the keys they accept. */
export type OptionsKind = "compactor" | "compact" | "plan" | "stateful";

const compactorKeys = [
  "maxTokens",
  "summarize",
  "keepTail",
  "countTokens",
  "reserveTokens",
  "format",
  "onError",
  "fallback",
  "signingKey",
  "summary",
  "ladder",
  "events",
  "compactTool",
  "verdicts",
  "cacheMarker",
] as const;
const summaryKeys = ["maxTokens", "role", "flushToMemory", "timeoutMs"] as const;
const ladderKeys = ["maskToolResults", "splitInsideTurn", "truncateToolResults", "isBoundary"] as const;
const eventKeys = [
  "onCompacting",
  "onCompacted",
  "onSkipped",
  "warnOverBudget",
  "onUsage",
  "onProviderVerdict",
] as const;
/** The events only `statefulCompactor` and the adapters tell (validated there). */
const statefulEventKeys = ["onStoreError"] as const;
const maskKeys = ["keepRecent", "placeholder", "minFreedTokens"] as const;

const callKeys = ["force", "instructions", "signal", "usage"] as const;
/** The keys `statefulCompactor` and the adapters take besides those of `compactor` (validated there). */
const statefulKeys = ["store", "conversationId", "storeTimeoutMs", "maxBranches", "archive"] as const;
function rejectMisplacedKeys(object: object, known: readonly string[], prefix: string): void {
  for (const key of Object.keys(object)) {
    if (known.includes(key)) continue;
    if (prefix === "events." && (statefulEventKeys as readonly string[]).includes(key)) {
      throw new TypeError(
        `Unknown option \`events.${key}\`: it belongs to \`statefulCompactor()\` and the adapters built on it, which keep state in a store.`,
      );
    }
    if (prefix === "" && (callKeys as readonly string[]).includes(key)) {
      throw new TypeError(
        `Unknown option \`${key}\`: it belongs to a single call, \`compact(messages, { ${key} })\`, not to \`compactor()\`.`,
      );
    }
  }
}

/** A group of options: undefined reads as `{}`; anything but a plain object is a `TypeError` naming it. */
function group(value: unknown, name: string, known: readonly string[]): Record<string, unknown> {
  if (value === undefined) return {};
  if (!isPlainObject(value)) throw new TypeError(expectedMessage(name, "an object", value));
  rejectMisplacedKeys(value, known, `${name}.`);
  rejectUnknownKeys(value, known, `${name}.`);
  return value;
}

/** An optional integer from 0 that must stay below `maxTokens` (`keepTail`, `reserveTokens`). */
function belowBudget(value: unknown, name: string, maxTokens: number): number | undefined {
  if (value === undefined) return undefined;
  const tokens = integer(value, name, 0);
  if (tokens >= maxTokens) {
    throw new RangeError(
      `Expected \`${name}\` to be less than \`maxTokens\` (${maxTokens}), got ${describeValue(tokens)} (number)`,
    );
  }
  return tokens;
}

function resolveMask(value: unknown, maxTokens: number): Pick<Settings, "mask" | "minFreedTokens"> {
  const name = "ladder.maskToolResults";
  const minFreedTokens = Math.floor(maxTokens / 4);
  if (value === undefined || value === false) return { mask: undefined, minFreedTokens };
  if (value === true) return { mask: { keepRecent: 3, placeholder: MASKED_TOOL_RESULT }, minFreedTokens };
  if (!isPlainObject(value)) throw new TypeError(expectedMessage(name, "a boolean or an object", value));
  const { keepRecent = 3, placeholder = MASKED_TOOL_RESULT, minFreedTokens: minFreed } = group(value, name, maskKeys);
  integer(keepRecent, `${name}.keepRecent`, 0);
  if (typeof placeholder !== "string") {
    throw new TypeError(expectedMessage(`${name}.placeholder`, "a non-empty string", placeholder));
  }
  if (placeholder.trim() === "") {
    throw new RangeError(expectedMessage(`${name}.placeholder`, "a non-empty string", placeholder));
  }
  return {
    mask: { keepRecent: keepRecent as number, placeholder },
    minFreedTokens: optionalInteger(minFreed, `${name}.minFreedTokens`, 0, minFreedTokens),
  };
}

/**
 * Validates options once and fills in the defaults. Wrong types throw `TypeError`, values out of
 * range `RangeError`, each naming the option by its full path (`summary.maxTokens`) with the
 * expected and the actual value.
 */
export function resolveOptions<M extends AnyMessage>(options: unknown, kind: OptionsKind): Settings<M> {
  if (!isPlainObject(options)) throw new TypeError(expectedMessage("options", "an object", options));
  const known: readonly string[] =
    kind === "compactor"
      ? compactorKeys
      : kind === "stateful"
        ? [...compactorKeys, ...statefulKeys]
        : [...compactorKeys, ...callKeys];
  rejectMisplacedKeys(options, known, "");
  rejectUnknownKeys(options, known, "");
  const raw = options;
  const summary = group(raw["summary"], "summary", summaryKeys);
  const ladder = group(raw["ladder"], "ladder", ladderKeys);
  const events = group(raw["events"], "events", kind === "stateful" ? [...eventKeys, ...statefulEventKeys] : eventKeys);

  const maxTokens = integer(raw["maxTokens"], "maxTokens", 1);

  const summarize = raw["summarize"];
  if (kind !== "plan" || summarize !== undefined) {
    if (typeof summarize !== "function") throw new TypeError(expectedMessage("summarize", "a function", summarize));
  }

  const keepTail = belowBudget(raw["keepTail"], "keepTail", maxTokens) ?? Math.floor(maxTokens / 2);
  const reserveTokens = belowBudget(raw["reserveTokens"], "reserveTokens", maxTokens) ?? 0;

  const explicitSummaryLimit = summary["maxTokens"] !== undefined;
  const maxSummaryTokens = explicitSummaryLimit
    ? integer(summary["maxTokens"], "summary.maxTokens", 1)
    : Math.max(1, Math.floor((maxTokens - keepTail) / 2));
  const splitInsideTurn = optionalBoolean(ladder["splitInsideTurn"], "ladder.splitInsideTurn", true);
  const truncateToolResults = optionalBoolean(ladder["truncateToolResults"], "ladder.truncateToolResults", true);

  const instructions = raw["instructions"];
  if (instructions !== undefined && typeof instructions !== "string") {
    throw new TypeError(expectedMessage("instructions", "a string", instructions));
  }

  const signingKey = raw["signingKey"];
  if (signingKey !== undefined) {
    // The message names the key's type, never its bytes. A Uint8Array is told by its brand, so
    // one made in another realm (`vm`, an iframe, a worker's transfer) is one too.
    const what = "a non-empty string or Uint8Array";
    const tag = Object.prototype.toString.call(signingKey).slice(8, -1);
    if (typeof signingKey !== "string" && !(ArrayBuffer.isView(signingKey) && tag === "Uint8Array")) {
      throw new TypeError(
        `Expected \`signingKey\` to be ${what}, got a value of type ${typeName(signingKey)}${tag === "Object" || tag === "Array" || typeof signingKey !== "object" ? "" : ` (${tag})`}`,
      );
    }
    if ((signingKey as string | Uint8Array).length === 0)
      throw new RangeError(
        `Expected \`signingKey\` to be ${what}, got an empty ${typeof signingKey === "string" ? "string" : "Uint8Array"}`,
      );
  }

  return {
    maxTokens,
    keepTail,
    summarize: summarize as Summarize<M> | undefined,
    countTokens: optionalFunction<CountTokens<M>>(raw["countTokens"], "countTokens"),
    flushToMemory: optionalBoolean(summary["flushToMemory"], "summary.flushToMemory"),
    summaryRole:
      oneOf(summary.role, "summary.role", ["auto", "system", "user"] as const) === "user" ? "user" : "system",
    format: optionalOneOf(raw["format"], "format", DIALECT_NAMES),
    reserveTokens,
    isBoundary: optionalFunction<(message: M) => boolean>(ladder["isBoundary"], "ladder.isBoundary"),
    timeoutMs: optionalMilliseconds(summary["timeoutMs"], "summary.timeoutMs"),
    ...resolveFallback(raw["onError"], raw["fallback"]),
    ...resolveMask(ladder["maskToolResults"], maxTokens),
    splitInsideTurn,
    truncateToolResults,
    maxSummaryTokens,
    onCompacting: optionalFunction<(event: CompactingEvent) => void>(events["onCompacting"], "events.onCompacting"),
    onCompacted: optionalFunction<(event: CompactedEvent) => void>(events["onCompacted"], "events.onCompacted"),
    onSkipped: optionalFunction<(event: SkippedEvent) => void>(events["onSkipped"], "events.onSkipped"),
    warnOverBudget: optionalBoolean(events["warnOverBudget"], "events.warnOverBudget", true),
    onUsage: optionalFunction<(event: UsageEvent) => void>(events["onUsage"], "events.onUsage"),
    onProviderVerdict: optionalFunction<(verdict: ProviderVerdict) => void>(
      events["onProviderVerdict"],
      "events.onProviderVerdict",
    ),
    force: optionalBoolean(raw["force"], "force"),
    instructions: instructions as string | undefined,
    signal: optionalAbortSignal(raw["signal"], "signal"),
    compactTool: resolveCompactTool(raw["compactTool"], maxTokens),
    cacheMarker: optionalFunction<CacheMarker>(raw["cacheMarker"], "cacheMarker"),
    sealKey:
      signingKey === undefined
        ? randomKey()
        : typeof signingKey === "string"
          ? new TextEncoder().encode(signingKey)
          : new Uint8Array(signingKey as Uint8Array),
  };
}

/**
 * `compactTool`: the reader `readCompactContext` makes (checked here: its name, its minimum, a tenth
 * of `maxTokens` by default: below that, a summary rewrites the provider's cache for little), or
 * none, when the agent's calls are not read.
 */
function resolveCompactTool(value: unknown, maxTokens: number): Settings["compactTool"] {
  if (value === undefined || value === false) return undefined;
  const reader = value as Partial<CompactToolReader> | null;
  if (
    typeof reader !== "object" ||
    reader === null ||
    typeof reader.find !== "function" ||
    typeof reader.plan !== "function"
  ) {
    throw new TypeError(expectedMessage("compactTool", "what `readCompactContext()` returns", value));
  }
  if (typeof reader.name !== "string" || reader.name === "")
    throw new TypeError(expectedMessage("compactTool.name", "a non-empty string", reader.name));
  return {
    name: reader.name,
    find: reader.find,
    plan: reader.plan,
    minTokens: optionalInteger(reader.minTokens, "compactTool.minTokens", 0, Math.floor(maxTokens / 10)),
  };
}

/**
 * `onError` and the model-free summary it falls back to. The summary is passed in (never looked up
 * by name), so a bundle holds it only where it is asked for; `fallback` alone means `"fallback"`.
 */
function resolveFallback(onError: unknown, fallback: unknown): Pick<Settings, "onError" | "fallback"> {
  const given = optionalFunction<ModelFreeSummary>(fallback, "fallback");
  const mode =
    onError === undefined && given !== undefined
      ? "fallback"
      : oneOf(onError, "onError", ["throw", "skip", "fallback"] as const);
  if (mode === "fallback" && given === undefined) {
    throw new TypeError(
      'Expected `fallback` with `onError: "fallback"`: the model-free summary to compact with, for example `fallback: extractiveSummary` (exported by context-compactor)',
    );
  }
  return { onError: mode, fallback: given };
}
