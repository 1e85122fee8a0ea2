import { isSummaryMessage } from "../src/dialects/messages.js";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { MASKED_TOOL_RESULT, findToolPairProblems, maskToolResults, planCompaction } from "../src/expert.js";
import { compactor, estimateTokens } from "../src/index.js";
import { toolResultPayloads } from "./support/tool-results.js";
import {
  deepFreeze,
  jsonDialects as dialects,
  render,
  shapeArbitrary,
  summaryRoleFor,
  transcriptArbitrary,
  type DialectName,
  type Shape,
} from "./support/transcripts.js";

// A session of 6 tool rounds with large results and short chat around them.
const big = "x".repeat(2000);
const shape: Shape = {
  system: "You are an agent.",
  summary: undefined,
  steps: [
    { kind: "user", text: "please look things up" },
    ...Array.from({ length: 6 }, (_, round) => ({
      kind: "tools" as const,
      text: "",
      calls: [{ id: `c${round}`, name: "lookup", args: "{}", result: `${round}:${big}` }],
    })),
    { kind: "assistant", text: "done" },
    { kind: "user", text: "thanks" },
  ],
};

describe.each(dialects)("maskToolResults in %s", (dialect: DialectName) => {
  const messages = deepFreeze(render(shape, dialect));
  const summaryRole = summaryRoleFor(dialect);

  it("masks all but the newest keepRecent results, in the dialect's own shape", () => {
    const { messages: masked, masked: count, changed } = maskToolResults(messages, { keepRecent: 2 });
    expect(count).toBe(4);
    expect(masked).toHaveLength(messages.length);
    const payloads = toolResultPayloads(masked).map((r) => r.payload);
    expect(payloads).toEqual([
      MASKED_TOOL_RESULT,
      MASKED_TOOL_RESULT,
      MASKED_TOOL_RESULT,
      MASKED_TOOL_RESULT,
      `4:${big}`,
      `5:${big}`,
    ]);
    masked.forEach((message, index) => {
      if (changed.includes(index)) expect(message).not.toBe(messages[index]);
      else expect(message).toBe(messages[index]);
    });
    expect(findToolPairProblems(masked)).toEqual([]);
    expect(estimateTokens(masked)).toBeLessThan(estimateTokens(messages));
  });

  it("is idempotent: a second pass masks nothing new and changes no object", () => {
    const once = maskToolResults(messages, { keepRecent: 2 });
    const twice = maskToolResults(once.messages, { keepRecent: 2 });
    expect(twice.masked).toBe(0);
    expect(twice.changed).toEqual([]);
    twice.messages.forEach((message, index) => expect(message).toBe(once.messages[index]));
  });

  it("the hook masks and skips summarize when that suffices", async () => {
    const summarize = vi.fn(() => "s");
    const onCompacted = vi.fn();
    const maxTokens = estimateTokens(messages) - 1000;
    const hook = compactor({
      maxTokens,
      summarize,
      summary: { role: summaryRole },
      ladder: { maskToolResults: true },
      events: { onCompacted },
    });
    const result = await hook({ messages });
    expect(summarize).not.toHaveBeenCalled();
    expect(result!.messages).toHaveLength(messages.length);
    expect(
      toolResultPayloads(result!.messages)
        .map((r) => r.payload)
        .slice(-3),
    ).toEqual([`3:${big}`, `4:${big}`, `5:${big}`]);
    expect(toolResultPayloads(result!.messages)[0]!.payload).toBe(MASKED_TOOL_RESULT);
    expect(onCompacted).toHaveBeenCalledWith(
      expect.objectContaining({ strategy: "mask", summarized: 0, kept: messages.length, overBudget: false }),
    );
    expect(onCompacted.mock.calls[0]![0].tokensAfter).toBe(estimateTokens(result!.messages));
    const plan = planCompaction(messages, { maxTokens, ladder: { maskToolResults: true } });
    expect(plan.action).toBe("mask");
    expect(Object.keys(plan)).toEqual(["action", "reason", "tokensBefore", "head", "older", "tail"]);
  });

  it("when masking is not enough, summarize gets the original older messages and the tail stays masked", async () => {
    // Two user turns of three rounds each; masked, the transcript is just over 800 tokens, and the kept
    // tail is the second turn, masked but for its newest result, beside a summary of at most 40.
    const twoTurns = deepFreeze(
      render(
        {
          ...shape,
          steps: [
            ...shape.steps.slice(0, 4),
            { kind: "assistant", text: "ok" },
            { kind: "user", text: "more" },
            ...shape.steps.slice(4, 7),
            { kind: "assistant", text: "done" },
          ],
        },
        dialect,
      ),
    );
    const summarize = vi.fn((_older: object[]) => "s");
    const options = {
      maxTokens: 800,
      keepTail: 760,
      summary: { maxTokens: 40, role: summaryRole },
      ladder: {
        maskToolResults: { keepRecent: 1, placeholder: "[gone]" },
        splitInsideTurn: false,
        truncateToolResults: false,
      },
    } as const;
    const result = await compactor({ ...options, summarize })({ messages: twoTurns });
    expect(summarize).toHaveBeenCalledTimes(1);
    const older = summarize.mock.calls[0]![0];
    older.forEach((message) => expect(twoTurns).toContain(message));
    expect(toolResultPayloads(older).map((r) => r.payload)).toEqual([`0:${big}`, `1:${big}`, `2:${big}`]);
    expect(toolResultPayloads(result!.messages).map((r) => r.payload)).toEqual(["[gone]", "[gone]", `5:${big}`]);
    expect(findToolPairProblems(result!.messages)).toEqual([]);
    expect(planCompaction(twoTurns, options)).toEqual(expect.objectContaining({ action: "summarize" }));
  });

  it("a forced compaction summarizes even when masking alone would do", async () => {
    const summarize = vi.fn(() => "s");
    const { compact } = await import("../src/index.js");
    const result = await compact(messages, {
      maxTokens: estimateTokens(messages) + 1,
      summarize,
      summary: { role: summaryRole },
      ladder: { maskToolResults: true },
      force: true,
    });
    expect(summarize).toHaveBeenCalledTimes(1);
    expect(result!.messages.filter(isSummaryMessage)).toHaveLength(1);
  });

  it("a pass that cannot mask anything new goes on to summarize", async () => {
    const summarize = vi.fn(() => "s");
    const alreadyMasked = maskToolResults(messages, { keepRecent: 0 }).messages;
    const hook = compactor({
      maxTokens: estimateTokens(alreadyMasked) - 1,
      summarize,
      summary: { role: summaryRole },
      ladder: { maskToolResults: { keepRecent: 0 } },
    });
    await hook({ messages: alreadyMasked });
    expect(summarize).toHaveBeenCalledTimes(1);
  });
});

describe("masking properties, every dialect", () => {
  it("no broken pair, no mutation, same message count, idempotent", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...dialects).chain((d) => transcriptArbitrary(d)),
        fc.nat(5),
        (messages, keepRecent) => {
          deepFreeze(messages);
          const before = structuredClone(messages);
          const once = maskToolResults(messages, { keepRecent });
          expect(messages).toEqual(before);
          expect(once.messages).toHaveLength(messages.length);
          expect(findToolPairProblems(once.messages)).toEqual(findToolPairProblems(messages));
          const results = toolResultPayloads(messages).length;
          expect(once.masked).toBeLessThanOrEqual(Math.max(0, results - keepRecent));
          expect(maskToolResults(once.messages, { keepRecent }).masked).toBe(0);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("the hook with masking keeps every invariant", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...dialects),
        shapeArbitrary({ minTurns: 1 }),
        fc.double({ min: 0.05, max: 1.1, noNaN: true }),
        async (dialect, s, share) => {
          const messages = deepFreeze(render(s, dialect));
          const maxTokens = Math.max(1, Math.floor(estimateTokens(messages) * share));
          const result = await compactor({
            maxTokens,
            summarize: () => "s",
            summary: { role: summaryRoleFor(dialect) },
            ladder: { maskToolResults: true },
            onError: "skip",
          })({ messages });
          if (result === null) return;
          expect(findToolPairProblems(result.messages)).toEqual([]);
          if ((messages[0] as { role?: string } | undefined)?.role === "system" && s.summary === undefined)
            expect(result.messages[0]).toBe(messages[0]);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("masking frees enough at once to be worth the cache it costs", () => {
  async function hover(minFreedTokens: number | undefined) {
    const events: { strategy: string; freed: number }[] = [];
    const hook = compactor({
      maxTokens: 2_000,
      ladder: { maskToolResults: { keepRecent: 2, ...(minFreedTokens === undefined ? {} : { minFreedTokens }) } },
      summarize: () => "the earlier lookups",
      events: {
        onCompacted: (event) =>
          events.push({ strategy: event.strategy, freed: event.tokensBefore - event.tokensAfter }),
      },
    });
    let messages: object[] = [
      { role: "system", content: "sys" },
      { role: "user", content: "look everything up" },
    ];
    // One more tool round per turn: the conversation keeps hovering just over the budget.
    for (let turn = 0; turn < 60; turn++) {
      messages = [
        ...messages,
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: `c${turn}`, type: "function", function: { name: "lookup", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: `c${turn}`, content: `result ${turn} ${"data ".repeat(60)}` },
      ];
      const output = await hook({ messages: messages as never });
      if (output) messages = output.messages;
    }
    return events;
  }

  it("each masking frees at least minFreedTokens (a quarter of maxTokens by default)", async () => {
    const events = await hover(undefined);
    const masks = events.filter((event) => event.strategy === "mask");
    for (const mask of masks) expect(mask.freed).toBeGreaterThanOrEqual(500);
    // Without the floor, masking a result or two per turn changes the request's start again and again.
    const eager = (await hover(0)).filter((event) => event.strategy === "mask");
    expect(eager.some((mask) => mask.freed < 500)).toBe(true);
    expect(eager.length).toBeGreaterThan(masks.length);
  });
});
