// Counting anchored on what the provider reported, media as billed, a bounded summarizer input.
import { describe, expect, it, vi } from "vitest";
import { compact, compactor, estimateTokens, statefulCompactor, summarizeWith } from "../src/index.js";
import { planCompaction } from "../src/expert.js";
import type { SummaryPrompt } from "../src/summary-kit.js";
import { utf8ByteLength } from "../src/counting/utf8-length.js";
import { builders } from "./support/builders.js";

type Message = { role: string; content: string };
const system = { role: "system", content: "You are a support agent." };
const conversation = (turns: number): Message[] => [
  system,
  ...Array.from({ length: turns }, (_, i) => [
    builders["openai-chat"].user(`question ${i} ${"context ".repeat(20)}`),
    builders["openai-chat"].assistant(`answer ${i}`),
  ]).flat(),
];

describe("usage-anchored counting", () => {
  const messages = conversation(8);
  const estimate = estimateTokens(messages);
  const held = messages.length - 2;

  it("counts the reported figure plus what was added since, scaled by the most the report allows before a ratio is known", () => {
    const inputTokens = 3 * estimateTokens(messages.slice(0, held));
    const plan = planCompaction(messages, { maxTokens: 10 * estimate, usage: { inputTokens, messageCount: held } });
    expect(plan.tokensBefore).toBe(Math.ceil(inputTokens + 3 * estimateTokens(messages.slice(held))));
  });

  it("compacts at the reported figure, not at the estimate", async () => {
    const summarize = vi.fn(() => "short summary");
    const hook = compactor({ maxTokens: Math.floor(estimate * 1.5), summarize });
    expect(await hook({ messages })).toBeNull();
    const result = await hook({ messages, usage: { inputTokens: Math.ceil(estimate * 1.6), messageCount: held } });
    expect(summarize).toHaveBeenCalledTimes(1);
    expect(result).not.toBeNull();
  });

  it("trusts a lower figure for what it covers, never scales the rest down, and ignores nonsense", async () => {
    const summarize = vi.fn(() => "s");
    const hook = compactor({ maxTokens: Math.floor(estimate * 0.9), summarize });
    // The provider counts half of the estimate: the transcript fits.
    expect(
      await hook({
        messages,
        usage: { inputTokens: Math.floor(estimateTokens(messages.slice(0, held)) / 2), messageCount: held },
      }),
    ).toBeNull();
    // A report of nothing cannot turn compaction off: under a quarter of the count, usage is left out.
    expect(
      planCompaction(messages, { maxTokens: Math.floor(estimate * 0.2), usage: { inputTokens: 0, messageCount: held } })
        .action,
    ).toBe("summarize");
  });

  it.each([
    [{ inputTokens: -1, messageCount: 1 }, "Expected `event.usage.inputTokens` to be a finite number from 0 and up"],
    [{ inputTokens: Number.NaN, messageCount: 1 }, "Expected `event.usage.inputTokens`"],
    [
      { inputTokens: 10, messageCount: 99 },
      "Expected `event.usage.messageCount` to be an integer from 0 to the number of messages (17)",
    ],
    [{ inputTokens: 10, messageCount: 1.5 }, "Expected `event.usage.messageCount`"],
    ["10", "Expected `event.usage` to be an object"],
  ])("rejects invalid usage %j with a TypeError naming it", async (usage, message) => {
    const hook = compactor({ maxTokens: 100, summarize: () => "s" });
    await expect(hook({ messages, usage: usage as never })).rejects.toThrow(TypeError);
    await expect(hook({ messages, usage: usage as never })).rejects.toThrow(message);
    await expect(compact(messages, { maxTokens: 100, summarize: () => "s", usage: usage as never })).rejects.toThrow(
      TypeError,
    );
  });

  it("statefulCompactor maps usage onto its stored state", async () => {
    const summarize = vi.fn((older: object[]) => `${older.length} earlier messages`);
    const stateful = statefulCompactor<Message>({
      maxTokens: Math.floor(estimate * 0.8),
      summarize,
      conversationId: "c",
    });
    const first = (await stateful(messages))?.messages;
    expect(summarize).toHaveBeenCalledTimes(1);
    // The next request: what was sent last time plus two messages; the provider counted the sent part.
    const next = [...messages, { role: "user", content: "more" }, { role: "assistant", content: "ok" }];
    expect(await stateful(next)).not.toBeNull();
    expect(summarize).toHaveBeenCalledTimes(1);
    await stateful(next, { usage: { inputTokens: 10 * estimateTokens(first!), messageCount: messages.length } });
    expect(summarize).toHaveBeenCalledTimes(2);
    await expect(stateful(next, { usage: { inputTokens: 1, messageCount: 99 } })).rejects.toThrow(
      "Expected `usage.messageCount`",
    );
  });
});

describe("media as providers bill them", () => {
  const base64 = "iVBORw0KGgo".repeat(3700).slice(0, 40_000);
  const tiny = "iVBO";
  const images: [string, (data: string) => object][] = [
    [
      "openai-chat",
      (data) => ({
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${data}` } },
        ],
      }),
    ],
    [
      "anthropic",
      (data) => ({
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image", source: { type: "base64", media_type: "image/png", data } },
        ],
      }),
    ],
    [
      "ai-sdk",
      (data) => ({
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image", image: data, mediaType: "image/png" },
        ],
      }),
    ],
    [
      "openai-responses",
      (data) => ({
        type: "message",
        role: "user",
        content: [
          { type: "input_text", text: "look" },
          { type: "input_image", image_url: `data:image/png;base64,${data}` },
        ],
      }),
    ],
    [
      "google-genai",
      (data) => ({ role: "user", parts: [{ text: "look" }, { inlineData: { mimeType: "image/png", data } }] }),
    ],
    [
      "bedrock-converse",
      (data) => ({ role: "user", content: [{ text: "look" }, { image: { format: "png", source: { bytes: data } } }] }),
    ],
  ];

  it.each(images)("a 40 KB base64 image counts 1,600 tokens in %s, not bytes / 4", (_, make) => {
    const message = make(base64);
    const text = JSON.stringify(message);
    expect(Math.ceil(utf8ByteLength(text) / 4)).toBeGreaterThan(10_000);
    expect(estimateTokens([message])).toBe(estimateTokens([make(tiny)]));
    const withoutImage = Math.ceil((utf8ByteLength(text) - 40_000) / 4);
    // The image's own fields (type, format, media type) are counted with its data: a few tokens.
    expect(estimateTokens([message]) - withoutImage).toBeGreaterThanOrEqual(1550);
    expect(estimateTokens([message])).toBeLessThan(2000);
  });

  it("a low-detail image counts 85, a 300 KB PDF four pages", () => {
    const low = {
      role: "user",
      content: [{ type: "image_url", image_url: { url: `data:image/png;base64,${base64}`, detail: "low" } }],
    };
    expect(estimateTokens([low])).toBeLessThan(120);
    const pdf = {
      role: "user",
      content: [
        { type: "document", source: { type: "base64", media_type: "application/pdf", data: "A".repeat(400_000) } },
      ],
    };
    expect(estimateTokens([pdf])).toBeGreaterThanOrEqual(4 * 1600);
    expect(estimateTokens([pdf])).toBeLessThan(4 * 1600 + 50);
  });

  it("text keeps the estimate's formula exactly", () => {
    const message = { role: "user", content: [{ type: "text", text: "image ".repeat(1000) }] };
    expect(estimateTokens([message])).toBe(Math.ceil(utf8ByteLength(JSON.stringify(message)) / 4));
  });
});

describe("summarizeWith bounds the summarizer's input", () => {
  const older = Array.from({ length: 400 }, (_, i) => ({
    role: i % 2 ? "assistant" : "user",
    content: `${i}: ${"history ".repeat(625)}`,
  }));
  const count = (prompt: SummaryPrompt) =>
    Math.ceil(utf8ByteLength(prompt.system) / 4) + Math.ceil(utf8ByteLength(prompt.user) / 4);

  it("summarizes a 2M-character older part oldest-first in chunks within maxInputTokens, rolling the summary", async () => {
    expect(JSON.stringify(older).length).toBeGreaterThan(2_000_000);
    const prompts: SummaryPrompt[] = [];
    const summarize = summarizeWith(
      async (prompt) => {
        prompts.push(prompt);
        return `summary ${prompts.length}`;
      },
      { maxInputTokens: 50_000 },
    );
    let summarized = 0;
    const result = await compactor({
      maxTokens: 10_000,
      summarize,
      summary: { maxTokens: 100 },
      events: { onCompacting: (event) => (summarized = event.older) },
    })({ messages: [system, ...older, { role: "user", content: "now" }] });
    expect(prompts.length).toBeGreaterThan(10);
    for (const prompt of prompts) expect(count(prompt)).toBeLessThanOrEqual(50_000);
    prompts
      .slice(1)
      .forEach((prompt, i) =>
        expect(prompt.user).toContain(`<previous-summary>\nsummary ${i + 1}\n</previous-summary>`),
      );
    expect(prompts[0]!.user).toContain("0: history");
    expect(summarized).toBeGreaterThan(350);
    expect(prompts.at(-1)!.user).toContain(`${summarized - 1}: history`);
    expect((result!.messages[1] as Message).content).toContain(`summary ${prompts.length}`);
  });

  it("a failure in any chunk fails the whole, and nothing is lost", async () => {
    let calls = 0;
    const summarize = summarizeWith(
      async () => {
        if (++calls === 3) throw new Error("rate limited");
        return `summary ${calls}`;
      },
      { maxInputTokens: 50_000 },
    );
    const messages = [system, ...older, { role: "user", content: "now" }];
    await expect(compactor({ maxTokens: 10_000, summarize })({ messages })).rejects.toMatchObject({
      code: "SUMMARIZE_FAILED",
    });
    expect(calls).toBe(3);
  });

  it("one message larger than a whole request is cut to fit", async () => {
    const prompts: SummaryPrompt[] = [];
    const summarize = summarizeWith(
      async (prompt) => {
        prompts.push(prompt);
        return "s";
      },
      { maxInputTokens: 5_000 },
    );
    await summarize([{ role: "user", content: "x".repeat(100_000) }], {
      signal: new AbortController().signal,
      instructions: undefined,
      previousSummary: undefined,
      tokensBefore: 0,
      maxTokens: 1,
      keepTail: 0,
      maxSummaryTokens: 1,
    });
    expect(prompts).toHaveLength(1);
    expect(count(prompts[0]!)).toBeLessThanOrEqual(5_000);
    expect(prompts[0]!.user).toContain("characters left out to fit the summarizer's input");
  });

  it("validates its options", () => {
    expect(() => summarizeWith(() => "s", { maxInputTokens: 0 })).toThrow(RangeError);
    expect(() => summarizeWith(() => "s", { maxInputToken: 5 } as never)).toThrow("Did you mean `maxInputTokens`?");
  });
});
