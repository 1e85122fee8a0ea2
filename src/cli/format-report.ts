import type { InspectReport, PartSize } from "./inspect.js";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * Removes terminal control characters (escape sequences, carriage returns, …) from text that came
 * from a file, so a crafted id or file name cannot move the cursor or forge a line of the report.
 */
export function stripControl(text: string): string {
  // eslint-disable-next-line no-control-regex
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this strips from a terminal line
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "");
}

/** The longest field of the file printed whole; a longer one (a crafted 5 MB id) is shortened in the middle. */
const LONGEST_FIELD = 200;

/** Text from the file, safe to print: control characters removed, at most `LONGEST_FIELD` characters shown. */
export function printable(text: string): string {
  const head =
    text.length > LONGEST_FIELD * 4 ? `${text.slice(0, LONGEST_FIELD * 2)}${text.slice(-LONGEST_FIELD * 2)}` : text;
  const clean = stripControl(head);
  if (text.length <= LONGEST_FIELD && clean.length <= LONGEST_FIELD) return clean;
  // Short enough that the result is printable as it is: shortening twice changes nothing.
  const half = Math.floor((LONGEST_FIELD - 40) / 2);
  return `${clean.slice(0, half)}…[${text.length} characters]…${clean.slice(-half)}`;
}

const problemLabels = {
  "orphan-result": "orphan result",
  "missing-result": "missing result",
  "duplicate-result": "second result",
  "duplicate-call": "second call",
} as const;

/** One line of fixed width: `#` for the head, `·` for the older part, `=` for the tail, by tokens. */
function planBar(parts: { head: PartSize; older: PartSize; tail: PartSize }, width = 60): string {
  const total = parts.head.tokens + parts.older.tokens + parts.tail.tokens;
  if (total === 0) return `[${" ".repeat(width)}]`;
  const cells = (tokens: number) => (tokens === 0 ? 0 : Math.max(1, Math.round((tokens / total) * width)));
  let head = cells(parts.head.tokens);
  let tail = cells(parts.tail.tokens);
  let older = Math.max(0, width - head - tail);
  // Rounding may overflow the width when every part is tiny; the older part gives way first.
  if (head + older + tail > width) tail = Math.max(0, width - head - older);
  if (parts.older.tokens > 0 && older === 0 && head + tail >= width) {
    older = 1;
    if (tail > head) tail--;
    else head--;
  }
  return `[${"#".repeat(head)}${"·".repeat(older)}${"=".repeat(tail)}]`;
}

function partLines(parts: { head: PartSize; older: PartSize; tail: PartSize }): string[] {
  const row = (name: string, part: PartSize) =>
    `  ${name.padEnd(6)} ${plural(part.messages, "message").padStart(14)} ${`${part.tokens} tokens`.padStart(15)}`;
  return [
    row("head", parts.head),
    row("older", parts.older),
    row("tail", parts.tail),
    `  ${planBar(parts)}  # head  · summarized  = kept tail`,
  ];
}

/** The report as text for a terminal. */
export function formatReport(report: InspectReport): string {
  const lines = [
    `${printable(report.file)}: ${report.dialect}, ${plural(report.messages, "message")}, ${report.tokens} tokens (estimateTokens)`,
  ];
  if (report.estimate.unsafe !== undefined) lines.push(report.estimate.unsafe.message);
  if (report.toolPairProblems.length === 0) lines.push("tool pairs: ok");
  else {
    lines.push(`tool pairs: ${plural(report.toolPairProblems.length, "problem")}`);
    for (const problem of report.toolPairProblems) {
      lines.push(
        `  message ${problem.index}: ${problemLabels[problem.kind]} (${problem.kind}) for call ${printable(problem.id)}`,
      );
    }
  }
  if (report.budget === undefined || report.plan === undefined) {
    lines.push("plan: give --max-tokens N to see what a compaction would keep, summarize and cut");
    return lines.join("\n");
  }
  lines.push(
    `budget: maxTokens ${report.budget.maxTokens}, keepTail ${report.budget.keepTail}, maxSummaryTokens ${report.budget.maxSummaryTokens}`,
  );
  const { action, reason } = report.plan;
  if (action === "none") {
    lines.push(
      `plan: none (${reason}: ${report.tokens} ≤ ${report.budget.maxTokens}); a forced compaction would split it as`,
    );
    lines.push(...partLines(report.ifForced!));
  } else {
    lines.push(`plan: ${action} (${reason})`);
    lines.push(...partLines(report.plan));
  }
  if (report.room !== undefined) lines.push(`room: ${report.room}`);
  return lines.join("\n");
}
