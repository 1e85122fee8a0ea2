import { expectedMessage } from "../validation/describe-value.js";
import { walkToolLinks } from "./tool-links.js";

/** A tool call without its result, or a result without its call. */
export interface ToolPairProblem {
  /** Index of the message holding the result (`orphan-result`) or the call (`missing-result`). */
  index: number;
  kind: "orphan-result" | "missing-result";
  /** The tool call id (empty for an id-less Gemini call or result). */
  id: string;
}

/**
 * Lists the broken tool pairs of a transcript in any dialect: results whose call is not in an
 * earlier message (`orphan-result`) and calls never answered later (`missing-result`). Providers
 * reject a request with either.
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
  // key → the call, until a result answers it.
  const unanswered = new Map<string, { index: number; id: string }>();
  const called = new Set<string>();
  walkToolLinks(
    messages,
    ({ index, key, id }) => {
      called.add(key);
      unanswered.set(key, { index, id: id ?? "" });
    },
    ({ index, key, id }) => {
      if (called.has(key)) unanswered.delete(key);
      else problems.push({ index, kind: "orphan-result", id: id ?? "" });
    },
  );
  for (const { index, id } of unanswered.values()) problems.push({ index, kind: "missing-result", id });
  return problems.sort((a, b) => a.index - b.index);
}
