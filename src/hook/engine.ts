import { FLUSH_TO_MEMORY_REMINDER, SUMMARY_PREFIX } from "../ground/constants.js";
import type { MessageFormats } from "../dialects/format-claims.js";
import { summaryRoleIn } from "../dialects/library-messages.js";
import { CompactionError, isCompactionError } from "../ground/errors.js";
import type { Settings } from "../ground/options.js";
import { UsageHistory } from "../counting/usage-anchor.js";
import { overBudgetCause, planWithSettings, type EnginePlan } from "../plan/plan.js";
import { SMALLEST_SUMMARY } from "../plan/summary-tokens.js";
import { runSummarize } from "./run-summarize.js";
import { withRequest } from "./compaction-requests.js";
import type { SummarizerAccount } from "../ground/summarizer-account.js";
import { warnOverBudgetOnce } from "./over-budget-warning.js";
import { sayUsage } from "./usage-notice.js";
import { placeSummary, providerSummaryIn } from "./place-replacement.js";
import { summarySections, type SummarySections } from "./summary-sections-of.js";
import type {
  AnyMessage,
  CompactionResult,
  CompactionStrategy,
  OverBudgetCause,
  ReportedUsage,
  SummaryReplacement,
} from "../ground/types.js";

const now = (): number => globalThis.performance?.now() ?? Date.now();

/** What the engine did: the result, and which input messages the summary replaced (for `statefulCompactor`). */
export interface CompactionOutcome<M extends AnyMessage> extends CompactionResult<M> {
  strategy: CompactionStrategy;
  /** The messages the hook added: the summary, and the flush reminder when on. */
  added: object[];
  /** Index in the input where the kept suffix starts. */
  tailStart: number;
  /** Indices of input messages before `tailStart` kept verbatim. */
  pinned: number[];
  /** What `summarize` returned when it was messages (`added`) rather than a text. */
  replacement?: SummaryReplacement;
}

/** A result made without `summarize`: old tool results masked, or oversized tail payloads cut. */
function finishWithoutSummary<M extends AnyMessage>(
  plan: EnginePlan<M>,
  settings: Settings<M>,
  startedAt: number,
  refused?: unknown,
): CompactionOutcome<M> {
  const messages = plan.head.concat(plan.tail);
  const strategy = plan.action === "mask" ? "mask" : "truncate";
  const tokensAfter = Math.ceil(
    plan.fixedTokens + (strategy === "mask" ? plan.tokens.total : plan.tokens.countList(messages)),
  );
  const overBudget = tokensAfter > settings.maxTokens;
  const said = saidOverBudget(plan, settings, tokensAfter);
  settings.onCompacted?.({
    strategy,
    tokensBefore: plan.tokensBefore,
    tokensAfter,
    summarized: 0,
    kept: messages.length,
    durationMs: now() - startedAt,
    overBudget,
    ...said,
    // Said, not silent: the summary that was refused, when the payloads were cut instead.
    ...(refused === undefined ? {} : { error: refused }),
  });
  return {
    messages,
    strategy,
    added: [],
    tailStart: plan.tailStart,
    pinned: plan.pinned,
    ...(overBudget ? { overBudget: true, ...said } : {}),
  };
}

/** Over budget after all: its cause, warned of once per process (`events.warnOverBudget`); nothing when within. */
function saidOverBudget<M extends AnyMessage>(
  plan: EnginePlan<M>,
  settings: Settings<M>,
  tokens: number,
): { overBudgetCause?: OverBudgetCause } {
  if (tokens <= settings.maxTokens) return {};
  // What travels beside the messages leaves them less than `maxTokens`.
  const cause = overBudgetCause(plan, { ...settings, maxTokens: settings.maxTokens - plan.fixedTokens });
  warnOverBudgetOnce(settings.warnOverBudget, tokens, settings.maxTokens, cause);
  return { overBudgetCause: cause };
}

/** A summary over the room left for it: the one refusal a merge of the earlier sections can mend. */
class SummaryTooLarge extends CompactionError {}

/**
 * A summary must fit the room left for it and be smaller than what it replaces; otherwise the
 * compaction fails like any bad summary, and the transcript stays as it was. The refusal names the
 * limit `summarize` was given (`given`: its `context.maxSummaryTokens`).
 */
function checkSummarySize<M extends AnyMessage>(summary: M, plan: EnginePlan<M>, given: number): void {
  const summaryTokens = Math.ceil(plan.tokens.countList([summary]));
  if (summaryTokens > plan.summaryLimit) {
    throw new SummaryTooLarge(
      "INVALID_SUMMARY",
      `summarize returned a summary of ${summaryTokens} tokens with its message, over the ${given} it was given (\`context.maxSummaryTokens\`); the transcript was left as it was`,
    );
  }
  const replaced = Math.ceil(plan.olderTokens ?? plan.tokens.countList(plan.older));
  if (summaryTokens >= replaced) {
    throw new CompactionError(
      "INVALID_SUMMARY",
      `summarize returned a summary of ${summaryTokens} tokens, not smaller than the ${replaced} tokens it replaces; the transcript was left as it was`,
    );
  }
}

/**
 * What the summary's own text may take (`context.maxSummaryTokens`), a whole number from 1: the
 * prefix, the seal and the message around it are already counted, and so is a calibration that
 * counts more than the estimate (`usage`), so that a summarizer that writes exactly this many
 * tokens, as the estimate or the provider counts them, fits the limit it is checked against.
 */
function summaryTextBudget<M extends AnyMessage>(plan: EnginePlan<M>, summaryMessage: SummaryMaker): number {
  const framing = Math.ceil(plan.tokens.countList([summaryMessage.make("") as M]));
  return Math.max(1, Math.floor((Math.floor(plan.summaryLimit) - framing) / Math.max(1, plan.tokens.scale)));
}

/**
 * For `onError: "fallback"`: the model-free summary (`fallback`) of `older`, as large as the room for the
 * summary allows and smaller than what it replaces; undefined when not even a short one fits.
 */
function modelFreeSummary<M extends AnyMessage>(
  plan: EnginePlan<M>,
  settings: Settings<M>,
  { sections }: { sections: SummarySections<M> },
): object | undefined {
  let budget = sections.plan.budget;
  for (let attempt = 0; attempt < 8 && budget >= 1; attempt++) {
    const text = settings.fallback!(sections.older, {
      maxTokens: budget,
      previousSummary: sections.previousSummary,
      keptSummary: sections.keptSummary,
    });
    const summary = sections.make(text);
    try {
      if (text.trim() === "") return undefined;
      checkSummarySize(summary as M, plan, budget);
      return summary;
    } catch {
      // A counter other than the estimate may count the text higher: ask for less.
      budget = Math.floor(budget * 0.7);
    }
  }
  return undefined;
}

/**
 * The first of `settings.summarySuffix`'s texts that leaves room for a summary of a few words
 * within the plan's limit, or none: a suffix never makes the summary itself impossible.
 */
function fittingSuffix<M extends AnyMessage>(plan: EnginePlan<M>, settings: Settings<M>, seal: boolean): string {
  for (const suffix of settings.summarySuffix?.(plan.tailStart) ?? []) {
    if (
      Math.ceil(plan.tokens.countList([summaryMaker(plan, settings, seal, suffix).make(SMALLEST_SUMMARY) as M])) <=
      plan.summaryLimit
    )
      return suffix;
  }
  return "";
}

/** Makes the summary message in the transcript's format; a user-role one sealed, unless the store vouches for it. */
interface SummaryMaker {
  make(text: string): object;
}

/** The summary message in the plan's format; with `cacheMarker`, as the provider caches it (the head and the kept tail hold the request's other markers). */
function summaryMaker<M extends AnyMessage>(
  plan: EnginePlan<M>,
  settings: Settings<M>,
  seal: boolean,
  suffix = "",
): SummaryMaker {
  const dialect = plan.dialect;
  const role = summaryRoleIn(dialect, settings.summaryRole);
  const sealer = seal && role !== "system" ? settings.sealer : undefined;
  return {
    make: (text) => {
      const message = dialect.textMessage(
        settings.summaryRole,
        SUMMARY_PREFIX + (sealer === undefined ? text + suffix : sealer.seal(text + suffix, role)),
      );
      return settings.cacheMarker?.(message, dialect.name, [plan.head, plan.tail]) ?? message;
    },
  };
}

/** What one call of the engine brings besides the transcript and the settings. */
export interface EngineCall<M extends AnyMessage> {
  /** Aborts the summary in progress. */
  signal?: AbortSignal;
  /** The provider's reported usage of the last request, in terms of `messages`. */
  usage?: ReportedUsage;
  /**
   * Where the transcript remembers its compaction. Left out (the plain hook): in the transcript
   * itself, as a sealed summary. Given (`statefulCompactor`): in a store, and these are the
   * summary messages it handed back, which are its own and need no seal.
   */
  stored?: ReadonlySet<object>;
  /** The plan, when the caller had to look at it first (a lease is taken only to summarize). */
  planned?: EnginePlan<M>;
  /** What the hook learnt from earlier usage reports, and has said of them; a call of its own by default. */
  history?: UsageHistory;
  /**
   * The readable text of the stored replacement in force (a provider's compaction the store keeps),
   * for `previousSummary` when the replacement itself cannot be read.
   */
  storedText?: string;
  /** Hears the transcript's count as the plan measured it, under budget too (for `compact_context`'s minimum). */
  measured?: (tokens: number) => void;
  /** The formats of the messages, when the caller has already read them (`statefulCompactor` reads its input first). */
  formats?: MessageFormats;
}

/**
 * The hook's work: plan, summarize, assemble. The input is never changed; on any failure it
 * rejects (or, with `onError: "skip"`, resolves null) before anything is assembled.
 */
export async function runCompaction<M extends AnyMessage>(
  messages: readonly M[],
  settings: Settings<M>,
  call: EngineCall<M> = {},
): Promise<CompactionOutcome<M> | null> {
  const { signal, usage, stored, planned, history = new UsageHistory() } = call;
  const startedAt = now();
  const plan = planned ?? planWithSettings(messages, settings, { usage, stored, history, formats: call.formats });
  sayUsage(plan, settings, history);
  const { tokensBefore } = plan;
  call.measured?.(tokensBefore);
  if (plan.action === "none") return null;
  if (plan.action === "skip") {
    const reason = plan.reason as "nothing-to-summarize" | "no-progress";
    const said = saidOverBudget(plan, settings, tokensBefore);
    settings.onSkipped?.(
      said.overBudgetCause === undefined
        ? { reason, tokensBefore }
        : { reason, tokensBefore, overBudget: true, ...said },
    );
    return null;
  }
  if (plan.action === "mask" || plan.action === "truncate") return finishWithoutSummary(plan, settings, startedAt);

  const { head, older, tail } = plan;
  settings.onCompacting?.({ tokensBefore, older: older.length, tail: tail.length });
  // The summary is written in the transcript's own format (a Gemini content, a Bedrock message, …).
  const dialect = plan.dialect;
  const summaryMessage = summaryMaker(
    plan,
    settings,
    stored === undefined,
    fittingSuffix(plan, settings, stored === undefined),
  );
  let added: object[];
  let fallbackFrom: unknown;
  let account: SummarizerAccount = { failures: [] };
  let keptHead = head;
  let replacement: SummaryReplacement | undefined;
  const textBudget = summaryTextBudget(plan, summaryMessage);
  // Earlier summaries stay as they are; the new one is a section after them, or merges the newest.
  const sectionsOf = (mergeAll: boolean) =>
    summarySections(plan, settings, {
      summaryMessage,
      fallbackText: providerSummaryIn(head, plan.dialect) ?? call.storedText,
      room: textBudget,
      mergeAll,
    });
  let sections = sectionsOf(false);
  const ask = async (of: SummarySections<M>) => {
    const summary = await runSummarize(
      settings.summarize as NonNullable<Settings<M>["summarize"]>,
      of.older,
      {
        instructions:
          plan.requested === undefined
            ? settings.instructions
            : withRequest(settings, plan.requested.note).instructions,
        previousSummary: of.previousSummary,
        ...(of.plan.merging.length === 0 ? {} : { merging: of.plan.merging.map((section) => section.text) }),
        ...(of.keptSummary === undefined ? {} : { keptSummary: of.keptSummary }),
        ...(of.earlier.length === 0 ? {} : { earlier: of.earlier }),
        tokensBefore,
        maxTokens: settings.maxTokens,
        keepTail: settings.keepTail,
        head,
        requestPrefix: messages.slice(0, plan.tailStart),
        maxSummaryTokens: of.plan.budget,
      },
      { timeoutMs: settings.timeoutMs, signal, account: (told) => (account = told) },
    );
    const placed = placeSummary(summary, plan, of.make);
    if (placed.replacement === undefined) checkSummarySize(placed.added[0] as M, plan, of.plan.budget);
    return placed;
  };
  try {
    let placed: Awaited<ReturnType<typeof ask>>;
    try {
      placed = await ask(sections);
    } catch (error) {
      // A section refused for its size merges with every earlier one, and is asked again once, with
      // the whole room: a summarizer that cannot write as short as the room left never sticks.
      if (!(error instanceof SummaryTooLarge) || sections.plan.kept.length === 0) throw error;
      sections = sectionsOf(true);
      placed = await ask(sections);
    }
    ({ head: keptHead, added, replacement } = placed);
    // An unreadable replacement (OpenAI's encrypted item) gets a readable shadow, the model-free
    // summary of what it replaced (the earlier summaries too): what a later summarizer rolls
    // forward, and what is sent instead when the model or provider changes.
    if (replacement !== undefined && replacement.text === undefined && settings.fallback !== undefined)
      replacement = {
        ...replacement,
        text: settings.fallback(sections.older, { maxTokens: textBudget, previousSummary: sections.earlierText }),
      };
  } catch (error) {
    // An abort means stop: no fallback stands in for it.
    const fallback =
      settings.onError === "fallback" && isCompactionError(error) && error.code !== "ABORTED"
        ? modelFreeSummary(plan, settings, { sections })
        : undefined;
    // A refused summary is no reason to send nothing, or more than the budget: when the older part
    // kept as it is and the tool payloads cut fit, that is the result.
    const withoutSummary =
      fallback === undefined && isCompactionError(error) && error.code === "INVALID_SUMMARY"
        ? plan.withoutSummary?.()
        : undefined;
    if (withoutSummary !== undefined) return finishWithoutSummary(withoutSummary, settings, startedAt, error);
    if (fallback !== undefined) {
      added = [fallback];
      fallbackFrom = error;
      account = { madeBy: { name: settings.fallback!.name || "fallback" }, failures: account.failures };
    } else if (settings.onError === "skip" && isCompactionError(error)) {
      settings.onSkipped?.({ reason: "error", tokensBefore, error });
      return null;
    } else throw error;
  }
  const strategy = fallbackFrom === undefined ? "summarize" : "fallback";

  // Where turns must alternate, the reminder is a second block of the summary, and an assistant reply follows.
  // Replacement messages go in exactly as given, with nothing around them.
  const reply = replacement === undefined ? dialect.replyToSummary?.() : undefined;
  if (settings.flushToMemory && replacement === undefined) {
    const [summary] = added;
    if (reply !== undefined && dialect.withText !== undefined && summary !== undefined)
      added[0] = dialect.withText(summary, FLUSH_TO_MEMORY_REMINDER);
    else added.push(dialect.textMessage(settings.summaryRole, FLUSH_TO_MEMORY_REMINDER));
  }
  if (reply !== undefined) added.push(reply);
  const result = (keptHead as object[]).concat(added, tail) as M[];
  const tokensAfter = Math.ceil(
    plan.fixedTokens +
      (plan.keptTokens === undefined || keptHead !== head
        ? plan.tokens.countList(result)
        : plan.keptTokens + plan.tokens.countList(added as M[])),
  );
  const overBudget = tokensAfter > settings.maxTokens;
  const said = saidOverBudget(plan, settings, tokensAfter);
  settings.onCompacted?.({
    strategy,
    tokensBefore,
    tokensAfter,
    summarized: older.length,
    kept: keptHead.length + tail.length,
    durationMs: now() - startedAt,
    overBudget,
    ...said,
    ...(fallbackFrom === undefined ? {} : { error: fallbackFrom }),
    ...(account.madeBy === undefined ? {} : { madeBy: account.madeBy }),
    ...(account.failures.length === 0 ? {} : { failures: account.failures }),
  });
  return {
    messages: result,
    strategy,
    added,
    tailStart: plan.tailStart,
    pinned: plan.pinned,
    ...(overBudget ? { overBudget: true, ...said } : {}),
    ...(replacement ? { replacement } : {}),
  };
}
