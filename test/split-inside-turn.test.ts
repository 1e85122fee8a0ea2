import { isSummaryMessage } from "../src/dialects/messages.js";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { SUMMARY_REPLY, findToolPairProblems } from "../src/expert.js";
import { compactor, estimateTokens, type CompactedEvent } from "../src/index.js";
import {
  deepFreeze,
  jsonDialects as dialects,
  hasSystemMessages,
  render,
  shapeArbitrary,
  summaryRoleFor,
  type DialectName,
  type Shape,
} from "./support/transcripts.js";

// A coding agent: one request, then many rounds of (parallel) tool calls, no later user turn.
const codingShape = (rounds: number): Shape => ({
  system: "You are a coding agent.",
  summary: undefined,
  steps: [
    { kind: "user", text: "Fix the failing test in src/parser.ts" },
    ...Array.from({ length: rounds }, (_, round) => ({
      kind: "tools" as const,
      text: `step ${round}`,
      calls: Array.from({ length: 1 + (round % 3) }, (_, call) => ({
        id: `c${round}_${call}`,
        name: "read_file",
        args: `{"path":"f${round}"}`,
        result: `contents ${round} `.repeat(40),
      })),
    })),
  ],
});

const roleOf = (m: object) => ((m as { role?: string }).role === "model" ? "assistant" : (m as { role?: string }).role);

describe.each(dialects)("splitInsideTurn in %s", (dialect: DialectName) => {
  const messages = deepFreeze(render(codingShape(20), dialect));
  const summaryRole = summaryRoleFor(dialect);
  const request = messages.find((m) => roleOf(m) === "user")!;

  it("keeps the request verbatim, summarizes the earlier groups and keeps the newest that fit", async () => {
    const summarize = vi.fn((_older: object[]) => "s");
    const keepTail = 1500;
    const result = await compactor({
      maxTokens: 3000,
      keepTail,
      summarize,
      summary: { role: summaryRole },
      ladder: { splitInsideTurn: true },
    })({ messages });
    const output = result!.messages;
    const _summaryAt = output.findIndex(isSummaryMessage);
    const tail = keptAfterSummary(output);
    expect(tail[0]).toBe(request);
    expect(summarize.mock.calls[0]![0]).not.toContain(request);
    expect(output.at(-1)).toBe(messages.at(-1));
    expect(estimateTokens(tail)).toBeLessThanOrEqual(keepTail);
    expect(tail.length).toBeGreaterThan(2);
    expect(findToolPairProblems(output)).toEqual([]);
    if (hasSystemMessages(dialect)) expect(output[0]).toBe(messages[0]);
  });

  it("with truncateToolResults off too, no user turn after the head fits, and the request is kept alone", async () => {
    const result = await compactor({
      maxTokens: 3000,
      keepTail: 1500,
      summarize: () => "s",
      summary: { role: summaryRole },
      ladder: { splitInsideTurn: false, truncateToolResults: false },
    })({ messages });
    expect(keptAfterSummary(result!.messages)).toEqual([request]);
  });

  it("is on by default, and even without it the request is never summarized away", async () => {
    const byDefault = await compactor({
      maxTokens: 3000,
      keepTail: 1500,
      summarize: () => "s",
      summary: { role: summaryRole },
    })({ messages });
    expect(byDefault!.messages.length).toBeGreaterThan(3);
    expect(byDefault!.messages).toContain(request);
    const withoutSplit = await compactor({
      maxTokens: 3000,
      keepTail: 1500,
      summarize: () => "s",
      summary: { role: summaryRole },
      ladder: { splitInsideTurn: false },
    })({ messages });
    expect(keptAfterSummary(withoutSplit!.messages)).toEqual([request]);
  });

  it("keeps the last complete group when none fits", async () => {
    const result = await compactor({
      maxTokens: 3000,
      keepTail: 10,
      summarize: () => "s",
      summary: { role: summaryRole },
      ladder: { splitInsideTurn: true },
    })({ messages });
    const output = result!.messages;
    const tail = keptAfterSummary(output);
    expect(tail[0]).toBe(request);
    expect(tail.at(-1)).toBe(messages.at(-1));
    expect(findToolPairProblems(output)).toEqual([]);
    // The newest group: one assistant turn (or, in Responses, a reasoning item) and its results.
    const callers = tail
      .slice(1)
      .filter((m) => roleOf(m) === "assistant" || (m as { type?: string }).type === "reasoning");
    expect(callers).toHaveLength(1);
  });
});

/** The assistant turn that answers a summary where turns must alternate (Bedrock). */
const isSummaryReply = (m: object) => JSON.stringify(m).includes(SUMMARY_REPLY);

/** What follows the summary (and the reply that answers it where turns alternate): the kept tail. */
function keptAfterSummary(output: object[]): object[] {
  const after = output.slice(output.findIndex(isSummaryMessage) + 1);
  return after.length > 0 && isSummaryReply(after[0]!) ? after.slice(1) : after;
}

describe("splitInsideTurn properties", () => {
  it("no broken pair, system prompt kept, the kept tail starts at a user turn", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...dialects),
        shapeArbitrary({ minTurns: 1, maxTurns: 3, maxRounds: 12 }),
        fc.double({ min: 0.05, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 0.9, noNaN: true }),
        async (dialect, shape, share, tailShare) => {
          const messages = deepFreeze(render(shape, dialect));
          const maxTokens = Math.max(1, Math.floor(estimateTokens(messages) * share));
          const summarize = vi.fn((_older: object[]) => "s");
          const onCompacted = vi.fn((_event: CompactedEvent) => {});
          const result = await compactor({
            maxTokens,
            keepTail: Math.floor(maxTokens * tailShare),
            summarize,
            summary: { role: summaryRoleFor(dialect) },
            ladder: { splitInsideTurn: true },
            onError: "skip",
            events: { onCompacted },
          })({ messages });
          if (result === null) return;
          const output = result.messages;
          expect(findToolPairProblems(output)).toEqual([]);
          if (shape.system !== undefined && hasSystemMessages(dialect) && shape.summary === undefined)
            expect(output[0]).toBe(messages[0]);
          const [event] = onCompacted.mock.calls[0]!;
          if (summarize.mock.calls.length === 0) {
            // No summary asked for: only tool payloads were cut, and every message is still there.
            expect(event).toMatchObject({ strategy: "truncate", summarized: 0, kept: messages.length });
            expect(output).toHaveLength(messages.length);
            expect(output.filter(isSummaryMessage)).toHaveLength(messages.filter(isSummaryMessage).length);
            return;
          }
          // What was replaced: the messages summarized, and an earlier summary of the library's (with its reminder or reply), which is not summarized again.
          expect(event.strategy).toBe("summarize");
          expect(event.summarized - summarize.mock.calls[0]![0].length).toBeGreaterThanOrEqual(0);
          expect(event.summarized - summarize.mock.calls[0]![0].length).toBeLessThanOrEqual(
            shape.summary === undefined ? 0 : 3,
          );
          expect(output.some(isSummaryMessage)).toBe(true);
          const tail = keptAfterSummary(output);
          if (tail.length > 0) expect(roleOf(tail[0]!)).toBe("user");
          // Nothing kept is also summarized.
          const older = summarize.mock.calls[0]![0];
          for (const message of tail) expect(older).not.toContain(message);
        },
      ),
      { numRuns: 300 },
    );
  });
});
