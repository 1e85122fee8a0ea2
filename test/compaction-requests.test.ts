// A compaction the agent asks for (`compact_context`): the call is read from the transcript itself,
// so a request is taken by the conversation it was made in and no other; what it keeps and
// summarizes; that it frees at least `compactTool.minTokens`; and what the tool answers.
import { describe, expect, it } from "vitest";
import { answerCompactContext } from "../src/tools.js";
import {
  compactor,
  estimateTokens,
  memoryStore,
  statefulCompactor,
  type DialectName,
  type SummaryContext,
} from "../src/index.js";
import { MAX_NOTE_CHARS } from "../src/plan/requested-compaction.js";
import { readCompactContext } from "../src/tools.js";
import { builders } from "./support/builders.js";

const { system, user, assistant, toolCall, toolResult } = builders["openai-chat"];

/** A coding task in one user turn: `steps` finished tool steps of about 500 tokens each, then the agent's compact_context call. */
function task(tag: string, steps: number, keep = `${tag}: the fix in src/pay.ts is verified`) {
  const work = Array.from({ length: steps }, (_, step) => [
    toolCall(`${tag}${step}`, "read_file", { path: `src/${tag}/${step}.ts` }),
    toolResult(`${tag}${step}`, `${tag} line ${step}: ${"const total = amount + fee; ".repeat(70)}`),
  ]).flat();
  return [
    system("You are a coding agent."),
    user(`${tag}: fix the rounding bug in the payment module`),
    ...work,
    toolCall(`${tag}-compact`, "compact_context", { keep }),
    toolResult(`${tag}-compact`, "Compaction requested."),
  ];
}

function recording() {
  const seen: (string | undefined)[] = [];
  const summarize = (_older: object[], context: SummaryContext) => {
    seen.push(context.instructions);
    return "Read the payment files; the rounding fix is verified.";
  };
  return { seen, summarize };
}

describe("a compact_context call in the transcript", () => {
  it("compacts under budget: keeps the user message and the open tool group, summarizes the finished work with the note, and frees at least minTokens", async () => {
    const { seen, summarize } = recording();
    const events: { tokensBefore: number; tokensAfter: number }[] = [];
    const hook = compactor({
      maxTokens: 100_000,
      summarize,
      compactTool: readCompactContext({ minTokens: 2_000 }),
      events: { onCompacted: (event) => events.push(event) },
    });
    const messages = task("alice", 20);
    const result = await hook({ messages });
    expect(result).not.toBeNull();
    expect(seen).toEqual(["The agent asked for this compaction. Keep: alice: the fix in src/pay.ts is verified"]);
    const sent = result!.messages;
    // System prompt, summary, the user message, then the compact_context call with its result.
    expect(sent[0]).toBe(messages[0]);
    expect(sent).toContain(messages[1]);
    expect(sent.slice(-2)).toEqual(messages.slice(-2));
    expect(estimateTokens(messages) - estimateTokens(sent)).toBeGreaterThanOrEqual(2_000);
    expect(events[0]!.tokensBefore - events[0]!.tokensAfter).toBeGreaterThanOrEqual(2_000);
  });

  it("is not taken when the finished work cannot free minTokens, and a request right after a compaction frees nothing", async () => {
    const { seen, summarize } = recording();
    const hook = compactor({ maxTokens: 100_000, summarize, compactTool: readCompactContext({ minTokens: 20_000 }) });
    expect(await hook({ messages: task("alice", 10) })).toBeNull();
    expect(seen).toEqual([]);
    const every = compactor({ maxTokens: 100_000, summarize, compactTool: readCompactContext({ minTokens: 2_000 }) });
    const compacted = await every({ messages: task("alice", 20) });
    // The model asks again at once: only the summary is left before its group.
    const again = [
      ...compacted!.messages,
      toolCall("again", "compact_context", { keep: "x" }),
      toolResult("again", "ok"),
    ];
    expect(await every({ messages: again })).toBeNull();
    expect(seen).toHaveLength(1);
  });

  it("asked at every step, compacts at most once per minTokens of growth", async () => {
    const { seen, summarize } = recording();
    const minTokens = 3_000;
    const hook = compactor({ maxTokens: 100_000, summarize, compactTool: readCompactContext({ minTokens }) });
    let messages: object[] = [system("You are a coding agent."), user("Refactor the payment module.")];
    let grown = 0;
    for (let step = 0; step < 40; step++) {
      messages = [
        ...messages,
        toolCall(`s${step}`, "read_file", { path: `src/${step}.ts` }),
        toolResult(`s${step}`, `${"let x = 1; ".repeat(120)}`),
        toolCall(`c${step}`, "compact_context", { keep: `step ${step}` }),
        toolResult(`c${step}`, "ok"),
      ];
      grown += estimateTokens(messages.slice(-4));
      const result = await hook({ messages });
      if (result !== null) messages = result.messages;
    }
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.length).toBeLessThanOrEqual(Math.floor(grown / minTokens));
  });

  it("is read from its conversation's own transcript: one hook serving two users interleaved never carries one's note into the other's summary", async () => {
    const { seen, summarize } = recording();
    const hook = compactor({ maxTokens: 100_000, summarize, compactTool: readCompactContext({ minTokens: 1_000 }) });
    const alice = task("alice", 20, "the customer's card 4111 1111 1111 1111, exp 09/29");
    const bob = [system("You are a coding agent."), user("bob: what is 2 + 2?"), assistant("4")];
    expect(await hook({ messages: bob })).toBeNull();
    expect(await hook({ messages: alice })).not.toBeNull();
    expect(await hook({ messages: [...bob, user("bob: and 3 + 3?")] })).toBeNull();
    expect(seen).toEqual([
      "The agent asked for this compaction. Keep: the customer's card 4111 1111 1111 1111, exp 09/29",
    ]);
  });

  it("bounds the note, never inside a surrogate pair, and is off without the reader", async () => {
    const { seen, summarize } = recording();
    const hook = compactor({ maxTokens: 100_000, summarize, compactTool: readCompactContext({ minTokens: 1_000 }) });
    await hook({ messages: task("alice", 20, `${"a".repeat(MAX_NOTE_CHARS - 1)}😀 and more`) });
    expect(seen[0]!.slice("The agent asked for this compaction. Keep: ".length)).toBe("a".repeat(MAX_NOTE_CHARS - 1));
    const off = compactor({ maxTokens: 100_000, summarize });
    expect(await off({ messages: task("alice", 20) })).toBeNull();
    expect(() => compactor({ maxTokens: 100, summarize, compactTool: readCompactContext({ name: "" }) })).toThrow(
      TypeError,
    );
    expect(() => compactor({ maxTokens: 100, summarize, compactTool: { minTokens: 3 } as never })).toThrow(
      /Expected `compactTool` to be what `readCompactContext\(\)` returns/,
    );
    expect(() => compactor({ maxTokens: 100, summarize, compactTool: readCompactContext({ minTokens: -1 }) })).toThrow(
      RangeError,
    );
  });

  it("is read under the name the tool is registered with", async () => {
    const { seen, summarize } = recording();
    const renamed = task("alice", 20).map(
      (message) => JSON.parse(JSON.stringify(message).replaceAll('"compact_context"', '"tidy_up"')) as object,
    );
    const hook = compactor({
      maxTokens: 100_000,
      summarize,
      compactTool: readCompactContext({ name: "tidy_up", minTokens: 1_000 }),
    });
    expect(await hook({ messages: renamed })).not.toBeNull();
    expect(
      await compactor({ maxTokens: 100_000, summarize, compactTool: readCompactContext({ minTokens: 1_000 }) })({
        messages: renamed,
      }),
    ).toBeNull();
    expect(seen).toHaveLength(1);
  });

  it.each(["anthropic", "ai-sdk", "openai-responses", "bedrock-converse", "google-genai"] satisfies DialectName[])(
    "is read in %s",
    async (dialect) => {
      const { seen, summarize } = recording();
      const b = builders[dialect];
      const work = Array.from({ length: 20 }, (_, step) => [
        b.toolCall(`t${step}`, "read_file", { path: `src/${step}.ts` }),
        b.toolResult(`t${step}`, "const total = amount + fee; ".repeat(70)),
      ]).flat();
      const messages = [
        b.user("Fix the rounding bug."),
        ...work,
        b.toolCall("c", "compact_context", { keep: "the fix is verified" }),
        b.toolResult("c", "ok"),
      ];
      const hook = compactor({
        maxTokens: 100_000,
        summarize,
        summary: { role: "user" },
        compactTool: readCompactContext({ minTokens: 1_000 }),
      });
      expect(await hook({ messages: messages as object[] })).not.toBeNull();
      expect(seen).toEqual(["The agent asked for this compaction. Keep: the fix is verified"]);
    },
  );
});

describe("the tool's answer (answerCompactContext)", () => {
  it("with the messages, says whether the next call compacts; without, what it will weigh; it keeps nothing", () => {
    const hook = compactor({
      maxTokens: 100_000,
      summarize: () => "s",
      compactTool: readCompactContext({ minTokens: 2_000 }),
    });
    expect(answerCompactContext(hook, "x", { messages: task("alice", 20).slice(0, -2) })).toEqual({
      scheduled: true,
      message: expect.stringMatching(
        /^Compaction scheduled: before your next step, the finished work is summarized \(at least \d+ tokens freed\)/,
      ),
    });
    expect(answerCompactContext(hook, "x", { messages: task("alice", 2).slice(0, -2) })).toEqual({
      scheduled: false,
      message: expect.stringMatching(
        /^Not compacted: the finished work since the last compaction is too small to free the 2000 tokens/,
      ),
    });
    expect(answerCompactContext(hook, "x").message).toMatch(
      /^Compaction requested: .* when that frees at least 2000 tokens/,
    );
    expect(() => answerCompactContext(hook, 42 as unknown as string)).toThrow(TypeError);
    expect(() => answerCompactContext(hook, "x", { conversationId: "a" } as never)).toThrow(TypeError);
    expect(() => answerCompactContext({}, "x")).toThrow(/a hook, statefulCompactor or adapter/);
  });
});

describe("on statefulCompactor", () => {
  it("compacts the conversation whose transcript holds the call, stores the result, and never another's", async () => {
    const { seen, summarize } = recording();
    const compact = statefulCompactor({
      maxTokens: 100_000,
      summarize,
      store: memoryStore(),
      compactTool: readCompactContext({ minTokens: 1_000 }),
    });
    const alice = task("alice", 20);
    expect(await compact([system("You help."), user("bob: hi")], { conversationId: "bob" })).toBeNull();
    const first = await compact(alice, { conversationId: "alice" });
    expect(first).not.toBeNull();
    expect(seen).toEqual(["The agent asked for this compaction. Keep: alice: the fix in src/pay.ts is verified"]);
    // Stored: the next call continues from it without summarizing again.
    expect((await compact([...alice, assistant("Done.")], { conversationId: "alice" }))?.messages).toEqual([
      ...first!.messages,
      assistant("Done."),
    ]);
    expect(seen).toHaveLength(1);
  });
});
