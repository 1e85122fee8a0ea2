// `summarize` returning `{ messages, text? }`: placed exactly as given, under a summary's size rules.
import { describe, expect, it } from "vitest";
import { compactor, firstOf, isCompactionError, type SummaryContext } from "../src/index.js";
import { builders } from "./support/builders.js";

const transcript = (turns: number) => {
  const messages: object[] = [{ role: "system", content: "You are terse." }];
  for (let turn = 0; turn < turns; turn++) messages.push(builders["openai-chat"].user(`Q${turn}`), builders["openai-chat"].assistant(`A${turn} ${"word ".repeat(80)}`));
  return messages;
};
const codeOf = (error: unknown) => (isCompactionError(error) ? error.code : String(error));

describe("replacement messages", () => {
  it("go in exactly as given, with no prefix, seal, reminder or reply", async () => {
    const item = { type: "compaction", id: "cmp_1", encrypted_content: "opaque" };
    const hook = compactor({ maxTokens: 800, keepTail: 200, summary: { flushToMemory: true }, summarize: () => ({ messages: [item] }) });
    const messages = transcript(8);
    const result = await hook({ messages });
    expect(result!.messages[0]).toBe(messages[0]);
    expect(result!.messages[1]).toBe(item);
    expect(result!.messages[2]).toEqual({ role: "user", content: expect.stringMatching(/^Q/) });
  });

  it.each([
    ["no messages", { messages: [] }],
    ["messages that are not objects", { messages: ["text"] }],
    ["a text that is not a string", { messages: [{ role: "user", content: "x" }], text: 3 }],
    ["messages larger than what they replace", { messages: transcript(12) }],
  ])("%s: INVALID_SUMMARY, and the transcript is left as it was", async (_case, returned) => {
    const hook = compactor({ maxTokens: 800, keepTail: 200, summarize: () => returned as never });
    await expect(hook({ messages: transcript(8) }).catch(codeOf)).resolves.toBe("INVALID_SUMMARY");
  });
});

describe("firstOf", () => {
  it("refuses no summarizer and a non-function", () => {
    expect(() => firstOf()).toThrow("Expected `firstOf` to get at least one summarizer, got none");
    expect(() => firstOf((() => "a") as never, 3 as never)).toThrow(TypeError);
  });

  it("tries the next on a failure or an empty text, and lists every reason when all fail", async () => {
    const context = { signal: new AbortController().signal } as SummaryContext;
    const calls: string[] = [];
    const chain = firstOf(() => (calls.push("a"), Promise.reject(new Error("down"))), () => (calls.push("b"), " "), () => (calls.push("c"), "ok"));
    await expect(chain([], context)).resolves.toBe("ok");
    expect(calls).toEqual(["a", "b", "c"]);
    await expect(firstOf(() => { throw new Error("one"); }, () => Promise.reject(new Error("two")))([], context)).rejects.toThrow("every summarizer failed (1: one; 2: two)");
  });

  it("stops at an abort", async () => {
    const controller = new AbortController();
    let second = 0;
    const chain = firstOf(() => (controller.abort(new Error("stop")), Promise.reject(new Error("aborted"))), () => (second++, "late"));
    await expect(chain([], { signal: controller.signal } as SummaryContext)).rejects.toThrow("stop");
    expect(second).toBe(0);
  });
});
