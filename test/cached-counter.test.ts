import { describe, expect, it } from "vitest";
import { compactor } from "../src/index.js";
import { createCachedCounter, splitAtUserBoundary } from "../src/expert.js";
import { referenceSplit } from "./support/reference-split.js";

const messages = [
  { role: "system", content: "S" },
  ...Array.from({ length: 200 }, (_, i) => ({
    role: i % 2 ? "assistant" : "user",
    content: `message ${i}`.repeat(1 + (i % 5)),
  })),
];

describe("createCachedCounter", () => {
  it("counts each message object once across calls", async () => {
    const counted: object[] = [];
    const countTokens = createCachedCounter((message: object) => {
      counted.push(message);
      return JSON.stringify(message).length;
    });
    const total = countTokens(messages);
    expect(total).toBe(messages.reduce((sum, m) => sum + JSON.stringify(m).length, 0));
    expect(counted).toHaveLength(messages.length);
    const hook = compactor({ maxTokens: Math.floor(total / 2), countTokens, summarize: () => "s" });
    await hook({ messages });
    await hook({ messages });
    // The hook's counts, its tail search and the result's count only met new messages, made anew by
    // each call: the summary, the empty summary message whose count tells what room the text has,
    // the summary of a few words the plan measures the room against, and the empty one it checks a
    // summary could be smaller than what it replaces. Twice.
    expect(counted.length).toBe(messages.length + 8);
  });

  it("gives the same split as the plain scan with the same counter", () => {
    const countMessage = (message: object) => JSON.stringify(message).length;
    const plain = (list: readonly object[]) => list.reduce((sum: number, m) => sum + countMessage(m), 0);
    for (const keepTail of [0, 50, 500, 2000, 100_000]) {
      expect(splitAtUserBoundary(messages, { keepTail, countTokens: createCachedCounter(countMessage) })).toEqual(
        referenceSplit(messages, keepTail, plain as never),
      );
    }
  });

  it("checks what the per-message counter returns", () => {
    expect(() => createCachedCounter(() => Number.NaN)([{}])).toThrow(/`countTokens`/);
    expect(() => createCachedCounter("x" as never)).toThrow(
      "Expected `countMessage` to be a function, got `x` (string)",
    );
  });
});
