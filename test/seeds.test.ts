// The worked examples of the reference pages (Elixir, Python, Java), translated.
import { describe, expect, it } from "vitest";
import { FLUSH_TO_MEMORY_REMINDER, SUMMARY_PREFIX } from "../src/expert.js";
import { compactor } from "../src/index.js";

const countMessages = (messages: readonly unknown[]) => messages.length;
// The reference pages know neither the in-turn split nor truncation: both rungs are off here.
const turnBoundaries = { ladder: { splitInsideTurn: false, truncateToolResults: false } } as const;

describe("Elixir reference page", () => {
  it("1. under budget is a no-op", async () => {
    const hook = compactor({ maxTokens: 10_000, summarize: () => "should never run" });
    const messages = [
      { role: "system", content: "You are terse." },
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
    ];
    // The seeds' event also carries the loop's tools, model and turn: the hook reads only what it needs.
    const event = { messages, tools: [], model: "gpt-x", turn: 1 };
    expect(await hook(event)).toBeNull();
  });

  it("2. over budget: summarize the head, keep a user-boundary tail", async () => {
    const hook = compactor({
      maxTokens: 4,
      keepTail: 2,
      countTokens: countMessages,
      summarize: (older) => `${older.length} earlier turn(s) summarized`,
    });
    const messages = [
      { role: "system", content: "You are terse." },
      { role: "user", content: "turn 1" },
      { role: "assistant", content: "reply 1" },
      { role: "user", content: "turn 2" },
      { role: "assistant", content: "reply 2" },
      { role: "user", content: "turn 3" },
      { role: "assistant", content: "reply 3" },
    ];
    const event = { messages, tools: [], model: "gpt-x", turn: 5 };
    const result = await hook(event);
    const [system, summary, ...tail] = result!.messages;
    expect(system).toBe(messages[0]);
    expect(summary).toEqual({ role: "system", content: `${SUMMARY_PREFIX}4 earlier turn(s) summarized` });
    expect(tail).toEqual([messages[5], messages[6]]);
    expect(tail[0]).toBe(messages[5]);
    expect(tail.at(-1)).toEqual({ role: "assistant", content: "reply 3" });
  });

  it("3. flush_to_memory adds the reminder right after the summary", async () => {
    const hook = compactor({
      maxTokens: 3,
      keepTail: 1,
      countTokens: countMessages,
      summary: { flushToMemory: true },
      summarize: (older) => `${older.length} turn(s), summarized`,
    });
    const messages = [
      { role: "system", content: "be brief" },
      { role: "user", content: "turn 1" },
      { role: "assistant", content: "reply 1" },
      { role: "user", content: "turn 2" },
      { role: "assistant", content: "reply 2" },
      { role: "user", content: "turn 3" },
    ];
    const result = await hook({ messages });
    expect(result!.messages).toEqual([
      messages[0],
      { role: "system", content: `${SUMMARY_PREFIX}4 turn(s), summarized` },
      { role: "system", content: FLUSH_TO_MEMORY_REMINDER },
      messages[5],
    ]);
  });
});

describe("Python reference page", () => {
  it("1. under budget is a no-op", async () => {
    const hook = compactor({ maxTokens: 100_000, summarize: () => "unused" });
    const messages = [
      { role: "system", content: "You are a helpful assistant." },
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello!" },
    ];
    expect(await hook({ messages })).toBeNull();
  });

  it("2. compacts a tool transcript and keeps the tail tool-pair-safe", async () => {
    const hook = compactor({
      ...turnBoundaries,
      maxTokens: 20,
      keepTail: 10,
      summarize: (older) => `user asked about ${older.length} earlier things`,
    });
    const messages = [
      { role: "system", content: "You are a helpful assistant." },
      { role: "user", content: "what's the weather in Chennai" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "weather", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "c1", content: "sunny" },
      { role: "assistant", content: "it's sunny" },
      { role: "user", content: "and tomorrow?" },
      { role: "assistant", content: "also sunny" },
    ];
    const result = await hook({ messages });
    const compacted = result!.messages as Record<string, unknown>[];
    expect(compacted[0]).toBe(messages[0]);
    expect(compacted[1]!["role"]).toBe("system");
    expect(compacted[1]!["content"]).toContain("[Summary of earlier conversation]");
    expect(compacted[2]!["role"]).toBe("user");
    // keepTail 10 fits not even the last message (11 tokens), and the most recent user turn leaves no
    // room for the summary beside it: its request is kept alone.
    expect(compacted.slice(2)).toEqual([messages[5]]);
  });

  it("3. async summarize and flush reminder, as sent to a model", async () => {
    const hook = compactor({
      ...turnBoundaries,
      maxTokens: 15,
      keepTail: 8,
      summarize: async () => "prior turns summarized",
      summary: { flushToMemory: true },
    });
    const messages = [
      { role: "system", content: "You are terse." },
      { role: "user", content: "first question, quite a lot of words here" },
      { role: "assistant", content: "first answer, also quite a lot of words here" },
      { role: "user", content: "second question, more words to pad this out further" },
      { role: "assistant", content: "second answer, more words to pad this out further" },
      { role: "user", content: "third question" },
    ];
    const sent = (await hook({ messages }))!.messages as { content: string }[];
    expect(sent.some((m) => m.content.includes("[Summary of earlier conversation]"))).toBe(true);
    expect(sent.some((m) => m.content.includes("save it with the memory tool now"))).toBe(true);
  });
});

describe("Java reference page", () => {
  it("2. a 41-message transcript shrinks to [system, summary, tail starting at a user turn]", async () => {
    const messages: { role: string; content: string }[] = [{ role: "system", content: "You are a support agent." }];
    for (let i = 0; i < 20; i++) {
      messages.push({ role: "user", content: `question ${i} ${"pad ".repeat(20)}` });
      messages.push({ role: "assistant", content: `answer ${i} ${"pad ".repeat(20)}` });
    }
    expect(messages).toHaveLength(41);
    const hook = compactor({
      maxTokens: 200,
      keepTail: 80,
      summarize: (older) => `summarized ${older.length} messages`,
    });
    const event = { messages, tools: [], model: "m", turn: 0 };
    const compacted = (await hook(event))!.messages as typeof messages;
    expect(compacted[0]).toBe(messages[0]);
    expect(compacted[0]!.content).toBe("You are a support agent.");
    expect(compacted[1]!.content.startsWith("[Summary of earlier conversation]")).toBe(true);
    expect(compacted.length).toBeLessThan(messages.length);
    expect(compacted[2]!.role).toBe("user");
  });
});
