// Room for every summary (SPEC §40): frozen sections never ask a new section for less than a useful
// share of the room, so a summarizer that cannot write short is never refused for good; a section
// refused for its size is merged and asked again once; an error names the limit summarize was given.
import { describe, expect, it } from "vitest";
import { compactor, estimateTokens, isCompactionError, type SummaryContext } from "../src/index.js";
import { smallestAsk, USEFUL_SECTION_TOKENS } from "../src/hook/summary-levels.js";
import { builders } from "./support/builders.js";

const { system, user, assistant } = builders["openai-chat"];

/** A text the estimate counts at about `tokens` tokens (4 bytes a token). */
const textOf = (tokens: number, tag: string) => `${tag} ${"abcd".repeat(Math.max(0, tokens - 2))}`;

describe("the room for a new section", () => {
  it.each([400, 1_000, 3_227, 8_000])(
    "is never asked below a quarter of a room of %i tokens, or a few hundred where it allows",
    (room) => {
      expect(smallestAsk(room)).toBe(Math.min(room, Math.max(Math.ceil(room / 4), USEFUL_SECTION_TOKENS)));
    },
  );

  it.each([8_000, 16_000, 32_000])(
    "a summarizer that never writes fewer than 150 tokens runs 100 compactions at %i with no refused summary",
    async (maxTokens) => {
      const asked: number[] = [];
      const summarize = (_older: object[], context: SummaryContext) => {
        asked.push(context.maxSummaryTokens);
        // It writes what it was asked for, but never under 150 tokens, and never over 600.
        return textOf(Math.min(600, Math.max(150, context.maxSummaryTokens)), `summary ${asked.length}`);
      };
      const hook = compactor({ maxTokens, summarize });
      let messages: object[] = [system("You help.")];
      let turn = 0;
      while (asked.length < 100) {
        messages = [
          ...messages,
          user(`question ${turn}: ${"detail ".repeat(200)}`),
          assistant(`answer ${turn}: ${"fact ".repeat(300)}`),
          user(`next ${turn}`),
        ];
        turn++;
        const result = await hook({ messages });
        if (result !== null) messages = result.messages;
        expect(result?.overBudget ?? false).toBe(false);
      }
      // Every ask was a useful share of the room; none was refused.
      expect(Math.min(...asked)).toBeGreaterThanOrEqual(150);
    },
  );
});

describe("a section refused for its size", () => {
  it("merges with the earlier sections and is asked again once; a refusal names the limit summarize was given", async () => {
    const asked: number[] = [];
    // Writes 2,500 tokens whatever it is told: fits only a whole room.
    const summarize = (_older: object[], context: SummaryContext) => {
      asked.push(context.maxSummaryTokens);
      return textOf(2_500, `summary ${asked.length}`);
    };
    const hook = compactor({ maxTokens: 16_000, summarize });
    let messages: object[] = [system("You help.")];
    for (let turn = 0; turn < 40; turn++) {
      messages = [
        ...messages,
        user(`question ${turn}: ${"detail ".repeat(300)}`),
        assistant(`answer ${turn}: ${"fact ".repeat(400)}`),
        user(`next ${turn}`),
      ];
      const result = await hook({ messages });
      if (result !== null) messages = result.messages;
    }
    expect(asked.length).toBeGreaterThan(3);

    // A summarizer far over any room: the error says the limit it was given, no other figure.
    const tooLong = compactor({
      maxTokens: 8_000,
      summarize: (_older, context) => (asked.push(context.maxSummaryTokens), textOf(20_000, "long")),
    });
    const error = await tooLong({ messages }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(isCompactionError(error) && error.code).toBe("INVALID_SUMMARY");
    expect(String((error as Error).message)).toMatch(
      new RegExp(`over the ${asked.at(-1)} it was given \\(\`context.maxSummaryTokens\`\\)`),
    );
  });
});

describe("a room smaller than a summary of a few words", () => {
  // Found by bench:fit on tau2-bench (toolorch_airline_task43 at a quarter of its length): a system
  // prompt of 88% of the window, with the provider's usage. The kept messages left less than a
  // summary of a few words, so its limit was that summary's count; with usage that count is
  // fractional (the report's ratio), and the limit floored to a whole token read as one token less
  // than the smallest summary: the hook skipped, "nothing-to-summarize", and sent requests up to
  // 2.8 times the window as they were.
  it("still gets the smallest summary with usage at a fractional ratio, not a skip", async () => {
    const messages = [
      system(textOf(2_000, "rules")),
      user(textOf(300, "first")),
      assistant(textOf(300, "done")),
      user(textOf(300, "second")),
      assistant(textOf(300, "done again")),
      user(textOf(200, "latest")),
    ];
    const ratio = 0.823;
    const maxTokens = Math.floor(ratio * 2_000) + 200;
    const skipped: string[] = [];
    const strategies: string[] = [];
    const hook = compactor({
      maxTokens,
      summarize: () => "the user asked twice; both done",
      events: {
        warnOverBudget: false,
        onSkipped: (event) => skipped.push(event.reason),
        onCompacted: (event) => strategies.push(event.strategy),
      },
    });
    const usage = { inputTokens: Math.round(ratio * estimateTokens(messages.slice(0, 5))), messageCount: 5 };
    const result = await hook({ messages, usage });
    expect(skipped).toEqual([]);
    expect(strategies).toEqual(["summarize"]);
    expect(result!.messages.at(-1)).toBe(messages.at(-1));
  });
});
