import { FLUSH_TO_MEMORY_REMINDER, SUMMARY_PREFIX } from "./constants.js";
import { transcriptDialect } from "../dialects/registry.js";
import { isCompactionError } from "./errors.js";
import type { Settings } from "./options.js";
import { planWithSettings, type EnginePlan } from "../plan/plan.js";
import { runSummarize } from "./run-summarize.js";
import type { AnyMessage, CompactionResult } from "./types.js";

const now = (): number => globalThis.performance?.now() ?? Date.now();

/** What the engine did: the result, and which input messages the summary replaced (for `statefulCompactor`). */
export interface CompactionOutcome<M extends AnyMessage> extends CompactionResult<M> {
  strategy: "summarize" | "mask";
  /** The messages the hook added: the summary, and the flush reminder when on. */
  added: object[];
  /** Index in the input where the kept suffix starts. */
  tailStart: number;
  /** Indices of input messages before `tailStart` kept verbatim. */
  pinned: number[];
}

function finishMask<M extends AnyMessage>(plan: EnginePlan<M>, settings: Settings<M>, startedAt: number): CompactionOutcome<M> {
  const messages = plan.head.concat(plan.tail);
  const tokensAfter = plan.tokens.total;
  settings.onCompacted?.({
    strategy: "mask",
    tokensBefore: plan.tokensBefore,
    tokensAfter,
    summarized: 0,
    kept: messages.length,
    durationMs: now() - startedAt,
    overBudget: tokensAfter > settings.maxTokens,
  });
  return { messages, strategy: "mask", added: [], tailStart: plan.tailStart, pinned: plan.pinned };
}

/**
 * The hook's work: plan, summarize, assemble. The input is never changed; on any failure it
 * rejects (or, with `onError: "skip"`, resolves null) before anything is assembled.
 */
export async function runCompaction<M extends AnyMessage>(
  messages: readonly M[],
  settings: Settings<M>,
  signal: AbortSignal | undefined,
): Promise<CompactionOutcome<M> | null> {
  const startedAt = now();
  const plan = planWithSettings(messages, settings);
  const { tokensBefore } = plan;
  if (plan.action === "none") return null;
  if (plan.action === "skip") {
    settings.onSkipped?.({ reason: plan.reason as "nothing-to-summarize" | "no-progress", tokensBefore });
    return null;
  }
  if (plan.action === "mask") return finishMask(plan, settings, startedAt);

  const { head, older, tail } = plan;
  settings.onCompacting?.({ tokensBefore, older: older.length, tail: tail.length });
  let text: string;
  try {
    text = await runSummarize(
      settings.summarize as NonNullable<Settings<M>["summarize"]>,
      older,
      {
        instructions: settings.instructions,
        previousSummary: plan.previousSummary,
        tokensBefore,
        maxTokens: settings.maxTokens,
        keepTail: settings.keepTail,
      },
      settings.timeoutMs,
      signal,
    );
  } catch (error) {
    if (settings.onError === "skip" && isCompactionError(error)) {
      settings.onSkipped?.({ reason: "error", tokensBefore, error });
      return null;
    }
    throw error;
  }

  // The summary is written in the transcript's own format (a Gemini content, a Bedrock message, …).
  const dialect = transcriptDialect(messages);
  const added = [dialect.textMessage(settings.summaryRole, SUMMARY_PREFIX + text)];
  if (settings.flushToMemory) added.push(dialect.textMessage(settings.summaryRole, FLUSH_TO_MEMORY_REMINDER));
  const result = (head as object[]).concat(added, tail) as M[];
  const tokensAfter =
    plan.keptTokens === undefined
      ? plan.tokens.countList(result)
      : plan.keptTokens + plan.tokens.countList(added as M[]);
  settings.onCompacted?.({
    strategy: "summarize",
    tokensBefore,
    tokensAfter,
    summarized: older.length,
    kept: head.length + tail.length,
    durationMs: now() - startedAt,
    overBudget: tokensAfter > settings.maxTokens,
  });
  return { messages: result, strategy: "summarize", added, tailStart: plan.tailStart, pinned: plan.pinned };
}
