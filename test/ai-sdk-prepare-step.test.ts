// toPrepareStep under the two ways the AI SDK calls `prepareStep`: 6.x hands it the call's messages
// and every response so far (a step's `response.messages` cumulative) and uses the returned messages
// for that step only; 7 hands it what the last step sent (the returned messages, when there were
// any) and that step's own `response.messages`, and passes `initialMessages` (ai@7.0.173,
// `generateTextInternal`: `messagesForNextStep = [...stepMessages, ...stepResponseMessages]`).
// Both loops are reproduced here as the two versions run them; the model reports, as a provider
// does, the input tokens of what it received, counted higher than the estimate.
import { describe, expect, it } from "vitest";
import { toPrepareStep } from "../src/adapters/ai-sdk.js";
import { SUMMARY_PREFIX, findToolPairProblems } from "../src/expert.js";
import { estimateTokens } from "../src/index.js";
import { builders } from "./support/builders.js";

type Message = { role: string; content: unknown };
const { user, assistant, toolCall, toolResult } = builders["ai-sdk"];
const maxTokens = 3_000;
/** The provider's count of a request: a third more than the estimate, as a real tokenizer may. */
const billed = (messages: readonly object[]) => Math.ceil(estimateTokens(messages) * 1.35);

function opening(): Message[] {
  const messages: Message[] = [];
  for (let turn = 0; turn < 6; turn++)
    messages.push(
      user(`Earlier question ${turn}: ${"context ".repeat(60)}`),
      assistant(`Earlier answer ${turn}: ${"finding ".repeat(60)}`),
    );
  messages.push(user("Research the new topic."));
  return messages;
}

/** One step's own response: a tool call and its result. */
function response(step: number): Message[] {
  return [
    toolCall(`call_${step}`, "lookup", { q: `s${step}` }),
    toolResult(`call_${step}`, `result ${step}: ${"fact ".repeat(150)}`, { name: "lookup" }),
  ];
}

async function run(version: 6 | 7, steps = 12) {
  let summaries = 0;
  const prepareStep = toPrepareStep({
    maxTokens,
    summarize: (older) => `summary ${++summaries} of ${older.length} messages`,
  });
  const initialMessages = opening();
  const sent: Message[][] = [];
  const done: { usage: { inputTokens: number }; response: { messages: Message[] } }[] = [];
  let next = initialMessages;
  const accumulated: Message[] = [];
  for (let stepNumber = 0; stepNumber < steps; stepNumber++) {
    const input = version === 6 ? [...initialMessages, ...accumulated] : next;
    const prepared = await prepareStep({
      messages: input,
      steps: done,
      stepNumber,
      ...(version === 7 ? { initialMessages, responseMessages: [...accumulated] } : {}),
    });
    const stepMessages = prepared.messages ?? input;
    sent.push(stepMessages);
    const own = response(stepNumber);
    accumulated.push(...own);
    done.push({
      usage: { inputTokens: billed(stepMessages) },
      response: { messages: version === 6 ? structuredClone(accumulated) : structuredClone(own) },
    });
    next = [...stepMessages, ...own];
  }
  return { sent, summaries };
}

const holdsSummary = (messages: readonly Message[]) =>
  messages.some((m) => typeof m.content === "string" && m.content.startsWith(SUMMARY_PREFIX));

describe.each([6, 7] as const)("toPrepareStep as AI SDK %i calls it", (version) => {
  it("reads the last step's usage against the messages it covers: no request after the first goes over, none loses the summary, one summary per crossing", async () => {
    const { sent, summaries } = await run(version);
    for (const [index, messages] of sent.entries()) {
      expect(findToolPairProblems(messages)).toEqual([]);
      if (index > 0) expect(billed(messages), `request ${index}`).toBeLessThanOrEqual(maxTokens);
    }
    const first = sent.findIndex(holdsSummary);
    expect(first).toBeGreaterThanOrEqual(0);
    for (const messages of sent.slice(first)) expect(holdsSummary(messages)).toBe(true);
    // Each summary frees at least a third of the budget, and each step adds about 230 tokens.
    const added = sent.slice(1).reduce((sum, _, index) => sum + billed(response(index)), 0);
    expect(summaries).toBeLessThanOrEqual(Math.ceil(added / (maxTokens / 3)) + 1);
  });
});
