import { describe, expect, it, vi } from "vitest";
import { toPrepareStep } from "../src/adapters/ai-sdk.js";
import { toCallModelInputFilter } from "../src/adapters/openai-agents.js";
import { rollingCompaction } from "../src/adapters/rolling-compaction.js";
import { SUMMARY_PREFIX, compactor } from "../src/index.js";

const perMessage = (list: readonly unknown[]) => list.length;
const u = (n: number) => ({ role: "user", content: `u${n}` });
const a = (n: number) => ({ role: "assistant", content: `a${n}` });

describe("rollingCompaction", () => {
  it("continues from the last compaction while the input grows from the same messages", async () => {
    const summarize = vi.fn(() => "s");
    const compact = rollingCompaction(compactor({ maxTokens: 6, keepTail: 2, countTokens: perMessage, summarize }));
    const history = [u(1), a(1), u(2), a(2), u(3), a(3), u(4)];
    const first = await compact(history);
    expect(first).toEqual([{ role: "system", content: `${SUMMARY_PREFIX}s` }, u(4)]);
    // The next step: the same messages (copies, as some frameworks send) plus the step's new ones.
    const second = await compact([...history.map((m) => ({ ...m })), a(4)]);
    expect(second).toEqual([first![0], u(4), a(4)]);
    expect(summarize).toHaveBeenCalledTimes(1);
    // Another conversation starts over.
    expect(await compact([u(9)])).toBeNull();
  });
});

describe("adapters", () => {
  it("toPrepareStep defaults summary.role to user and returns {} when nothing changed", async () => {
    const prepareStep = toPrepareStep({ maxTokens: 2, keepTail: 1, countTokens: perMessage, summarize: () => "s" });
    const result = await prepareStep({ messages: [u(1), a(1), u(2)], stepNumber: 3 });
    expect(result.messages?.[0]).toEqual({ role: "user", content: `${SUMMARY_PREFIX}s` });
    expect(await toPrepareStep({ maxTokens: 100, summarize: () => "s" })({ messages: [u(1)] })).toEqual({});
  });

  it("toPrepareStep keeps its default role beside the caller's other summary options, and yields to the caller's role", async () => {
    const roleWith = async (summary: object) => {
      const prepareStep = toPrepareStep({ maxTokens: 2, keepTail: 1, countTokens: perMessage, summarize: () => "s", summary });
      return (await prepareStep({ messages: [u(1), a(1), u(2)] })).messages?.[0];
    };
    expect(await roleWith({ flushToMemory: false })).toEqual({ role: "user", content: `${SUMMARY_PREFIX}s` });
    expect(await roleWith({ role: "system" })).toEqual({ role: "system", content: `${SUMMARY_PREFIX}s` });
  });

  it("toCallModelInputFilter compacts modelData.input and keeps the rest", async () => {
    const filter = toCallModelInputFilter({ maxTokens: 2, keepTail: 1, countTokens: perMessage, summarize: () => "s" });
    const modelData = { input: [u(1), a(1), u(2)], instructions: "be kind" };
    const result = await filter({ modelData });
    expect(result).toEqual({ instructions: "be kind", input: [{ role: "system", content: `${SUMMARY_PREFIX}s` }, u(2)] });
    expect(modelData.input).toHaveLength(3);
    const untouched = { input: [u(1)] };
    expect(await toCallModelInputFilter({ maxTokens: 100, summarize: () => "s" })({ modelData: untouched })).toBe(untouched);
  });

  it("take a ready hook, and reject anything else", async () => {
    const hook = vi.fn(async () => null);
    await toPrepareStep(hook)({ messages: [u(1)] });
    expect(hook).toHaveBeenCalledWith({ messages: [u(1)] });
    expect(() => toPrepareStep(null as never)).toThrow("Expected `optionsOrHook` to be statefulCompactor options or a hook, got `null` (null)");
    expect(() => toCallModelInputFilter({ maxTokens: 0, summarize: () => "s" })).toThrow(RangeError);
  });
});
