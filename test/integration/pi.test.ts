// pi's real `Agent` under its former name (`@mariozechner/pi-agent-core` 0.73.1, which runs on
// Node 20; the current `@earendil-works/pi-agent-core` needs Node 22 and runs in
// runtimes/pi-end-to-end.mjs), driven by pi-ai's own faux provider, with a tool, compacting
// through `toTransformContext`: what the model receives on every call is checked.
import { Agent, type AgentMessage, type AgentTool } from "@mariozechner/pi-agent-core";
import {
  fauxAssistantMessage,
  fauxToolCall,
  registerFauxProvider,
  type Context,
  type FauxProviderRegistration,
} from "@mariozechner/pi-ai";
import { Type } from "typebox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toTransformContext } from "../../src/adapters/pi.js";
import { SUMMARY_PREFIX, detectDialect, findToolPairProblems } from "../../src/expert.js";
import { estimateTokens, memoryStore, type CompactionStore } from "../../src/index.js";
import { builders } from "../support/builders.js";

const maxTokens = 1_500;
const systemPrompt = "You are a research agent. Look every fact up.";

const lookup: AgentTool = {
  name: "lookup",
  label: "Lookup",
  description: "Look up a fact",
  parameters: Type.Object({ q: Type.String() }),
  execute: async (_id, params) => ({
    content: [{ type: "text", text: `facts about ${(params as { q: string }).q}: ${"fact ".repeat(120)}` }],
    details: {},
  }),
};

let faux: FauxProviderRegistration;
/** Every context the model received, in order. */
let requests: Context[] = [];

beforeAll(() => {
  faux = registerFauxProvider();
  // A tool call for each question, then an answer once the tool has replied. The tools hold functions: only the prompt is kept.
  const respond = (context: Context) => {
    requests.push({ systemPrompt: context.systemPrompt ?? "", messages: structuredClone(context.messages) });
    const last = context.messages.at(-1);
    return last?.role === "toolResult"
      ? fauxAssistantMessage(`Answer ${requests.length}.`)
      : fauxAssistantMessage([fauxToolCall("lookup", { q: `question ${requests.length}` })], { stopReason: "toolUse" });
  };
  faux.setResponses(Array.from({ length: 1_000 }, () => respond));
});
afterAll(() => faux.unregister());

/**
 * What the provider counted for each request, as each reply reports it: the count is anchored on
 * these figures (the faux provider counts the prompt's text, system prompt and tools included), so
 * the budget holds for them.
 */
const reportedInputs = (messages: readonly AgentMessage[]) =>
  messages.flatMap((m) =>
    m.role === "assistant" && m.stopReason !== "error" ? [m.usage.input + m.usage.cacheRead + m.usage.cacheWrite] : [],
  );

const holdsSummary = (context: Context) =>
  context.messages.some(
    (m) => m.role === "user" && typeof m.content === "string" && m.content.startsWith(SUMMARY_PREFIX),
  );
const question = (turn: number) => `Question ${turn}: ${"context ".repeat(30)}`;

function agent(
  summarize: (older: AgentMessage[]) => string | Promise<string>,
  options: { store?: CompactionStore; messages?: AgentMessage[]; onError?: "throw" } = {},
) {
  const { messages = [], ...rest } = options;
  return new Agent({
    initialState: { systemPrompt, model: faux.getModel(), tools: [lookup], messages },
    transformContext: toTransformContext<AgentMessage>({ maxTokens, summarize, conversationId: "chat-1", ...rest }),
  });
}

/** Runs the turns; returns how many summarize calls each turn made. */
async function converse(turns: number, next: (turn: number) => Agent) {
  const perTurn: number[] = [];
  for (let turn = 0; turn < turns; turn++) perTurn.push(await countedTurn(next(turn), turn));
  return perTurn;
}

let summarizeCalls = 0;
const summarize = (older: AgentMessage[]) => {
  summarizeCalls++;
  return `the earlier ${older.length} messages`;
};
async function countedTurn(instance: Agent, turn: number) {
  const before = summarizeCalls;
  await instance.prompt(question(turn));
  expect(instance.state.errorMessage).toBeUndefined();
  return summarizeCalls - before;
}

describe("toTransformContext with pi's Agent", () => {
  it("14 turns with tool calls: the model gets the summary, every request is pair-valid and fits, summarize runs at crossings only", async () => {
    requests = [];
    summarizeCalls = 0;
    const one = agent(summarize);
    const perTurn = await converse(14, () => one);
    expect(requests).toHaveLength(28);
    expect(requests.some(holdsSummary)).toBe(true);
    for (const context of requests) {
      expect(findToolPairProblems(context.messages)).toEqual([]);
      expect(context.systemPrompt).toBe(systemPrompt);
    }
    const inputs = reportedInputs(one.state.messages);
    expect(inputs).toHaveLength(28);
    expect(Math.max(...inputs)).toBeLessThanOrEqual(maxTokens);
    // Without compaction the last requests would have taken about twice the budget.
    expect(estimateTokens(one.state.messages)).toBeGreaterThan(2 * maxTokens);
    expect(detectDialect(one.state.messages)).toBe("pi-agent");
    // Each compaction is reused until the budget is crossed again: never on every turn.
    const total = perTurn.reduce((sum, calls) => sum + calls, 0);
    expect(total).toBeGreaterThanOrEqual(2);
    expect(total).toBeLessThanOrEqual(7);
    expect(perTurn.every((calls) => calls <= 1)).toBe(true);
    // pi's own history is never rewritten: every message is there, and no summary among them.
    expect(one.state.messages).toHaveLength(14 * 4);
    expect(
      one.state.messages.some(
        (m) => m.role === "user" && typeof m.content === "string" && m.content.startsWith(SUMMARY_PREFIX),
      ),
    ).toBe(false);
  });

  it("a fresh agent per request with a shared store continues from the last compaction", async () => {
    requests = [];
    summarizeCalls = 0;
    const long = await converse(
      14,
      (() => {
        const one = agent(summarize);
        return () => one;
      })(),
    );
    const expected = long.reduce((sum, calls) => sum + calls, 0);

    requests = [];
    summarizeCalls = 0;
    const store = memoryStore();
    let history: AgentMessage[] = [];
    const fresh = await converse(14, () => {
      // A new agent, as a stateless route makes one per request, holding the saved history.
      const instance = agent(summarize, { store, messages: history });
      instance.subscribe((event) => {
        if (event.type === "agent_end") history = instance.state.messages.slice();
      });
      return instance;
    });
    expect(fresh.reduce((sum, calls) => sum + calls, 0)).toBe(expected);
    expect(history).toHaveLength(14 * 4);
    for (const context of requests) expect(findToolPairProblems(context.messages)).toEqual([]);
  });

  it("a failing summarize leaves pi's history as it was: the model-free summary by default, an error run with onError: 'throw'", async () => {
    requests = [];
    const failing = () => {
      throw new Error("summarizer down");
    };
    const fallback = agent(failing);
    // Turns enough to cross the budget by the provider's own count (the faux provider counts fewer tokens than bytes / 4).
    for (let turn = 0; turn < 12; turn++) await fallback.prompt(question(turn));
    expect(fallback.state.errorMessage).toBeUndefined();
    expect(fallback.state.messages).toHaveLength(12 * 4);
    // The request still fit: the model-free summary took the place of the failed one.
    expect(requests.some(holdsSummary)).toBe(true);
    expect(Math.max(...reportedInputs(fallback.state.messages))).toBeLessThanOrEqual(maxTokens);

    const strict = agent(failing, { onError: "throw" });
    let turn = 0;
    for (; turn < 20 && strict.state.errorMessage === undefined; turn++)
      await strict.prompt(question(turn)).catch(() => {});
    expect(strict.state.errorMessage).toMatch(/summar/i);
    const kept = strict.state.messages.filter((m) => m.role !== "assistant" || m.stopReason !== "error");
    // Every message from before the failure is still there, and nothing is a summary.
    expect(kept.filter((m) => m.role === "user")).toHaveLength(turn);
    expect(
      kept.some((m) => m.role === "user" && typeof m.content === "string" && m.content.startsWith(SUMMARY_PREFIX)),
    ).toBe(false);
  });

  it("pi 0.86 and later: a system message of the summarized part (a tool added, a prompt section) comes back after the leading one, in its order", async () => {
    // The shapes of @earendil-works/pi-ai 1.x, whose Agent runs on Node 22 (runtimes/pi-end-to-end.mjs runs it there).
    const { user, toolCall, toolResult } = builders["pi-agent"];
    const system = (content: string, extra: object = {}) => ({ role: "system", content, timestamp: 1, ...extra });
    const leading = system(systemPrompt, {
      toolsAdded: [{ name: "lookup", description: "Look up a fact", parameters: {} }],
    });
    const section = system("", { sections: { sources: "<sources>Cite every source.</sources>" } });
    const added = system("", { toolsAdded: [{ name: "fetch", description: "Fetch a page", parameters: {} }] });
    const transcript: object[] = [leading];
    for (let turn = 0; turn < 12; turn++) {
      transcript.push(
        user(question(turn)),
        toolCall(`c${turn}`, "lookup", { q: `${turn}` }),
        toolResult(`c${turn}`, "fact ".repeat(200)),
      );
      if (turn === 2) transcript.push(section);
      if (turn === 4) transcript.push(added);
    }
    const sent = await toTransformContext({ maxTokens, summarize: (older) => `the earlier ${older.length} messages` })(
      transcript,
    );
    expect(sent.length).toBeLessThan(transcript.length);
    expect(sent[0]).toBe(leading);
    expect(sent[1]).toBe(section);
    expect(sent[2]).toBe(added);
    expect(String((sent[3] as { content?: unknown }).content).startsWith(SUMMARY_PREFIX)).toBe(true);
    expect(findToolPairProblems(sent)).toEqual([]);
    // Under budget nothing is added: the transcript is sent as it is.
    const short = transcript.slice(0, 8);
    expect(await toTransformContext({ maxTokens, summarize: () => "unused" })(short)).toBe(short);
  });
});
