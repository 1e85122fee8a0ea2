// Never stuck when the summarizer fails; the model-free summary on its own.
import { isSummaryMessage } from "../src/dialects/messages.js";
import { saidLinesOf } from "../src/summary-kit/said-lines.js";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { compactor, estimateTokens, extractiveSummary, type CompactedEvent } from "../src/index.js";
import { SUMMARY_PREFIX } from "../src/expert.js";
import { utf8ByteLength } from "../src/counting/utf8-length.js";
import { convert } from "./support/convert.js";
import { loadFixtures } from "./support/fixtures.js";
import { dialects } from "./support/transcripts.js";

type Message = Record<string, unknown>;
const fixtures = loadFixtures();
const textTokens = (text: string) => Math.ceil(utf8ByteLength(text) / 4);

describe("onError: fallback", () => {
  const messages = fixtures.find((f) => f.source === "tau2")!.messages;
  const maxTokens = Math.floor(estimateTokens(messages) * 0.5);
  const failures: [string, (...args: never[]) => unknown, string][] = [
    [
      "throws",
      () => {
        throw new Error("model down");
      },
      "SUMMARIZE_FAILED",
    ],
    ["rejects", () => Promise.reject(new Error("rate limited")), "SUMMARIZE_FAILED"],
    ["returns a non-string", () => 42, "INVALID_SUMMARY"],
    ["returns an empty string", () => "  ", "INVALID_SUMMARY"],
    ["returns a summary over maxSummaryTokens", () => "too long ".repeat(50_000), "INVALID_SUMMARY"],
    ["times out", () => new Promise(() => {}), "TIMEOUT"],
  ];

  it.each(failures)(
    "summarize %s: the extractive summary stands in, within budget, and says why",
    async (_, summarize, code) => {
      const events: CompactedEvent[] = [];
      const result = await compactor({
        maxTokens,
        summarize: summarize as never,
        onError: "fallback",
        fallback: extractiveSummary,
        summary: { timeoutMs: 50 },
        events: { onCompacted: (event) => events.push(event) },
      })({ messages });
      expect(result).not.toBeNull();
      const output = result!.messages as Message[];
      expect(estimateTokens(output)).toBeLessThanOrEqual(maxTokens);
      const summary = output.find(isSummaryMessage)!;
      expect(String(summary["content"])).toContain("(A summary made without a model");
      expect(events[0]).toMatchObject({ strategy: "fallback", error: { code }, overBudget: false });
    },
  );

  it("an abort still rejects: an abort means stop", async () => {
    const controller = new AbortController();
    const hook = compactor({
      maxTokens,
      onError: "fallback",
      fallback: extractiveSummary,
      summarize: () => new Promise(() => controller.abort()),
    });
    await expect(hook({ messages, signal: controller.signal })).rejects.toMatchObject({ code: "ABORTED" });
  });

  it('onError: "fallback" without a fallback is a TypeError that names what to pass', () => {
    expect(() => compactor({ maxTokens, summarize: () => "s", onError: "fallback" })).toThrow(TypeError);
    expect(() => compactor({ maxTokens, summarize: () => "s", onError: "fallback" })).toThrow(
      /`fallback`.*extractiveSummary/,
    );
    expect(() => compactor({ maxTokens, summarize: () => "s", fallback: "extractiveSummary" as never })).toThrow(
      /fallback/,
    );
  });

  it("a fallback alone means onError: fallback, and onCompacted names the function given", async () => {
    const events: CompactedEvent[] = [];
    const ownFallback = (older: readonly object[]) => `${older.length} earlier messages`;
    const result = await compactor({
      maxTokens,
      summarize: () => Promise.reject(new Error("down")),
      fallback: ownFallback,
      events: { onCompacted: (event) => events.push(event) },
    })({ messages });
    expect(String((result!.messages as Message[]).find(isSummaryMessage)!["content"])).toContain("earlier messages");
    expect(events[0]).toMatchObject({ strategy: "fallback", madeBy: { name: "ownFallback" } });
  });

  it('onError: "throw" with a fallback still rejects: the fallback does not override the mode asked for', async () => {
    const hook = compactor({
      maxTokens,
      summarize: () => Promise.reject(new Error("down")),
      onError: "throw",
      fallback: extractiveSummary,
    });
    await expect(hook({ messages })).rejects.toMatchObject({ code: "SUMMARIZE_FAILED" });
  });
});

describe("extractiveSummary", () => {
  const pathPattern = /(?:[\w.-]+\/)+[\w.-]+\.\w{1,8}\b/g;

  it.each(dialects)("on the real transcripts in %s: within maxTokens every time, deterministic", (dialect) => {
    for (const { messages } of fixtures) {
      const older = convert(messages as never, dialect);
      for (const maxTokens of [20, 200, 2_000]) {
        const text = extractiveSummary(older, { maxTokens, previousSummary: "the user is Ada" });
        expect(textTokens(text)).toBeLessThanOrEqual(maxTokens);
        expect(extractiveSummary(older, { maxTokens, previousSummary: "the user is Ada" })).toBe(text);
      }
    }
  });

  it("at a room of a few dozen tokens, quotes the rule the user set rather than a word of it", () => {
    // The finding: `Facts:\n- user: TLS` was all a short summary kept of this rule.
    const older = [
      {
        role: "user",
        content: "Absolutely never disable TLS certificate verification. That is a hard red line for this project.",
      },
      { role: "assistant", content: "Understood." },
      { role: "user", content: "Quick tangent: is it true that pandas have thumbs?" },
      { role: "assistant", content: "Sort of: a pseudo-thumb." },
    ];
    const text = extractiveSummary(older, { maxTokens: 60 });
    expect(text).toContain("never disable TLS certificate verification");
    expect(textTokens(text)).toBeLessThanOrEqual(60);
  });

  it("is never empty where the messages hold calls, though the summary kept before shows all their values", () => {
    // Found replaying tau2-bench: ten status checks of flights the kept summary already lists, each answered "available".
    const flights = ["HAT300", "HAT208", "HAT215"];
    const older = [
      {
        role: "assistant",
        content: null,
        tool_calls: flights.map((flight, index) => ({
          id: `c${index}`,
          type: "function",
          function: { name: "get_flight_status", arguments: JSON.stringify({ flight_number: flight }) },
        })),
      },
      ...flights.map((_, index) => ({ role: "tool", tool_call_id: `c${index}`, content: "available" })),
    ];
    const keptSummary = `${SUMMARY_PREFIX}(A summary made without a model, from the messages themselves.)\n\nFacts:\n- get_reservation_details result: flight_number ${flights.join(", ")}`;
    const text = extractiveSummary(older, { maxTokens: 400, keptSummary });
    expect(text).toContain("get_flight_status ×3");
    expect(text).toContain('"available"');
  });

  it("with room, keeps every user request's opening words (after any chit-chat) and every path in a tool call's arguments, and the previous summary", () => {
    for (const { messages } of fixtures) {
      const text = extractiveSummary(messages, { maxTokens: 200_000, previousSummary: "the user is Ada" });
      expect(text).toContain("the user is Ada");
      for (const message of messages) {
        if (message["role"] === "user" && typeof message["content"] === "string" && message["content"].trim() !== "") {
          // Chit-chat ("Thank you for handling that.") is left out: the first sentence that is not opens the quote.
          const first = saidLinesOf(message["content"]).find((line) => line.kind !== "chat");
          if (first !== undefined) expect(text).toContain(first.text.slice(0, 40));
        }
        for (const call of (message["tool_calls"] as { function: { arguments: string } }[] | undefined) ?? []) {
          for (const path of call.function.arguments.match(pathPattern) ?? []) expect(text).toContain(path);
          // Ids: the values of `…_id` arguments (reservation, order, user ids in the support runs).
          for (const [, id] of call.function.arguments.matchAll(/"\w*_id"\s*:\s*"([^"]+)"/g))
            expect(text, id).toContain(id!);
        }
      }
    }
  });

  it("when cut, keeps the newest of each kind", () => {
    const older = Array.from({ length: 50 }, (_, i) => ({
      role: "user",
      content: `request number ${i} ${"words ".repeat(20)}`,
    }));
    const text = extractiveSummary(older, { maxTokens: 300 });
    expect(text).toContain("request number 49");
    expect(text).not.toContain("request number 0 ");
    expect(text).toMatch(/earlier left out/);
  });

  it("is total on any array, and rejects what is not one", () => {
    fc.assert(
      fc.property(fc.array(fc.anything()), fc.integer({ min: 1, max: 500 }), (anything, maxTokens) => {
        expect(textTokens(extractiveSummary(anything as never, { maxTokens }))).toBeLessThanOrEqual(maxTokens);
      }),
    );
    expect(() => extractiveSummary("x" as never, { maxTokens: 10 })).toThrow(TypeError);
    expect(() => extractiveSummary([], { maxTokens: 0 })).toThrow(RangeError);
    expect(() => extractiveSummary([], { maxTokens: 10, previousSumary: "x" } as never)).toThrow(
      "Did you mean `previousSummary`?",
    );
  });

  it("works as a summarize that needs no model", async () => {
    const messages = fixtures[0]!.messages;
    const summarize = vi.fn(
      (
        older: Message[],
        { maxSummaryTokens, previousSummary }: { maxSummaryTokens: number; previousSummary: string | undefined },
      ) => extractiveSummary(older, { maxTokens: maxSummaryTokens, previousSummary }),
    );
    const result = await compactor({
      maxTokens: Math.floor(estimateTokens(messages) / 2),
      summarize: summarize as never,
    })({ messages });
    expect(String((result!.messages.find(isSummaryMessage) as Message)["content"]).startsWith(SUMMARY_PREFIX)).toBe(
      true,
    );
  });
});
