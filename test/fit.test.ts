// The request the hook returns fits the window whenever that is possible.
import { isSummaryMessage } from "../src/dialects/messages.js";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import {
  SUMMARY_PREFIX,
  FLUSH_TO_MEMORY_REMINDER,
  SUMMARY_REPLY,
  detectDialect,
  findToolPairProblems,
} from "../src/expert.js";
import { buildSummaryPrompt } from "../src/summary-kit.js";
import {
  compactor,
  estimateTokens,
  isCompactionError,
  type CompactedEvent,
  type SkippedEvent,
  type SummaryContext,
} from "../src/index.js";
import { isUserBoundary } from "../src/dialects/messages.js";
import { truncateToolPayloads } from "../src/plan/truncate-tool-payloads.js";
import { dialectFixtures } from "./support/dialect-fixtures.js";
import { deepFreeze, dialects, render, shapeArbitrary, summaryRoleFor, type Shape } from "./support/transcripts.js";

type Message = Record<string, unknown>;
// fast-check's default run count, per dialect and property: 89 to 100 of the 100 shapes drawn
// compact or fit (the tests ask for more than a fifth).
const runs = { numRuns: 100 };

/** Shapes where some tool outputs are far larger than the rest, as real coding runs have. */
const heavyShape = fc
  .tuple(shapeArbitrary({ minTurns: 1, maxTurns: 4, maxRounds: 6 }), fc.nat(4), fc.integer({ min: 5, max: 60 }))
  .map(
    ([shape, pick, factor]): Shape => ({
      ...shape,
      steps: shape.steps.map((step) =>
        step.kind !== "tools"
          ? step
          : {
              ...step,
              calls: step.calls.map((call) =>
                Number(call.id.slice(5)) % 5 === pick ? { ...call, result: `${call.result}|`.repeat(factor) } : call,
              ),
            },
      ),
    }),
  );

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;
const systemTokens = (messages: readonly Message[]) =>
  messages[0]?.["role"] === "system" && !isSummaryMessage(messages[0]) ? estimateTokens([messages[0]]) : 0;
function latestRequest(messages: readonly Message[]): Message | undefined {
  for (let index = messages.length - 1; index >= 0; index--)
    if (isUserBoundary(messages[index]!)) return messages[index];
  return undefined;
}

describe.each(dialects)("fit in %s", (dialect) => {
  const summaryRole = summaryRoleFor(dialect);

  it("the output fits whenever the system prompt, the latest request and a summary can; the request is always kept", async () => {
    let fitted = 0;
    await fc.assert(
      fc.asyncProperty(
        heavyShape,
        fc.double({ min: 0.05, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 0.8, noNaN: true }),
        fc.boolean(),
        async (shape, share, tailShare, flushToMemory) => {
          const messages = deepFreeze(render(shape, dialect));
          const total = estimateTokens(messages);
          const maxTokens = Math.max(1, Math.floor(total * share));
          const keepTail = Math.floor(maxTokens * tailShare);
          const reminder = flushToMemory
            ? estimateTokens([{ role: summaryRole, content: FLUSH_TO_MEMORY_REMINDER }]) + 8
            : 0;
          const request = latestRequest(messages);
          // The smallest summary message is about 20 tokens, 10 more with a user-role summary's seal and
          // 8 more with pi's timestamp; the default limit must allow one.
          // Where turns must alternate (Bedrock), the assistant reply that follows the summary too.
          const reply =
            dialect === "bedrock-converse"
              ? estimateTokens([{ role: "assistant", content: [{ text: SUMMARY_REPLY }] }])
              : 0;
          const smallest = (summaryRole === "user" ? 30 : 20) + (dialect === "pi-agent" ? 8 : 0) + reply;
          fc.pre(Math.floor((maxTokens - keepTail) / 2) >= smallest + reminder);
          const skipped: SkippedEvent[] = [];
          const hook = compactor({
            maxTokens,
            keepTail,
            summary: { role: summaryRole, flushToMemory },
            summarize: () => "s",
            onError: "skip",
            events: { onSkipped: (event) => skipped.push(event) },
          });
          const result = await hook({ messages });
          if (total <= maxTokens) {
            expect(result).toBeNull();
            return;
          }
          const possible =
            systemTokens(messages) + (request ? estimateTokens([request]) : 0) + smallest + reminder <= maxTokens;
          if (result === null) {
            // No summary can be smaller than an older part of a few tokens, and an old summary alone is no progress.
            const [event] = skipped;
            const allowed =
              event?.reason === "no-progress" ||
              event?.reason === "nothing-to-summarize" ||
              !possible ||
              (isCompactionError(event?.error) && /not smaller/.test((event.error as Error).message));
            expect(allowed, JSON.stringify(event)).toBe(true);
            return;
          }
          const output = result.messages as Message[];
          expect(findToolPairProblems(output)).toEqual([]);
          if (request) expect(output).toContain(request);
          if (systemTokens(messages) > 0) expect(output[0]).toBe(messages[0]);
          if (possible) {
            expect(estimateTokens(output)).toBeLessThanOrEqual(maxTokens);
            fitted++;
          }
        },
      ),
      runs,
    );
    expect(fitted).toBeGreaterThan(runs.numRuns / 5);
  });

  // The provider here counts every message at `ratio` times the estimate: the count after a
  // compaction is the provider's (SPEC §40), never below it, whichever way the ratio goes.
  it("with the provider's usage, the invariants hold and the output fits by the calibrated count, never below the provider's", async () => {
    let compacted = 0;
    await fc.assert(
      fc.asyncProperty(
        heavyShape,
        fc.double({ min: 0.05, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0.25, max: 3, noNaN: true }),
        async (shape, share, heldShare, ratio) => {
          const messages = deepFreeze(render(shape, dialect));
          const maxTokens = Math.max(1, Math.floor(estimateTokens(messages) * share));
          const messageCount = Math.floor(messages.length * heldShare);
          const usage = {
            inputTokens: Math.round(estimateTokens(messages.slice(0, messageCount)) * ratio),
            messageCount,
          };
          const done: CompactedEvent[] = [];
          const hook = compactor({
            maxTokens,
            summary: { role: summaryRole },
            summarize: () => "s",
            onError: "skip",
            events: { onCompacted: (event) => done.push(event) },
          });
          const result = await hook({ messages, usage });
          if (result === null) return;
          const output = result.messages as Message[];
          const request = latestRequest(messages);
          expect(findToolPairProblems(output)).toEqual([]);
          if (request) expect(output).toContain(request);
          if (systemTokens(messages) > 0) expect(output[0]).toBe(messages[0]);
          const [event] = done;
          // The transcript's messages at the provider's ratio; what the hook wrote (the summary, a
          // cut payload's copy) at its bytes / 4 at least: a summary is the summarizer's text, which
          // a tokenizer counts by its content, not at the transcript's density (a prose summary of
          // UUIDs is not twice its bytes / 4; test/summary-count.test.ts holds it to o200k).
          const written = output.filter((message) => !messages.includes(message));
          const providerCount =
            messageCount === 0
              ? estimateTokens(output)
              : ratio * estimateTokens(output.filter((message) => messages.includes(message))) +
                Math.min(1, ratio) * estimateTokens(written);
          // The report is a whole number (the ratio's product rounded), so the scale read from it may be a hair under `ratio`.
          expect(event!.tokensAfter).toBeGreaterThanOrEqual(
            Math.floor(providerCount * (1 - 1 / Math.max(1, usage.inputTokens))) - 1,
          );
          if (!event!.overBudget) expect(event!.tokensAfter).toBeLessThanOrEqual(maxTokens);
          compacted++;
        },
      ),
      runs,
    );
    expect(compacted).toBeGreaterThan(runs.numRuns / 5);
  });

  it("truncation keeps every pair and the system prompt, cuts only what is needed, and is idempotent", () => {
    fc.assert(
      fc.property(heavyShape, fc.double({ min: 0.05, max: 1, noNaN: true }), (shape, share) => {
        const messages = deepFreeze(render(shape, dialect));
        const budget = Math.floor(estimateTokens(messages) * share);
        const truncation = truncateToolPayloads(messages, budget, undefined);
        if (truncation === undefined) return;
        expect(truncation.messages).toHaveLength(messages.length);
        expect(findToolPairProblems(truncation.messages)).toEqual(findToolPairProblems(messages));
        expect(truncation.messages[0]).toBe(messages[0]);
        expect(truncation.tokens).toBe(estimateTokens(truncation.messages));
        expect(detectDialect(truncation.messages)).toBe(detectDialect(messages));
        if (truncation.tokens <= budget)
          expect(truncateToolPayloads(truncation.messages, budget, undefined)).toBeUndefined();
      }),
      runs,
    );
  });

  // SPEC §39: a call keeps nothing between calls. A cut that started its search at the length an
  // earlier call found could stop at another fitting length (the count is not strictly monotone in
  // the length kept): the same messages and budget were cut one way after a call and another alone.
  it("truncation depends on nothing an earlier call cut", () => {
    fc.assert(
      fc.property(
        heavyShape,
        fc.double({ min: 0.05, max: 1, noNaN: true }),
        fc.double({ min: 0.05, max: 1, noNaN: true }),
        (shape, earlier, share) => {
          // Payloads dense with identifiers (paths, ids, codes): a cut lists the ones it removed,
          // so the count moves unevenly with the length kept.
          const idRich = (text: string) =>
            text.replace(
              /\|/g,
              (_, at: number) => ` src/m${at % 97}/f_${(at * 7919) % 100003}.ts:${at} E${at % 1000} `,
            );
          const dense = {
            ...shape,
            steps: shape.steps.map((step) =>
              step.kind !== "tools"
                ? step
                : { ...step, calls: step.calls.map((call) => ({ ...call, result: idRich(call.result) })) },
            ),
          };
          const messages = deepFreeze(render(dense, dialect));
          const total = estimateTokens(messages);
          // An earlier step of an agent loop, on the same message objects, against another budget.
          truncateToolPayloads(messages, Math.floor(total * earlier), undefined);
          const after = truncateToolPayloads(messages, Math.floor(total * share), undefined);
          const alone = truncateToolPayloads(deepFreeze(render(dense, dialect)), Math.floor(total * share), undefined);
          expect(JSON.stringify(after?.messages)).toBe(JSON.stringify(alone?.messages));
        },
      ),
      { numRuns: 300 },
    );
  });
});

// The big round is made by a JSON round trip, which LangChain's class instances do not survive.
describe.each(dialectFixtures.filter((fixture) => fixture.name !== "langchain"))("truncation in $name", (fixture) => {
  const huge = "line of output\n".repeat(3000);
  const bigRound = JSON.parse(
    JSON.stringify(fixture.toolRound).replaceAll("found A", JSON.stringify(huge).slice(1, -1)),
  ) as Message[];

  it("cuts an oversized result in the middle, in the dialect's own shape, ids kept", async () => {
    const messages = [fixture.user, ...bigRound];
    const result = await compactor({ maxTokens: 2000, summarize: () => "s", summary: { role: "user" } })({
      messages: [fixture.user, ...fixture.toolRound, ...messages],
    });
    const output = result!.messages as Message[];
    expect(estimateTokens(output)).toBeLessThanOrEqual(2000);
    expect(findToolPairProblems(output)).toEqual([]);
    expect(detectDialect(output.slice(1))).toBe(fixture.name);
    const text = JSON.stringify(output);
    expect(text).toMatch(/\[… \d+ characters cut to fit the context window(; it named [^\n]+)? …\]/);
    expect(text).toContain("line of output");
  });
});

describe("the ladder", () => {
  const big = (n: number) => `${n}:${"x".repeat(8000)}`;
  const system = { role: "system", content: "You are a coding agent." };
  const request = { role: "user", content: "Fix the bug in src/parser.ts" };
  const round = (id: string, result: string) => [
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id, type: "function", function: { name: "read", arguments: "{}" } }],
    },
    { role: "tool", tool_call_id: id, content: result },
  ];

  it("keeps the only request of a first turn, right after the system prompt", async () => {
    const messages = [system, request, ...round("a", big(1)), ...round("b", big(2))];
    const result = await compactor({ maxTokens: 3000, summarize: () => "s" })({ messages });
    expect(result!.messages).toContain(request);
    expect(estimateTokens(result!.messages)).toBeLessThanOrEqual(3000);
  });

  it("cuts the older result before the newest", async () => {
    // One group of two parallel calls: it cannot be split, so its payloads are cut.
    const parallel = [
      {
        role: "assistant",
        content: null,
        tool_calls: ["a", "b"].map((id) => ({ id, type: "function", function: { name: "read", arguments: "{}" } })),
      },
      { role: "tool", tool_call_id: "a", content: big(1) },
      { role: "tool", tool_call_id: "b", content: big(2) },
    ];
    const messages = [
      system,
      { role: "user", content: "earlier" },
      { role: "assistant", content: "done" },
      request,
      ...parallel,
    ];
    const result = await compactor({
      maxTokens: 4000,
      keepTail: 3900,
      summary: { maxTokens: 50 },
      summarize: () => "s",
    })({ messages });
    const results = (result!.messages as Message[])
      .filter((m) => m["role"] === "tool")
      .map((m) => m["content"] as string);
    expect(results.at(-1)).toBe(big(2));
    expect(results[0]).toMatch(/characters cut to fit/);
  });

  it("leaves the older part room for what replaces it, even when summary.maxTokens leaves less", async () => {
    // A Gemini turn after an unsealed summary-like user message: 77 tokens, keepTail 55 of 62,
    // so the default summary room is 3 tokens while even an empty summary message takes more.
    const earlier = { role: "user", parts: [{ text: `${SUMMARY_PREFIX}` }] };
    const ask = { role: "user", parts: [{ text: "" }] };
    const call = { role: "model", parts: [{ functionCall: { id: "call_0", name: "lookup", args: { q: "" } } }] };
    const answer = {
      role: "user",
      parts: [{ functionResponse: { id: "call_0", name: "lookup", response: { output: "" } } }],
    };
    const messages = deepFreeze([earlier, ask, call, answer]);
    expect(estimateTokens(messages)).toBe(77);
    const summarize = vi.fn((_older: object[]) => "s");
    const onCompacted = vi.fn((_event: CompactedEvent) => {});
    const result = await compactor({
      maxTokens: 62,
      keepTail: 55,
      summary: { role: "user" },
      summarize,
      events: { onCompacted },
    })({ messages });
    // The latest request alone, everything else summarized, fits; the transcript as it was does not.
    expect(summarize).toHaveBeenCalledOnce();
    expect(summarize.mock.calls[0]![0]).toEqual([earlier, call, answer]);
    expect(result!.messages.at(-1)).toBe(ask);
    expect(result!.overBudget).toBeUndefined();
    expect(estimateTokens(result!.messages)).toBeLessThanOrEqual(62);
    expect(findToolPairProblems(result!.messages)).toEqual([]);
    expect(onCompacted).toHaveBeenCalledWith(expect.objectContaining({ strategy: "summarize", overBudget: false }));
  });

  it("reports what cannot fit, and why", async () => {
    const onSkipped = vi.fn();
    const onCompacted = vi.fn();
    const options = { summarize: () => "s", events: { onSkipped, onCompacted } };
    await compactor({ maxTokens: 5, ...options })({ messages: [system, request] });
    expect(onSkipped).toHaveBeenLastCalledWith(
      expect.objectContaining({ overBudget: true, overBudgetCause: "system-prompt" }),
    );
    await compactor({ maxTokens: 40, ...options })({ messages: [system, { role: "user", content: big(0) }] });
    expect(onSkipped).toHaveBeenLastCalledWith(
      expect.objectContaining({ overBudget: true, overBudgetCause: "latest-user-message" }),
    );
    await compactor({ maxTokens: 100, ...options, summary: { maxTokens: 60 } })({
      messages: [system, ...round("a", "ok"), { role: "user", content: big(0) }],
    });
    expect(onCompacted).toHaveBeenLastCalledWith(
      expect.objectContaining({ overBudget: true, overBudgetCause: "latest-user-message" }),
    );
  });

  it("passes maxSummaryTokens to summarize, and rejects a summary over it or not smaller than what it replaces", async () => {
    const messages = [
      system,
      ...Array.from({ length: 10 }, (_, i) => [
        { role: "user", content: `question ${i} ${"context ".repeat(40)}` },
        { role: "assistant", content: `answer ${i}` },
      ]).flat(),
    ];
    const summarize = vi.fn((_older: object[], _context: SummaryContext) => "s");
    await compactor({ maxTokens: 600, keepTail: 200, summarize })({ messages });
    // The limit of the summary message, less what the prefix and the message around the text take.
    const envelope = estimateTokens([{ role: "system", content: SUMMARY_PREFIX }]);
    expect(summarize.mock.calls[0]![1]).toMatchObject({ maxSummaryTokens: 200 - envelope });
    const tenMegabytes = "y".repeat(10_000_000);
    const hook = compactor({ maxTokens: 600, summarize: () => tenMegabytes });
    const before = structuredClone(messages);
    // The error names the limit `summarize` was given for its text, and the room for the whole message.
    let given = 0;
    const namedHook = compactor({
      maxTokens: 600,
      summarize: (_older, context) => ((given = context.maxSummaryTokens), tenMegabytes),
    });
    const error = await namedHook({ messages }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "INVALID_SUMMARY" });
    expect((error as Error).message).toContain(`over the ${given} it was given (\`context.maxSummaryTokens\`)`);
    await expect(hook({ messages })).rejects.toMatchObject({ code: "INVALID_SUMMARY" });
    expect(messages).toEqual(before);
    // One message replaced by a one-message summary, counted per message: no gain, so no summary is asked for.
    const perMessage = (list: readonly unknown[]) => list.length;
    const onSkipped = vi.fn();
    const noGain = vi.fn(() => "s");
    await expect(
      compactor({ maxTokens: 2, keepTail: 0, countTokens: perMessage, summarize: noGain, events: { onSkipped } })({
        messages: [system, { role: "user", content: "u1" }, request],
      }),
    ).resolves.toBeNull();
    expect(noGain).not.toHaveBeenCalled();
    expect(onSkipped).toHaveBeenCalledWith(
      expect.objectContaining({ reason: "nothing-to-summarize", overBudget: true }),
    );
  });

  it.each(["system", "user"] as const)(
    "accepts a summary whose text takes exactly maxSummaryTokens (summaryRole %s)",
    async (summaryRole) => {
      const messages = [
        system,
        ...Array.from({ length: 10 }, (_, i) => [
          { role: "user", content: `question ${i} ${"context ".repeat(40)}` },
          { role: "assistant", content: `answer ${i}` },
        ]).flat(),
      ];
      // Text of exactly `tokens` tokens as the estimate counts text in a message: its JSON string's bytes / 4.
      const exactly = (tokens: number) => "w".repeat(tokens * 4 - 2);
      const summarize = vi.fn((_older: object[], context: SummaryContext) => exactly(context.maxSummaryTokens));
      const result = await compactor({ maxTokens: 600, keepTail: 200, summary: { role: summaryRole }, summarize })({
        messages,
      });
      expect(result).not.toBeNull();
      expect(Math.ceil(utf8Bytes(JSON.stringify(exactly(summarize.mock.calls[0]![1].maxSummaryTokens))) / 4)).toBe(
        summarize.mock.calls[0]![1].maxSummaryTokens,
      );
      const tooLong = compactor({
        maxTokens: 600,
        keepTail: 200,
        summary: { role: summaryRole },
        summarize: (_older, context) => exactly(context.maxSummaryTokens + 2),
      });
      await expect(tooLong({ messages })).rejects.toMatchObject({ code: "INVALID_SUMMARY" });
    },
  );

  it("with splitInsideTurn and truncateToolResults off, the summary is still checked and room is still kept for it", async () => {
    const messages = [system, request, ...round("a", big(1)), ...round("b", big(2))];
    const rungsOff = { maxTokens: 3000, ladder: { splitInsideTurn: false, truncateToolResults: false } } as const;
    await expect(compactor({ ...rungsOff, summarize: () => "z".repeat(20_000) })({ messages })).rejects.toMatchObject({
      code: "INVALID_SUMMARY",
    });
    const result = await compactor({
      ...rungsOff,
      summarize: (_older, context) => "z".repeat(context.maxSummaryTokens * 4 - 2),
    })({ messages });
    // The request is kept beside a summary as long as its limit allows, and the two fit.
    expect(result!.messages).toContain(request);
    expect(estimateTokens(result!.messages)).toBeLessThanOrEqual(3000);
  });

  it("the summary prompt tells the model the limit", () => {
    const { user } = buildSummaryPrompt([request], {
      previousSummary: undefined,
      instructions: undefined,
      maxSummaryTokens: 800,
    });
    expect(user).toContain("Keep the whole summary under 800 tokens (about 600 words)");
  });
});
