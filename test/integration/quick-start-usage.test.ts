// The README's quick start as printed (examples/recipes/quick-start.ts, the very text of its code
// block), through the real `openai` SDK, against a stub model on 127.0.0.1 that bills what it
// receives as o200k counts it and reports that as `usage.prompt_tokens`. Sixty turns, each pasting
// a metrics export (ISO timestamps and numbers), a text whose tokens bytes / 4 counts at about 0.4:
// with `usage` passed back, as the quick start does, no request goes over its `maxTokens`; the same
// code against a provider that reports no usage (the control) counts by the estimate alone and
// sends most requests over, so the check can fail.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { billed } from "../../bench/billed.mjs";
import { csvSamples } from "../../bench/content-samples.mjs";
import { chatCompletion, startStubModel } from "../../examples/stub-model.mjs";

const root = new URL("../../", import.meta.url).pathname;
const quickStart = readFileSync(`${root}examples/recipes/quick-start.ts`, "utf8");
const maxTokens = 100_000;
const turns = 60;
// About 15,000 o200k tokens a turn, 6,000 by the estimate: the window is crossed every few turns.
const exports = csvSamples(turns, 440, 11);

// The stub receives new objects on every request; the count of each message is kept by its JSON,
// so a message is tokenized once however many requests repeat it.
const counted = new Map<string, number>();
const countOf = (message: object): number => {
  const key = JSON.stringify(message);
  const tokens = counted.get(key) ?? (billed(message) as number);
  counted.set(key, tokens);
  return tokens;
};
// OpenAI's cookbook ("How to count tokens with tiktoken"): every reply is primed with 3 tokens.
const promptTokens = (messages: object[]) => messages.reduce((sum: number, message) => sum + countOf(message), 3);

/** Runs the quick start's `reply` for every turn against a stub that reports usage or not; returns what the model received. */
async function runQuickStart(reportsUsage: boolean) {
  const sent: number[] = [];
  const stub = await startStubModel(({ body }) => {
    const tokens = promptTokens(body.messages);
    const completion = chatCompletion(
      body.model === "gpt-4.1-mini"
        ? { content: "Summary: the user pasted metrics exports of hosts; latency peaks at noon." }
        : { content: "Latency peaks at noon; the error rate stays under 5%." },
      body.model,
    );
    if (body.model === "gpt-4.1") sent.push(tokens);
    if (!reportsUsage) return { ...completion, usage: undefined };
    return { ...completion, usage: { prompt_tokens: tokens, completion_tokens: 12, total_tokens: tokens + 12 } };
  });
  const environment = {
    OPENAI_API_KEY: process.env["OPENAI_API_KEY"],
    OPENAI_BASE_URL: process.env["OPENAI_BASE_URL"],
  };
  Object.assign(process.env, { OPENAI_API_KEY: "offline", OPENAI_BASE_URL: stub.baseURL });
  const logged: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((line: unknown) => void logged.push(String(line)));
  try {
    // A fresh module each run: the quick start keeps its conversation in module state.
    vi.resetModules();
    const { reply } = await import("../../examples/recipes/quick-start.js");
    for (let turn = 0; turn < turns; turn++) await reply(`Here is the export of host web-${turn}:\n${exports[turn]}`);
  } finally {
    log.mockRestore();
    for (const [name, value] of Object.entries(environment)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await stub.close();
  }
  return { sent, over: sent.filter((tokens) => tokens > maxTokens), logged };
}

describe("the README's quick start, on tool output the estimate counts low", () => {
  afterEach(() => vi.restoreAllMocks());

  it("is the README's code block, and passes usage back", () => {
    expect(readFileSync(`${root}README.md`, "utf8")).toContain(quickStart.trimEnd());
    expect(quickStart).toContain(`maxTokens: ${maxTokens.toLocaleString("en-US").replace(/,/g, "_")}`);
    expect(quickStart).toMatch(
      /usage = \{ inputTokens: response\.usage\.prompt_tokens, messageCount: messages\.length \}/,
    );
  });

  it("sends no request over maxTokens with usage reported; without it, most go over", {
    timeout: 240_000,
  }, async () => {
    const control = await runQuickStart(false);
    const withUsage = await runQuickStart(true);
    const worst = (sent: number[]) => Math.max(...sent);
    // The figures in the messages: requests over the budget and the largest, as o200k counts them.
    expect(control.sent).toHaveLength(turns);
    expect(
      control.over.length,
      `without usage: ${control.over.length} of ${turns} over, worst ${worst(control.sent)}`,
    ).toBeGreaterThanOrEqual(turns / 2);
    expect(withUsage.sent).toHaveLength(turns);
    expect(
      withUsage.over,
      `with usage: ${withUsage.over.length} of ${turns} over, worst ${worst(withUsage.sent)}`,
    ).toEqual([]);
    // It compacted, and said so, as the README promises.
    expect(withUsage.logged.some((line) => /^compacted \d+ messages: \d+ → \d+ tokens$/.test(line))).toBe(true);
    // The window was used, not avoided by compacting everything away.
    expect(worst(withUsage.sent)).toBeGreaterThan(maxTokens / 2);
  });
});
