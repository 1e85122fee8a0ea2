import { expectedMessage } from "../validation/describe-value.js";
import { forEachToolCall, forEachToolResult } from "./messages.js";

/** A tool call without its result, or a result without its call. */
export interface ToolPairProblem {
  /** Index of the message holding the result (`orphan-result`) or the call (`missing-result`). */
  index: number;
  kind: "orphan-result" | "missing-result";
  /** The tool call id. */
  id: string;
}

/**
 * Lists the broken tool pairs of a transcript in any of the four dialects: results whose call is
 * not in an earlier message (`orphan-result`) and calls never answered later (`missing-result`).
 * Providers reject a request with either.
 *
 * @param messages - the transcript
 * @returns the problems in transcript order; empty when every pair is whole
 * @example
 * ```ts
 * findToolPairProblems([{ role: "tool", tool_call_id: "c1", content: "ok" }]);
 * // [{ index: 0, kind: "orphan-result", id: "c1" }]
 * ```
 */
export function findToolPairProblems(messages: readonly object[]): ToolPairProblem[] {
  if (!Array.isArray(messages)) throw new TypeError(expectedMessage("messages", "an array", messages));
  const problems: ToolPairProblem[] = [];
  // id → index of the message that called it, until a result answers it.
  const unanswered = new Map<string, number>();
  const called = new Set<string>();
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index];
    if (typeof message !== "object" || message === null) continue;
    // Calls first: an AI SDK assistant message may hold a provider-executed call and its result.
    forEachToolCall(message, (id) => {
      called.add(id);
      unanswered.set(id, index);
    });
    forEachToolResult(message, (id) => {
      if (called.has(id)) unanswered.delete(id);
      else problems.push({ index, kind: "orphan-result", id });
    });
  }
  for (const [id, index] of unanswered) problems.push({ index, kind: "missing-result", id });
  return problems.sort((a, b) => a.index - b.index);
}
