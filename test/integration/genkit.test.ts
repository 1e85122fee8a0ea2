// Genkit's real `generate` with a model defined in the test (`ai.defineModel`) and a real tool,
// compacting through `toModelMiddleware`: what the model receives on every call is checked.
import { genkit, z, type MessageData } from "genkit";
import { describe, expect, it } from "vitest";
import { toModelMiddleware, type ModelMiddlewareCompactionOptions } from "../../src/adapters/genkit.js";
import { SUMMARY_PREFIX, detectDialect, findToolPairProblems } from "../../src/expert.js";
import { estimateTokens, memoryStore, type CompactionStore } from "../../src/index.js";
import { providerViolations } from "../support/provider-rules/index.js";

const maxTokens = 1_200;
const system = "You are a research agent. Look every fact up.";

function setup(summarizeCalls: () => number = () => 0) {
  const ai = genkit({});
  /** Every request the model received, in order, and how many summaries had been made by then. */
  const requests: MessageData[][] = [];
  const summariesBy: number[] = [];
  // A tool request for each question, then an answer once the tool has replied.
  const model = ai.defineModel(
    { name: "scripted", supports: { tools: true, multiturn: true, systemRole: true } },
    async (request) => {
      requests.push(structuredClone(request.messages));
      summariesBy.push(summarizeCalls());
      const last = request.messages.at(-1)!;
      if (last.role === "tool")
        return { message: { role: "model", content: [{ text: `Answer ${requests.length}.` }] }, finishReason: "stop" };
      return {
        message: {
          role: "model",
          content: [
            {
              toolRequest: {
                name: "lookup",
                ref: `call-${requests.length}`,
                input: { q: `question ${requests.length}` },
              },
            },
          ],
        },
        finishReason: "stop",
      };
    },
  );
  const lookup = ai.defineTool(
    {
      name: "lookup",
      description: "Look up a fact",
      inputSchema: z.object({ q: z.string() }),
      outputSchema: z.string(),
    },
    async ({ q }) => `facts about ${q}: ${"fact ".repeat(100)}`,
  );
  return { ai, model, lookup, requests, summariesBy };
}

/** The conversation so far without its system message: `generate` adds the one `system` gives. */
const withoutSystem = (history: MessageData[]) => history.filter((message) => message.role !== "system");

const question = (turn: number) => `Question ${turn}: ${"context ".repeat(30)}`;
const isSummary = (message: MessageData) =>
  message.content.some((part) => typeof part.text === "string" && part.text.startsWith(SUMMARY_PREFIX));

/** Runs `turns` turns, each a `generate` over the saved history; returns the history and the summarize calls per turn. */
async function converse(
  turns: number,
  middleware: (turn: number) => ReturnType<typeof toModelMiddleware>,
  summarizeCalls: () => number,
) {
  const { ai, model, lookup, requests, summariesBy } = setup(summarizeCalls);
  let history: MessageData[] = [];
  const perTurn: number[] = [];
  for (let turn = 0; turn < turns; turn++) {
    const before = summarizeCalls();
    const response = await ai.generate({
      model,
      system,
      messages: withoutSystem(history),
      prompt: question(turn),
      tools: [lookup],
      use: [middleware(turn)],
    });
    history = response.messages;
    perTurn.push(summarizeCalls() - before);
  }
  return { history, perTurn, requests, summariesBy };
}

function counted() {
  let calls = 0;
  const summarize = (older: MessageData[]) => {
    calls++;
    return `the earlier ${older.length} messages`;
  };
  return { summarize, calls: () => calls };
}

const options = (
  summarize: ModelMiddlewareCompactionOptions<MessageData>["summarize"],
  store?: CompactionStore,
): ModelMiddlewareCompactionOptions<MessageData> => ({
  maxTokens,
  summarize,
  conversationId: "chat-1",
  ...(store ? { store } : {}),
});

describe("toModelMiddleware with Genkit's generate", () => {
  it("14 turns with tool calls: the model gets the summary, every request is pair-valid and fits, summarize runs at crossings only", async () => {
    const { summarize, calls } = counted();
    const middleware = toModelMiddleware(options(summarize));
    const { history, perTurn, requests, summariesBy } = await converse(14, () => middleware, calls);
    expect(requests).toHaveLength(28);
    expect(requests.some((messages) => messages.some(isSummary))).toBe(true);
    for (const messages of requests) {
      expect(findToolPairProblems(messages)).toEqual([]);
      // What Genkit's Gemini plugins accept (a single system message, first; tool turns as they map them).
      expect(providerViolations("genkit-gemini", { messages })).toEqual([]);
      expect(estimateTokens(messages)).toBeLessThanOrEqual(maxTokens);
      expect(messages[0]).toEqual({ role: "system", content: [{ text: system }] });
    }
    expect(detectDialect(history)).toBe("genkit");
    expect(perTurn.reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(2);
    // A summary is made only where the budget is crossed: then reused, so never for two model
    // calls in a row (one step adds far less than the room a compaction leaves), and each one reaches the model.
    for (let index = 1; index < requests.length; index++) {
      const made = summariesBy[index]! - summariesBy[index - 1]!;
      expect(made).toBeLessThanOrEqual(1);
      if (made === 1) {
        expect(summariesBy[index + 1] ?? summariesBy[index]).toBe(summariesBy[index]);
        expect(requests[index]!.some(isSummary)).toBe(true);
      }
    }
    // Genkit's own history is the model's: whole, and no summary in it.
    expect(history.filter((m) => m.role === "user")).toHaveLength(14);
    expect(history.some(isSummary)).toBe(false);
    expect(estimateTokens(history)).toBeGreaterThan(3 * maxTokens);
  });

  it("a fresh middleware per request with a shared store continues from the last compaction", async () => {
    const long = counted();
    const middleware = toModelMiddleware(options(long.summarize));
    await converse(14, () => middleware, long.calls);

    const fresh = counted();
    const store = memoryStore();
    const { requests } = await converse(14, () => toModelMiddleware(options(fresh.summarize, store)), fresh.calls);
    expect(fresh.calls()).toBe(long.calls());
    for (const messages of requests) expect(findToolPairProblems(messages)).toEqual([]);
  });

  it("a failing summarize rejects the generate call and leaves the history as it was", async () => {
    const { ai, model, lookup } = setup();
    const store = memoryStore();
    let fail = false;
    const summarize = () => {
      if (fail) throw new Error("summarizer down");
      return "s";
    };
    let history: MessageData[] = [];
    for (let turn = 0; turn < 2; turn++) {
      history = (
        await ai.generate({
          model,
          system,
          messages: withoutSystem(history),
          prompt: question(turn),
          tools: [lookup],
          use: [toModelMiddleware(options(summarize, store))],
        })
      ).messages;
    }
    const before = structuredClone(history);
    fail = true;
    let rejected: unknown;
    for (let turn = 2; turn < 12 && rejected === undefined; turn++) {
      try {
        history = (
          await ai.generate({
            model,
            system,
            messages: withoutSystem(history),
            prompt: question(turn),
            tools: [lookup],
            use: [toModelMiddleware(options(summarize, store))],
          })
        ).messages;
      } catch (error) {
        rejected = error;
      }
    }
    expect(String((rejected as Error)?.message)).toMatch(/summar/i);
    // Everything that was there is still there, untouched, and no summary took its place.
    expect(history.slice(0, before.length)).toEqual(before);
    expect(history.some(isSummary)).toBe(false);
  });
});
