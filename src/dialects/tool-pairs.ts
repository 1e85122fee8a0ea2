import { expectedMessage } from "../ground/describe-value.js";
import { walkToolLinks } from "./tool-links.js";

/** A tool call without its result, a result without its call, or an id used twice. */
export interface ToolPairProblem {
  /** Index of the message holding the result (`orphan-result`, `duplicate-result`) or the call (`missing-result`, `duplicate-call`). */
  index: number;
  /**
   * `orphan-result`: no earlier call; `missing-result`: never answered; `duplicate-result`: a second
   * result for a call already answered; `duplicate-call`: a second call with an id already used.
   */
  kind: "orphan-result" | "missing-result" | "duplicate-result" | "duplicate-call";
  /** The tool call id (empty for an id-less Gemini call or result). */
  id: string;
}

/**
 * Lists the broken tool pairs of a transcript in any dialect: results whose call is not in an
 * earlier message (`orphan-result`), calls never answered later (`missing-result`), second results
 * for an answered call (`duplicate-result`) and second calls with an id already used
 * (`duplicate-call`). Providers reject a request with any of them.
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
  const answered = new Set<string>();
  walkToolLinks(
    messages,
    ({ index, key, id }) => {
      if (called.has(key)) problems.push({ index, kind: "duplicate-call", id: id ?? "" });
      called.add(key);
      answered.delete(key);
      unanswered.set(key, { index, id: id ?? "" });
    },
    ({ index, key, id }) => {
      if (answered.has(key)) problems.push({ index, kind: "duplicate-result", id: id ?? "" });
      else if (called.has(key)) {
        unanswered.delete(key);
        answered.add(key);
      } else problems.push({ index, kind: "orphan-result", id: id ?? "" });
    },
  );
  for (const { index, id } of unanswered.values()) problems.push({ index, kind: "missing-result", id });
  return problems.sort((a, b) => a.index - b.index);
}
