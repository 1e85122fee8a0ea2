// How `toCallModelInputFilter` reads the run's usage: `RunContext.usage.requestUsageEntries` gets
// one entry per model response (`Usage.add` in @openai/agents-core), and the runner calls the
// filter before each request with the whole run's input.
import { RunContext, Usage } from "@openai/agents";
import { describe, expect, it } from "vitest";
import { RunUsageReader } from "../src/adapters/openai-agents-run-usage.js";
import { toCallModelInputFilter } from "../src/adapters/openai-agents.js";

/** The run's usage after one more response, as the runner adds it. */
function respond(context: RunContext, inputTokens: number): void {
  context.usage.add(new Usage({ requests: 1, inputTokens, outputTokens: 10, totalTokens: inputTokens + 10 }));
}

describe("RunUsageReader", () => {
  it("reads the report of the last request, which held the items the filter was given then", () => {
    const reader = new RunUsageReader();
    const context = new RunContext();
    expect(reader.read(context, 1)).toBeUndefined();
    respond(context, 900);
    expect(reader.read(context, 3)).toEqual({ inputTokens: 900, messageCount: 1 });
    respond(context, 1500);
    expect(reader.read(context, 5)).toEqual({ inputTokens: 1500, messageCount: 3 });
  });

  it("counts by nothing when it cannot tell which request a report describes", () => {
    const reader = new RunUsageReader();
    const context = new RunContext();
    reader.read(context, 4);
    // No response since (a retried filter call): the newest entry is not this input's.
    expect(reader.read(context, 4)).toBeUndefined();
    // Two responses since the filter's last call (the SDK's own compaction request among them).
    respond(context, 700);
    respond(context, 800);
    expect(reader.read(context, 6)).toBeUndefined();
    // An input shorter than the one the last request held.
    respond(context, 900);
    expect(reader.read(context, 2)).toBeUndefined();
  });

  it("keeps runs apart, and takes a report the runner would not write as none", () => {
    const reader = new RunUsageReader();
    const [first, second] = [new RunContext(), new RunContext()];
    reader.read(first, 2);
    reader.read(second, 7);
    respond(first, 300);
    respond(second, 5000);
    expect(reader.read(second, 9)).toEqual({ inputTokens: 5000, messageCount: 7 });
    expect(reader.read(first, 4)).toEqual({ inputTokens: 300, messageCount: 2 });
    const odd = { usage: { requestUsageEntries: [] as { inputTokens: unknown }[] } };
    reader.read(odd, 1);
    odd.usage.requestUsageEntries.push({ inputTokens: "many" });
    expect(reader.read(odd, 2)).toBeUndefined();
    expect(reader.read(undefined, 2)).toBeUndefined();
    expect(reader.read({}, 2)).toBeUndefined();
  });
});

describe("toCallModelInputFilter's runContext", () => {
  it("is a function of the filter's arguments", () => {
    expect(() =>
      toCallModelInputFilter({ maxTokens: 100, summarize: () => "s", runContext: new RunContext() as never }),
    ).toThrow(/runContext.*a function/);
  });

  it("anchors the count on the report, so a request the estimate puts under budget compacts", async () => {
    const context = new RunContext();
    const filter = toCallModelInputFilter({
      maxTokens: 400,
      summarize: () => "earlier records",
      runContext: () => context,
    });
    const turn = (i: number) => [
      { role: "user" as const, content: `Record ${i}: ${"word ".repeat(40)}` },
      { role: "assistant" as const, content: `Noted ${i}.` },
    ];
    const first = [...turn(0), ...turn(1), { role: "user" as const, content: "Next." }];
    const sent = await filter({ modelData: { input: first } });
    expect(sent.input).toBe(first);
    // The provider counted the request at five times the estimate: past the window.
    respond(context, 1200);
    const second = [
      ...first,
      { role: "assistant" as const, content: "Done." },
      { role: "user" as const, content: "More." },
    ];
    const next = await filter({ modelData: { input: second } });
    expect(next.input).not.toBe(second);
    expect(next.input.length).toBeLessThan(second.length);
  });
});
