// The plan asks for a summary only where one can be smaller than what it replaces: a short chat
// before one huge tool output is kept as it is and the output cut, and a refused summary never
// costs a request that cutting alone would fit.
import { describe, expect, it, vi } from "vitest";
import { toPrepareStep } from "../src/adapters/ai-sdk.js";
import { compact, estimateTokens, extractiveSummary, type SummaryContext } from "../src/index.js";
import { planCompaction } from "../src/expert.js";

type Message = Record<string, unknown>;
const system = { role: "system", content: "You are a coding agent." };
const chat = [
  { role: "user", content: "hi" },
  { role: "assistant", content: "Hello! How can I help?" },
];
const request = { role: "user", content: "Run the test suite." };
const call = {
  role: "assistant",
  content: null,
  tool_calls: [{ id: "c1", type: "function", function: { name: "run", arguments: '{"cmd":"npm test"}' } }],
};
// About 200,000 tokens of test output.
const huge = {
  role: "tool",
  tool_call_id: "c1",
  content: "PASS test/case.test.ts › it works as it should\n".repeat(17_000),
};
const messages = [system, ...chat, request, call, huge];
const maxTokens = 50_000;
// What a model writes for two lines of greeting: longer than the greeting.
const summary = "The user greeted the assistant, and the assistant offered to help. Nothing else was discussed yet.";

describe("a short chat followed by one huge tool output", () => {
  it("is planned as a cut of the output, the chat kept as it is", () => {
    expect(estimateTokens(messages)).toBeGreaterThan(190_000);
    const plan = planCompaction(messages, { maxTokens });
    expect(plan).toMatchObject({ action: "truncate", older: [] });
    expect([...plan.head, ...plan.tail].slice(0, 4)).toEqual([system, ...chat, request]);
  });

  it.each(["throw", "skip", "fallback"] as const)(
    "compacts within the budget with onError: %s, without asking for a summary",
    async (onError) => {
      const summarize = vi.fn(() => summary);
      const output = await compact(messages, { maxTokens, onError, fallback: extractiveSummary, summarize });
      expect(output).not.toBeNull();
      expect(summarize).not.toHaveBeenCalled();
      expect(output!.messages.slice(0, 5)).toEqual([system, ...chat, request, call]);
      expect((output!.messages[5] as Message)["content"]).toMatch(/characters cut to fit the context window/);
      expect(estimateTokens(output!.messages)).toBeLessThanOrEqual(maxTokens);
    },
  );

  it("the AI SDK's prepareStep compacts on every step instead of throwing", async () => {
    const text = (role: string, value: string) => ({ role, content: [{ type: "text", text: value }] });
    const steps = [
      text("user", "hi"),
      text("assistant", "Hello! How can I help?"),
      text("user", "Run the test suite."),
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "c1", toolName: "run", input: { cmd: "npm test" } }],
      },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "c1", toolName: "run", output: { type: "text", value: huge.content } },
        ],
      },
    ];
    const prepareStep = toPrepareStep({ maxTokens, summarize: () => summary });
    for (let step = 0; step < 3; step++) {
      const history = [
        ...steps,
        ...Array.from({ length: step }, (_, index) => text("assistant", `Step ${index}: reading the output.`)),
      ];
      const result = await prepareStep({ messages: history, stepNumber: step });
      expect(result.messages).toBeDefined();
      expect(estimateTokens(result.messages!)).toBeLessThanOrEqual(maxTokens);
      expect(result.messages).toContainEqual(steps[2]);
      // The first step keeps the greeting and cuts the output; later ones may summarize the output away.
      if (step === 0) expect(result.messages!.slice(0, 3)).toEqual(steps.slice(0, 3));
    }
  });
});

describe("a refused summary", () => {
  // A longer chat than any summary of a few words, then the same output.
  const longer = [
    system,
    ...Array.from({ length: 4 }, (_, i) => [
      { role: "user", content: `question ${i} about order #W${1_000 + i}` },
      { role: "assistant", content: `It ships on day ${i}.` },
    ]).flat(),
    request,
    call,
    huge,
  ];

  it("gives the chat kept as it is and the output cut, when that fits, not INVALID_SUMMARY", async () => {
    const tooLong = vi.fn((_older: object[], context: SummaryContext) => "word ".repeat(context.maxSummaryTokens * 2));
    const onCompacted = vi.fn();
    const output = await compact(longer, { maxTokens, summarize: tooLong, events: { onCompacted } });
    expect(tooLong).toHaveBeenCalledTimes(1);
    expect(output!.messages.slice(0, longer.length - 1)).toEqual(longer.slice(0, -1));
    expect(estimateTokens(output!.messages)).toBeLessThanOrEqual(maxTokens);
    expect(onCompacted).toHaveBeenCalledWith(expect.objectContaining({ strategy: "truncate", overBudget: false }));
  });

  it("is still INVALID_SUMMARY when cutting cannot make the request fit", async () => {
    const prose = [
      system,
      ...Array.from({ length: 20 }, (_, i) => [
        { role: "user", content: `question ${i} ${"context ".repeat(40)}` },
        { role: "assistant", content: `answer ${i}` },
      ]).flat(),
    ];
    await expect(compact(prose, { maxTokens: 600, summarize: () => "y".repeat(100_000) })).rejects.toMatchObject({
      code: "INVALID_SUMMARY",
    });
  });
});

describe("context.maxSummaryTokens", () => {
  const older = Array.from({ length: 6 }, (_, i) => [
    { role: "user", content: `question ${i} about order #W${1_000 + i} ${"and more ".repeat(10)}` },
    { role: "assistant", content: `It ships on day ${i}.` },
  ]).flat();
  const longRequest = { role: "user", content: "Please read this carefully. ".repeat(30) };
  const transcript = [system, ...older, longRequest];

  it.each([0.8, 0.9, 1])(
    "is a positive integer that holds a few words, with usage calibrating the counts (window %d of the transcript)",
    async (share) => {
      const budget = Math.floor(estimateTokens(transcript) * share);
      const usage = { inputTokens: Math.round(estimateTokens(transcript.slice(0, 5)) * 1.37), messageCount: 5 };
      let limit = Number.NaN;
      await compact(transcript, {
        maxTokens: budget,
        usage,
        onError: "skip",
        summarize: (messages, context) => {
          limit = context.maxSummaryTokens;
          return extractiveSummary(messages, { maxTokens: context.maxSummaryTokens });
        },
      });
      // "a few words " five times is 15 tokens by the estimate: a limit under it holds no summary.
      expect(Number.isInteger(limit) && limit >= 15, String(limit)).toBe(true);
    },
  );

  it.each([0.4, 0.5, 0.6, 0.7])(
    "is never a token or two: where the latest request leaves no room for a few words, no summary is asked for (window %d)",
    async (share) => {
      const budget = Math.floor(estimateTokens(transcript) * share);
      const usage = { inputTokens: Math.round(estimateTokens(transcript.slice(0, 5)) * 1.37), messageCount: 5 };
      const summarize = vi.fn((_older: object[], _context: SummaryContext) => "s");
      const onSkipped = vi.fn();
      await compact(transcript, { maxTokens: budget, usage, summarize, events: { onSkipped, warnOverBudget: false } });
      // Either a summary of a few words fits, and is asked for with room for them, or none is asked for and the call says it is over budget.
      if (summarize.mock.calls.length > 0)
        for (const [, context] of summarize.mock.calls) expect(context.maxSummaryTokens).toBeGreaterThanOrEqual(15);
      else expect(onSkipped).toHaveBeenCalledWith(expect.objectContaining({ overBudget: true }));
    },
  );

  it("never lets a summary be as large as what it replaces", async () => {
    const chatThenOutput = [system, ...older, request, call, huge];
    const envelope = estimateTokens([{ role: "system", content: "[Summary of earlier conversation]\n" }]);
    for (const [input, budget] of [
      [chatThenOutput, maxTokens],
      [transcript, 120],
      [transcript, 200],
      [transcript, 300],
    ] as const) {
      const summarize = vi.fn((_older: object[], _context: SummaryContext) => "s");
      await compact(input, { maxTokens: budget, summarize, onError: "skip" });
      expect(summarize).toHaveBeenCalled();
      for (const [replaced, context] of summarize.mock.calls)
        expect(context.maxSummaryTokens + envelope).toBeLessThan(estimateTokens(replaced));
    }
  });
});
