import type { DialectName } from "../dialects/dialect.js";
import { readTranscript } from "../dialects/transcript-format.js";
import { estimateTokens } from "../counting/estimate-tokens.js";
import { planCompaction, type PlanAction, type PlanReason } from "../plan/plan.js";
import { findToolPairProblems, type ToolPairProblem } from "../dialects/tool-pairs.js";
import { printable } from "./format-report.js";
import { assertTranscript } from "../dialects/validate-messages.js";
import { resolveOptions } from "../ground/options.js";
import type { PlanOptions } from "../ground/types.js";
import { estimateRiskOf, type EstimateRisk } from "./estimate-risk.js";

/** Messages and tokens of one part of a plan. */
export interface PartSize {
  messages: number;
  tokens: number;
}

/** What `context-compactor inspect` reports, as printed with `--json`. */
export interface InspectReport {
  file: string;
  dialect: DialectName;
  messages: number;
  tokens: number;
  toolPairProblems: ToolPairProblem[];
  /** What the texts are, what o200k would likely count, and the class that makes the estimate low, if one does. */
  estimate: EstimateRisk;
  /** Absent without `--max-tokens`. */
  budget?: { maxTokens: number; keepTail: number; maxSummaryTokens: number };
  /** Absent without `--max-tokens`. */
  plan?: { action: PlanAction; reason: PlanReason; head: PartSize; older: PartSize; tail: PartSize };
  /** The split a forced compaction (`/compact`) would make, when the transcript is under budget. */
  ifForced?: { head: PartSize; older: PartSize; tail: PartSize };
  /** What the head leaves of the budget for the summary and the tail, in words. Absent without `--max-tokens`. */
  room?: string;
}

/** The budget and the plan's options, from the command's flags. */
export interface InspectOptions {
  maxTokens?: number | undefined;
  keepTail?: number | undefined;
  maskToolResults?: boolean | undefined;
  splitInsideTurn?: boolean | undefined;
  /** The message format, when it must not be guessed (`--format`). */
  format?: DialectName | undefined;
}

/** The options of the plan the report shows, or undefined without a budget. */
export function planOptionsOf(options: InspectOptions): PlanOptions<object> | undefined {
  if (options.maxTokens === undefined) return undefined;
  const plan: PlanOptions<object> = { maxTokens: options.maxTokens };
  if (options.keepTail !== undefined) plan.keepTail = options.keepTail;
  if (options.maskToolResults) plan.ladder = { ...plan.ladder, maskToolResults: true };
  if (options.splitInsideTurn) plan.ladder = { ...plan.ladder, splitInsideTurn: true };
  if (options.format !== undefined) plan.format = options.format;
  return plan;
}

const size = (messages: readonly object[]): PartSize => ({
  messages: messages.length,
  tokens: estimateTokens(messages),
});

/** Reads a transcript from parsed JSON: an array of messages, or an object with a `messages` array. */
export function transcriptFrom(json: unknown): object[] {
  const messages = Array.isArray(json) ? json : (json as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages))
    throw new TypeError("Expected a JSON array of messages, or an object with a `messages` array");
  assertTranscript(messages);
  return messages;
}

/** Builds the report of a transcript under a budget. */
export function inspectTranscript(
  file: string,
  messages: object[],
  inspectOptions: InspectOptions = {},
): InspectReport {
  const report: InspectReport = {
    file,
    // Every message must read as the format (named, or detected): one that no format holds is refused by index.
    dialect: readTranscript(messages, inspectOptions.format).name,
    messages: messages.length,
    tokens: estimateTokens(messages),
    // Ids come from the file: shortened here too, so that `--json` prints no crafted megabyte either.
    toolPairProblems: findToolPairProblems(messages).map((problem) => ({ ...problem, id: printable(problem.id) })),
    estimate: { likelyTokens: 0, content: [] },
  };
  report.estimate = estimateRiskOf(messages, report.tokens);
  const options = planOptionsOf(inspectOptions);
  if (options === undefined) return report;
  const { maxTokens, keepTail, maxSummaryTokens } = resolveOptions<object>(options, "plan");
  const plan = planCompaction(messages, options);
  report.tokens = plan.tokensBefore;
  report.budget = { maxTokens, keepTail, maxSummaryTokens };
  report.plan = {
    action: plan.action,
    reason: plan.reason,
    head: size(plan.head),
    older: size(plan.older),
    tail: size(plan.tail),
  };
  let head = report.plan.head;
  if (plan.action === "none") {
    const forced = planCompaction(messages, { ...options, force: true });
    report.ifForced = { head: size(forced.head), older: size(forced.older), tail: size(forced.tail) };
    head = report.ifForced.head;
  }
  report.room = roomOf(head.tokens, report.budget);
  return report;
}

/**
 * Why the tail is as small as it is: the budget less the head (the system prompt) and the room kept
 * for the summary is the most the tail may take, when that is less than `keepTail`.
 */
function roomOf(headTokens: number, budget: { maxTokens: number; keepTail: number; maxSummaryTokens: number }): string {
  const left = Math.max(0, budget.maxTokens - headTokens - budget.maxSummaryTokens);
  const share = Math.round((100 * headTokens) / budget.maxTokens);
  const base = `the head (system prompt) takes ${headTokens} of the ${budget.maxTokens}-token budget (${share}%), and the summary up to ${budget.maxSummaryTokens}`;
  return left < budget.keepTail
    ? `${base}: the tail may take ${left} tokens, less than keepTail (${budget.keepTail}), because of the head and the summary`
    : `${base}: the tail may take up to keepTail (${budget.keepTail}) tokens`;
}
