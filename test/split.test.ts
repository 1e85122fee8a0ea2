import { describe, expect, it } from "vitest";
import { SUMMARY_PREFIX, splitAtUserBoundary } from "../src/expert.js";
import { compactor } from "../src/index.js";
import { builders } from "./support/builders.js";

// One token per message keeps every case readable.
const perMessage = (list: readonly unknown[]) => list.length;
const sys = { role: "system", content: "S" };
const { user, assistant, toolCall, toolResult } = builders["openai-chat"];
const u = (n: number) => user(`u${n}`);
const a = (n: number) => assistant(`a${n}`);
const call = (id: string) => toolCall(id, "f");
const result = (id: string) => toolResult(id, "r");
const anthropicResult = (id: string) => builders.anthropic.toolResult(id, "r");
const anthropicCall = (id: string) => builders.anthropic.toolCall(id, "f");
const summary = { role: "system", content: `${SUMMARY_PREFIX}before` };

const cases: {
  name: string;
  messages: object[];
  keepTail: number;
  expected: [head: number, older: number, tail: number];
}[] = [
  {
    name: "largest fitting tail",
    messages: [sys, u(1), a(1), u(2), a(2), u(3), a(3)],
    keepTail: 4,
    expected: [1, 2, 4],
  },
  {
    name: "a tail of exactly keepTail fits",
    messages: [sys, u(1), a(1), u(2), a(2)],
    keepTail: 2,
    expected: [1, 2, 2],
  },
  {
    name: "nothing fits: the most recent user turn",
    messages: [sys, u(1), a(1), u(2), a(2), a(3)],
    keepTail: 1,
    expected: [1, 2, 3],
  },
  {
    name: "keepTail 0: the most recent user turn",
    messages: [sys, u(1), a(1), u(2)],
    keepTail: 0,
    expected: [1, 2, 1],
  },
  {
    name: "no boundary after the head: empty tail",
    messages: [sys, u(1), a(1), a(2)],
    keepTail: 10,
    expected: [1, 3, 0],
  },
  { name: "no system message: no head", messages: [u(1), a(1), u(2), a(2)], keepTail: 2, expected: [0, 2, 2] },
  {
    name: "the message right after the head never starts a tail",
    messages: [sys, u(1), a(1)],
    keepTail: 100,
    expected: [1, 2, 0],
  },
  {
    name: "a tool result never starts a tail",
    messages: [sys, u(1), call("c1"), result("c1"), a(1)],
    keepTail: 3,
    expected: [1, 4, 0],
  },
  {
    name: "the tail keeps a call with its results",
    messages: [sys, u(1), a(1), u(2), call("c1"), result("c1"), a(2)],
    keepTail: 4,
    expected: [1, 2, 4],
  },
  {
    name: "Anthropic: a user message carrying tool results is not a boundary",
    messages: [u(1), a(1), u(2), anthropicCall("t1"), anthropicResult("t1"), a(2)],
    keepTail: 3,
    expected: [0, 2, 4],
  },
  {
    name: "a leading summary is not kept as a head",
    messages: [summary, u(1), a(1), u(2), a(2)],
    keepTail: 2,
    expected: [0, 3, 2],
  },
  { name: "empty transcript", messages: [], keepTail: 5, expected: [0, 0, 0] },
  { name: "a lone system message", messages: [sys], keepTail: 5, expected: [1, 0, 0] },
];

describe("splitAtUserBoundary", () => {
  it.each(cases)("$name", ({ messages, keepTail, expected }) => {
    const split = splitAtUserBoundary(messages, { keepTail, countTokens: perMessage });
    expect([split.head.length, split.older.length, split.tail.length]).toEqual(expected);
    expect([...split.head, ...split.older, ...split.tail]).toEqual(messages);
    split.tail.forEach((message, index) => expect(message).toBe(messages[messages.length - split.tail.length + index]));
  });

  it("takes isBoundary", () => {
    const messages = [sys, u(1), a(1), u(2), a(2)];
    const split = splitAtUserBoundary(messages, {
      keepTail: 10,
      countTokens: perMessage,
      isBoundary: (m) => m === messages[4],
    });
    expect(split.tail).toEqual([a(2)]);
  });

  it("names a bad keepTail", () => {
    expect(() => splitAtUserBoundary([], { keepTail: -1 })).toThrow(RangeError);
    expect(() => splitAtUserBoundary([], { keepTail: "1" as never })).toThrow(
      "Expected `keepTail` to be an integer from 0 and up, got `1` (string)",
    );
  });

  it("calls a custom counter O(log n) times on 100,000 messages", () => {
    const messages: object[] = [sys];
    for (let i = 0; i < 50_000; i++) messages.push(u(i), a(i));
    let calls = 0;
    const counter = (list: readonly unknown[]) => {
      calls++;
      return list.length;
    };
    const split = splitAtUserBoundary(messages, { keepTail: 1001, countTokens: counter });
    expect(split.tail).toHaveLength(1000);
    expect(calls).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(messages.length)) + 2);
  });
});

describe("rolling summaries", () => {
  // A room this small holds one summary (MIN_ROOM_FOR_SECTIONS): the earlier one is rolled into the next.
  it("a second compaction rolls the first summary into the next one where the summary's room holds one summary", async () => {
    const seen: { older: object[]; previousSummary: string | undefined }[] = [];
    const hook = compactor({
      maxTokens: 5,
      keepTail: 2,
      countTokens: perMessage,
      summarize: (older, context) => {
        seen.push({ older, previousSummary: context.previousSummary });
        return `summary ${seen.length}`;
      },
    });
    const first = await hook({ messages: [sys, u(1), a(1), u(2), a(2), u(3), a(3)] });
    expect(first!.messages).toEqual([sys, { role: "system", content: `${SUMMARY_PREFIX}summary 1` }, u(3), a(3)]);
    const second = await hook({ messages: [...first!.messages, u(4), a(4)] });
    expect(second!.messages).toEqual([sys, { role: "system", content: `${SUMMARY_PREFIX}summary 2` }, u(4), a(4)]);
    expect(seen[1]!.previousSummary).toBe("summary 1");
    // The earlier summary comes in as previousSummary, not again among the messages to summarize.
    expect(seen[1]!.older[0]).toBe(first!.messages[2]);
  });

  it("re-summarizing only an earlier summary is skipped as no-progress", async () => {
    const skipped: string[] = [];
    let calls = 0;
    const hook = compactor({
      maxTokens: 2,
      keepTail: 1,
      countTokens: perMessage,
      summary: { flushToMemory: true },
      summarize: () => String(++calls),
      events: { onSkipped: (event) => skipped.push(event.reason) },
    });
    const messages = [sys, { role: "system", content: `${SUMMARY_PREFIX}old` }, u(1)];
    expect(await hook({ messages })).toBeNull();
    expect(calls).toBe(0);
    expect(skipped).toEqual(["no-progress"]);
  });

  it("a summary made with summaryRole user is not a boundary", () => {
    const userSummary = { role: "user", content: `${SUMMARY_PREFIX}old` };
    const split = splitAtUserBoundary([userSummary, a(0), u(1), a(1)], { keepTail: 2, countTokens: perMessage });
    expect(split.older).toEqual([userSummary, a(0)]);
  });
});
