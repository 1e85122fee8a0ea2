import type { DialectName } from "../dialects/dialect.js";
import { detectDialect } from "../dialects/registry.js";
import { estimateTokens } from "../counting/estimate-tokens.js";
import { planCompaction, type PlanAction, type PlanReason } from "../plan/plan.js";
import { findToolPairProblems, type ToolPairProblem } from "../dialects/tool-pairs.js";
import { printable } from "./format-report.js";
import { assertTranscript } from "../validation/validate-messages.js";

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
  /** Absent without `--max-tokens`. */
  budget?: { maxTokens: number; keepTail: number };
  /** Absent without `--max-tokens`. */
  plan?: { action: PlanAction; reason: PlanReason; head: PartSize; older: PartSize; tail: PartSize };
  /** The split a forced compaction (`/compact`) would make, when the transcript is under budget. */
  ifForced?: { head: PartSize; older: PartSize; tail: PartSize };
}

const size = (messages: readonly object[]): PartSize => ({ messages: messages.length, tokens: estimateTokens(messages) });

/** Reads a transcript from parsed JSON: an array of messages, or an object with a `messages` array. */
export function transcriptFrom(json: unknown): object[] {
  const messages = Array.isArray(json) ? json : (json as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages)) throw new TypeError("Expected a JSON array of messages, or an object with a `messages` array");
  assertTranscript(messages);
  return messages;
}

/** Builds the report of a transcript under a budget. */
export function inspectTranscript(file: string, messages: object[], maxTokens?: number, keepTail?: number): InspectReport {
  const report: InspectReport = {
    file,
    dialect: detectDialect(messages),
    messages: messages.length,
    tokens: estimateTokens(messages),
    // Ids come from the file: shortened here too, so that `--json` prints no crafted megabyte either.
    toolPairProblems: findToolPairProblems(messages).map((problem) => ({ ...problem, id: printable(problem.id) })),
  };
  if (maxTokens === undefined) return report;
  const options = keepTail === undefined ? { maxTokens } : { maxTokens, keepTail };
  const plan = planCompaction(messages, options);
  report.tokens = plan.tokensBefore;
  report.budget = { maxTokens, keepTail: keepTail ?? Math.floor(maxTokens / 2) };
  report.plan = { action: plan.action, reason: plan.reason, head: size(plan.head), older: size(plan.older), tail: size(plan.tail) };
  if (plan.action === "none") {
    const forced = planCompaction(messages, { ...options, force: true });
    report.ifForced = { head: size(forced.head), older: size(forced.older), tail: size(forced.tail) };
  }
  return report;
}
