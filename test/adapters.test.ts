import { describe, expect, it } from "vitest";
import { toPrepareStep } from "../src/adapters/ai-sdk.js";
import { toCallModelInputFilter } from "../src/adapters/openai-agents.js";
import { SUMMARY_PREFIX } from "../src/expert.js";
import { compactor } from "../src/index.js";
import { builders } from "./support/builders.js";

const perMessage = (list: readonly unknown[]) => list.length;
const { user, assistant } = builders["openai-chat"];
const u = (n: number) => user(`u${n}`);
const a = (n: number) => assistant(`a${n}`);

describe("adapters", () => {
  it("toPrepareStep defaults summary.role to user and returns {} when nothing changed", async () => {
    const prepareStep = toPrepareStep({ maxTokens: 2, keepTail: 1, countTokens: perMessage, summarize: () => "s" });
    const result = await prepareStep({ messages: [u(1), a(1), u(2)], stepNumber: 3 });
    expect(result.messages?.[0]).toEqual({ role: "user", content: `${SUMMARY_PREFIX}s` });
    expect(await toPrepareStep({ maxTokens: 100, summarize: () => "s" })({ messages: [u(1)] })).toEqual({});
  });

  it("the adapters take events.onStoreError and report a failing store to it", async () => {
    const down = () => ({ get: () => Promise.reject(new Error("down")), set: () => {} });
    const errors: unknown[] = [];
    const events = { onStoreError: (error: unknown) => errors.push(error) };
    await toPrepareStep({
      maxTokens: 2,
      keepTail: 1,
      countTokens: perMessage,
      summarize: () => "s",
      store: down(),
      conversationId: "c",
      events,
    })({ messages: [u(1), a(1), u(2)] });
    await toCallModelInputFilter({
      maxTokens: 2,
      keepTail: 1,
      countTokens: perMessage,
      summarize: () => "s",
      store: down(),
      conversationId: "c",
      events,
    })({ modelData: { input: [u(1), a(1), u(2)] } } as never);
    expect(errors.map(String)).toEqual(["Error: down", "Error: down"]);
  });

  it("toPrepareStep keeps its default role beside the caller's other summary options, and yields to the caller's role", async () => {
    const roleWith = async (summary: object) => {
      const prepareStep = toPrepareStep({
        maxTokens: 2,
        keepTail: 1,
        countTokens: perMessage,
        summarize: () => "s",
        summary,
      });
      return (await prepareStep({ messages: [u(1), a(1), u(2)] })).messages?.[0];
    };
    expect(await roleWith({ flushToMemory: false })).toEqual({ role: "user", content: `${SUMMARY_PREFIX}s` });
    expect(await roleWith({ role: "system" })).toEqual({ role: "system", content: `${SUMMARY_PREFIX}s` });
  });

  it("toCallModelInputFilter compacts modelData.input and keeps the rest", async () => {
    const filter = toCallModelInputFilter({ maxTokens: 2, keepTail: 1, countTokens: perMessage, summarize: () => "s" });
    const modelData = { input: [u(1), a(1), u(2)], instructions: "be kind" };
    const result = await filter({ modelData });
    expect(result).toEqual({
      instructions: "be kind",
      input: [{ role: "system", content: `${SUMMARY_PREFIX}s` }, u(2)],
    });
    expect(modelData.input).toHaveLength(3);
    const untouched = { input: [u(1)] };
    expect(await toCallModelInputFilter({ maxTokens: 100, summarize: () => "s" })({ modelData: untouched })).toBe(
      untouched,
    );
  });

  it("take options only: a ready hook is refused with a hint, and so is anything else", () => {
    const hook = compactor({ maxTokens: 100, summarize: () => "s" });
    const refused = "Expected `options` to be statefulCompactor options, got";
    expect(() => toPrepareStep(hook as never)).toThrow(`${refused}`);
    expect(() => toPrepareStep(hook as never)).toThrow(
      "a ready hook is not taken: pass the options the hook was made with",
    );
    expect(() => toCallModelInputFilter(hook as never)).toThrow("a ready hook is not taken");
    expect(() => toPrepareStep(null as never)).toThrow(
      "Expected `options` to be statefulCompactor options, got `null` (null)",
    );
    expect(() => toCallModelInputFilter({ maxTokens: 0, summarize: () => "s" })).toThrow(RangeError);
  });
});
