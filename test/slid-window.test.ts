// A stored compaction followed across a window that slides: a caller that sends only the last
// messages of its thread (Mastra's memory sends its last `lastMessages`) drops messages from the
// front of every request, and the summary must still be made once per crossing.
import { describe, expect, it } from "vitest";
import { toInputProcessor } from "../src/adapters/mastra.js";
import { SUMMARY_PREFIX, findToolPairProblems } from "../src/expert.js";
import { estimateTokens } from "../src/index.js";
import { parseStates } from "../src/stores/conversation-state.js";
import { isOwnRun } from "../src/state/slid-window.js";

type PromptMessage = { role: string; content: string | Record<string, unknown>[] };

const system: PromptMessage = { role: "system", content: "You are a research agent." };

/** The messages of one turn: a question, a tool round and an answer. */
function turn(index: number): PromptMessage[] {
  return [
    { role: "user", content: [{ type: "text", text: `Question ${index}: ${"context ".repeat(60)}` }] },
    {
      role: "assistant",
      content: [{ type: "tool-call", toolCallId: `call-${index}`, toolName: "lookup", input: { q: `q${index}` } }],
    },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: `call-${index}`,
          toolName: "lookup",
          output: { type: "text", value: "fact ".repeat(100) },
        },
      ],
    },
    { role: "assistant", content: [{ type: "text", text: `Answer ${index}.` }] },
  ];
}

const holdsSummary = (messages: readonly PromptMessage[]) =>
  JSON.stringify(messages).includes(JSON.stringify(SUMMARY_PREFIX).slice(1, -1));

/**
 * `turns` turns, each request the system prompt and the thread's last `window` messages (the whole
 * thread when `window` is Infinity). Returns the summarize calls, the crossings (a request over
 * the budget as sent, or one whose summary-free form would be), and every request sent.
 */
async function converse({ turns, window, maxTokens }: { turns: number; window: number; maxTokens: number }) {
  let calls = 0;
  const processor = toInputProcessor({
    maxTokens,
    summarize: (older) => `summary ${++calls} of ${older.length} messages`,
  });
  const requestContext = { get: (key: string) => (key === "mastra__threadId" ? "thread-1" : undefined) };
  const thread: PromptMessage[] = [];
  const sent: PromptMessage[][] = [];
  for (let index = 0; index < turns; index++) {
    thread.push(...turn(index));
    const prompt = [system, ...thread.slice(Number.isFinite(window) ? -window : 0)];
    const result = await processor.processLLMRequest({ prompt, requestContext, state: {} });
    sent.push(result?.prompt ?? prompt);
  }
  return { calls, sent };
}

describe("a stored compaction over a sliding window", () => {
  it("summarizes once per crossing when the window drops messages from the front", async () => {
    const maxTokens = 2_000;
    const { calls, sent } = await converse({ turns: 40, window: 40, maxTokens });
    // Each request sent fits, so every summary after the first answers a crossing of the budget by
    // what was added since the request before it.
    let crossings = 1;
    for (let index = 1; index < sent.length; index++)
      if (estimateTokens(sent[index - 1]!) + estimateTokens(turn(index)) > maxTokens) crossings++;
    expect(crossings).toBeGreaterThanOrEqual(3);
    expect(calls).toBeLessThanOrEqual(crossings + 1);
    // A window of 40 messages is about 4,400 tokens: without the state, each request would summarize.
    expect(calls).toBeLessThan(20);
    for (const request of sent) {
      expect(estimateTokens(request)).toBeLessThanOrEqual(maxTokens);
      expect(findToolPairProblems(request)).toEqual([]);
    }
    expect(holdsSummary(sent.at(-1)!)).toBe(true);
  });

  it("makes as many summaries over the window as over the whole thread", async () => {
    const slid = await converse({ turns: 40, window: 40, maxTokens: 2_000 });
    const whole = await converse({ turns: 40, window: Infinity, maxTokens: 2_000 });
    expect(slid.calls).toBe(whole.calls);
  });

  it("does not take an edited covered message for a slid window", async () => {
    let calls = 0;
    const processor = toInputProcessor({ maxTokens: 2_000, summarize: () => `summary ${++calls}` });
    const requestContext = { get: (key: string) => (key === "mastra__threadId" ? "thread-2" : undefined) };
    const thread = Array.from({ length: 12 }, (_, index) => turn(index)).flat();
    await processor.processLLMRequest({ prompt: [system, ...thread], requestContext, state: {} });
    expect(calls).toBe(1);
    // The same length, one early message changed: nothing slid, the summary no longer holds.
    const edited = [
      system,
      { role: "user", content: [{ type: "text", text: "Question 0, asked otherwise." }] },
      ...thread.slice(1),
    ];
    await processor.processLLMRequest({ prompt: edited, requestContext, state: {} });
    expect(calls).toBe(2);
  });

  it("refuses a stored covered tail of the wrong shape", () => {
    const state = {
      version: 3,
      covered: 2,
      digest: "a".repeat(64),
      pinned: [],
      summary: [{ role: "user", content: "x" }],
    };
    expect(parseStates(JSON.stringify({ ...state, coveredTail: ["b".repeat(16)] }))[0]!.coveredTail).toEqual([
      "b".repeat(16),
    ]);
    expect(() =>
      parseStates(JSON.stringify({ ...state, coveredTail: ["b".repeat(16), "c".repeat(16), "d".repeat(16)] })),
    ).toThrow("`coveredTail`");
    expect(() => parseStates(JSON.stringify({ ...state, coveredTail: ["nope"] }))).toThrow("`coveredTail`");
  });

  // A run of covered messages found again at the front of a slid window.
  const greeting = { role: "assistant", content: `Hello! ${"I can help with bookings. ".repeat(20)}` };
  const asked = (text: string) => ({ role: "user", content: text });
  const question = asked("Could you move my flight from Tuesday to Thursday morning, and keep the aisle seat I had?");
  it.each<[string, boolean, PromptMessage[]]>([
    ["the app's greeting alone", false, [greeting]],
    ["a hi and the greeting", false, [asked("hi"), greeting]],
    ["one user question, however long, and the greeting", false, [question, greeting]],
    ["two hi's answered by the greeting", false, [asked("hi"), greeting, asked("hi"), greeting]],
    ["a hi, the greeting and a user question of the conversation's own", true, [asked("hi"), greeting, question]],
    ["turns with tool rounds", true, [...turn(1), ...turn(2)]],
  ])("%s: own enough to follow: %s", (_, own, run) => {
    expect(isOwnRun(run)).toBe(own);
  });
});
