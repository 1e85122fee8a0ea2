// The hook's three invariants, and the split's agreement with the plain scan, over
// random transcripts of every dialect with parallel tool calls.
import { isSummaryMessage } from "../src/dialects/messages.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compactor, estimateTokens } from "../src/index.js";
import { findToolPairProblems, splitAtUserBoundary } from "../src/expert.js";
import { enrich } from "./support/enrich.js";
import { requestViolations } from "./support/provider-request.js";
import { referenceSplit } from "./support/reference-split.js";
import { deepFreeze, jsonDialects as dialects, summaryRoleFor, transcriptArbitrary } from "./support/transcripts.js";

// fast-check's default run count, per dialect and property: 75 to 90 of the 100 transcripts drawn
// compact and 44 to 90 are requests the provider accepts (the test asks for more than a third and a quarter).
const runs = { numRuns: 100 };
type Message = Record<string, unknown>;

describe.each(dialects)("%s", (dialect) => {
  const _summaryRole = summaryRoleFor(dialect);

  it("invariant 1: at or under budget the hook resolves null and touches nothing", async () => {
    await fc.assert(
      fc.asyncProperty(transcriptArbitrary(dialect), fc.nat(1000), async (messages, slack) => {
        const before = structuredClone(messages);
        deepFreeze(messages);
        let called = false;
        const hook = compactor({
          maxTokens: Math.max(1, estimateTokens(messages) + slack),
          summarize: () => {
            called = true;
            return "x";
          },
        });
        expect(await hook({ messages })).toBeNull();
        expect(called).toBe(false);
        expect(messages).toEqual(before);
      }),
      runs,
    );
  });

  it("invariants 2 and 3: no broken tool pair, system prompt first and the same object, kept messages untouched; the provider accepts what it accepted", async () => {
    let compacted = 0;
    let checked = 0;
    // Signed reasoning, thought signatures and screenshots in tool results, in the format's own shape.
    const settings =
      dialect === "anthropic"
        ? { thinking: true }
        : dialect === "google-genai" || dialect === "genkit"
          ? { gemini3: true }
          : {};
    await fc.assert(
      fc.asyncProperty(
        fc
          .oneof(
            transcriptArbitrary(dialect, { minTurns: 1 }),
            transcriptArbitrary(dialect, { minTurns: 1, accepted: true }),
          )
          .map((messages) => enrich(messages, dialect)),
        fc.double({ min: 0.02, max: 1.2, noNaN: true }),
        fc.double({ min: 0, max: 0.99, noNaN: true }),
        fc.boolean(),
        async (messages, budgetShare, tailShare, flushToMemory) => {
          const maxTokens = Math.max(1, Math.floor(estimateTokens(messages) * budgetShare));
          deepFreeze(messages);
          const before = structuredClone(messages);
          const hook = compactor({
            maxTokens,
            keepTail: Math.floor(maxTokens * tailShare),
            format: dialect,
            summary: { flushToMemory },
            summarize: (older) => `${older.length} messages`,
            // A window of a few tokens leaves no room for any summary: that is an INVALID_SUMMARY, not an output.
            onError: "skip",
          });
          const result = await hook({ messages });
          expect(messages).toEqual(before);
          if (result === null) return;
          const output = result.messages as Message[];
          expect(findToolPairProblems(output)).toEqual([]);
          // A request the provider accepted is still one it accepts (the checkers quote the providers' rules).
          if (requestViolations(dialect, messages, settings).length === 0) {
            checked++;
            expect(requestViolations(dialect, output, settings)).toEqual([]);
          }
          const first = messages[0];
          if (first?.["role"] === "system" && !isSummaryMessage(first)) expect(output[0]).toBe(first);
          // Everything but the added summary and reminder is an input message, in input order.
          compacted++;
          const summaryAt = output.findIndex(isSummaryMessage);
          // Where turns must alternate (Bedrock), an assistant reply follows the summary and reminder.
          // (the reminder then rides in the summary message as its last block).
          const added = dialect === "bedrock-converse" ? 2 : flushToMemory ? 2 : 1;
          const carried = output.slice(0, summaryAt).concat(output.slice(summaryAt + added));
          let cursor = 0;
          for (const message of carried) {
            const at = messages.indexOf(message, cursor);
            expect(at).toBeGreaterThanOrEqual(cursor);
            cursor = at + 1;
          }
        },
      ),
      runs,
    );
    // The property says nothing if the budgets drawn never forced a compaction, or no input was a valid request.
    expect(compacted).toBeGreaterThan(runs.numRuns / 3);
    expect(checked).toBeGreaterThan(runs.numRuns / 4);
  });

  it("the split equals the plain scan, with the default and with a custom monotone counter", () => {
    const lengthCounter = (list: readonly Message[]) => list.reduce((sum, m) => sum + JSON.stringify(m).length, 0);
    fc.assert(
      fc.property(transcriptArbitrary(dialect), fc.nat(3000), (messages, keepTail) => {
        expect(splitAtUserBoundary(messages, { keepTail })).toEqual(referenceSplit(messages, keepTail));
        expect(splitAtUserBoundary(messages, { keepTail, countTokens: lengthCounter })).toEqual(
          referenceSplit(messages, keepTail, lengthCounter),
        );
        const split = splitAtUserBoundary(messages, { keepTail });
        expect([...split.head, ...split.older, ...split.tail]).toEqual(messages);
      }),
      runs,
    );
  });
});
