// A million messages work without recursion or argument spreading overflowing the stack.
import { describe, expect, it } from "vitest";
import { compactor, estimateTokens, statefulCompactor } from "../src/index.js";
import { findToolPairProblems, planCompaction, splitAtUserBoundary } from "../src/expert.js";
import { builders } from "./support/builders.js";

function longTranscript(pairs: number) {
  const { system, user, assistant, toolCall, toolResult } = builders["openai-chat"];
  const messages: object[] = [system("S")];
  for (let i = 0; i < pairs; i++) {
    messages.push(user("q"));
    messages.push(toolCall(`c${i}`, "f"));
    messages.push(toolResult(`c${i}`, "r"));
    messages.push(assistant("a"));
  }
  return messages;
}

describe("a million messages", () => {
  const messages = longTranscript(250_000);

  it("are estimated, split, planned and compacted", async () => {
    expect(messages.length).toBe(1_000_001);
    const total = estimateTokens(messages);
    expect(total).toBeGreaterThan(1_000_000);
    expect(splitAtUserBoundary(messages, { keepTail: 1000 }).tail.length).toBeGreaterThan(0);
    expect(planCompaction(messages, { maxTokens: 1000 }).action).toBe("summarize");
    const result = await compactor({ maxTokens: 1000, summarize: (older) => `${older.length} messages` })({ messages });
    expect(result!.messages.length).toBeLessThan(200);
    expect(findToolPairProblems(messages)).toEqual([]);
    expect(findToolPairProblems(result!.messages)).toEqual([]);
  });

  it("through statefulCompactor: compacted, then continued from the stored state on fresh copies", {
    timeout: 120_000,
  }, async () => {
    let calls = 0;
    const compact = statefulCompactor({
      maxTokens: 1000,
      summarize: (older) => `${++calls}: ${older.length} messages`,
    });
    const first = (await compact(messages, { conversationId: "million" }))?.messages;
    expect(first!.length).toBeLessThan(200);
    // The next request of a chat route: every message a new object, one more turn at the end.
    const next = [...(JSON.parse(JSON.stringify(messages)) as object[]), { role: "user", content: "one more" }];
    const second = (await compact(next, { conversationId: "million" }))?.messages;
    expect(findToolPairProblems(second!)).toEqual([]);
    expect(calls).toBeLessThanOrEqual(2);
    expect(JSON.stringify(second)).toContain("1: ");
  });

  it("with a custom counter, in O(log n) counter calls", async () => {
    let calls = 0;
    const countTokens = (list: readonly object[]) => {
      calls++;
      return list.length;
    };
    const result = await compactor({ maxTokens: 1000, countTokens, summarize: () => "s" })({ messages });
    expect(result!.messages.length).toBeLessThanOrEqual(502);
    // One budget check, a galloping search over the boundaries, one count of the result.
    expect(calls).toBeLessThanOrEqual(2 + 2 * Math.ceil(Math.log2(250_000)) + 2);
  });
});
