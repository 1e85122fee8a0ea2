// The truncation rung on hostile sizes: a turn of a hundred thousand parallel calls, and one tool
// result of megabytes, which must cost work in proportion to its length and not be cut again on
// every step of an agent loop.
import { describe, expect, it, vi } from "vitest";
import { compact, isCompactionError } from "../src/index.js";
import { createCachedCounter, findToolPairProblems } from "../src/expert.js";
import { truncateToolPayloads } from "../src/plan/truncate-tool-payloads.js";

// Work is counted, not timed: the characters handed to the identifier scanner and to the counter.
const work = vi.hoisted(() => ({ scanned: 0, counted: 0 }));
vi.mock("../src/text/scan-identifiers.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../src/text/scan-identifiers.js")>();
  return {
    ...actual,
    scanIdentifiers: (text: string, visit: Parameters<typeof actual.scanIdentifiers>[1]) => {
      work.scanned += text.length;
      actual.scanIdentifiers(text, visit);
    },
  };
});
const measured = async <T>(run: () => T | Promise<T>) => {
  work.scanned = 0;
  work.counted = 0;
  const value = await run();
  return { value, scanned: work.scanned, counted: work.counted };
};

const system = { role: "system", content: "You are a coding agent." };
const chat = [
  { role: "user", content: "hi" },
  { role: "assistant", content: "hello" },
];
const request = { role: "user", content: "read every file" };

describe("a turn of parallel tool calls", () => {
  it.each([70_000, 100_000])(
    "%i calls in one turn, one result oversized, are cut to fit, never a raw RangeError",
    { timeout: 60_000 },
    async (count) => {
      const ids = Array.from({ length: count }, (_, index) => `call_${index}`);
      const calls = {
        role: "assistant",
        content: null,
        tool_calls: ids.map((id) => ({ id, type: "function", function: { name: "read", arguments: "{}" } })),
      };
      const log = "line of output from a long build log\n".repeat(70_000);
      const results = ids.map((id, index) => ({ role: "tool", tool_call_id: id, content: index === 0 ? log : "ok" }));
      const messages = [system, ...chat, request, calls, ...results];
      // Room for every call and short result, and for the log cut to a part of itself.
      const output = await compact(messages, {
        maxTokens: count * 40,
        summary: { maxTokens: 1_000 },
        summarize: () => "s",
      }).catch((error: unknown) => error as Error);
      if (output instanceof Error) {
        expect(isCompactionError(output), String(output)).toBe(true);
        return;
      }
      expect(findToolPairProblems(output!.messages)).toEqual([]);
      // Every call and every result is kept.
      expect(output!.messages.filter((message) => (message as { role: string }).role === "tool")).toHaveLength(count);
      expect(JSON.stringify(output!.messages)).toContain("characters cut to fit the context window");
    },
  );
});

describe("one oversized tool result", () => {
  const MB = 1 << 20;
  /** Tool output of distinct ids, paths and amounts, as a search or a log prints it. */
  const output = (bytes: number) => {
    const lines: string[] = [];
    let length = 0;
    for (let line = 0; length < bytes; line++) {
      const text = `row ${line}: order #W${1_000_000 + line} at src/module${line % 97}/file_${line}.ts costs ${(line * 7919) % 100_000}.50\n`;
      lines.push(text);
      length += text.length;
    }
    return lines.join("").slice(0, bytes);
  };
  const call = {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "c1", type: "function", function: { name: "search", arguments: "{}" } }],
  };
  // A real tokenizer would count each message once and remember it, as this one does.
  const countTokens = createCachedCounter((message: object) => {
    const json = JSON.stringify(message);
    work.counted += json.length;
    return Math.ceil(json.length / 4);
  });

  it.each([1, 16])(
    "of %i MB is cut reading it a few times at most, and not again on the next step",
    { timeout: 60_000 },
    async (megabytes) => {
      const bytes = megabytes * MB;
      const result = { role: "tool", tool_call_id: "c1", content: output(bytes) };
      const messages = [system, ...chat, request, call, result];
      const options = { maxTokens: 50_000, countTokens, summarize: () => "s" };

      const first = await measured(async () => (await compact(messages, options))!);
      expect(JSON.stringify(first.value.messages)).toContain("characters cut to fit the context window");
      expect(countTokens(first.value.messages)).toBeLessThanOrEqual(50_000);
      // About a linear pass: the result's identifiers are scanned once, the original is counted once,
      // and a handful of cuts of the length that fits (some 4 characters a token) are counted.
      expect(first.scanned).toBeLessThanOrEqual(2 * bytes);
      expect(first.counted).toBeLessThanOrEqual(bytes + 16 * 4 * 50_000);

      // The next step of the loop, with the same messages: the result is not scanned, cut or counted again.
      const second = await measured(async () => (await compact(messages, options))!);
      expect(second.value.messages).toEqual(first.value.messages);
      expect(second.scanned).toBe(0);
      expect(second.counted).toBeLessThan(1_000);

      // With less room (a longer system prompt, a smaller window), the result is cut again without a new scan.
      const third = await measured(async () => (await compact(messages, { ...options, maxTokens: 45_000 }))!);
      expect(countTokens(third.value.messages)).toBeLessThanOrEqual(45_000);
      expect(JSON.stringify(third.value.messages)).toContain("characters cut to fit the context window");
      expect(third.scanned).toBe(0);
      expect(third.counted).toBeLessThanOrEqual(16 * 4 * 50_000);
    },
  );

  it("with the provider's usage reported, the same step again is not cut or counted again either", async () => {
    const result = { role: "tool", tool_call_id: "c1", content: output(MB) };
    const messages = [system, ...chat, request, call, result];
    // The provider counted the first four messages a little higher than the counter does.
    const options = {
      maxTokens: 50_000,
      countTokens,
      summarize: () => "s",
      usage: { inputTokens: Math.ceil(countTokens(messages.slice(0, 4)) * 1.3), messageCount: 4 },
    };
    const first = await measured(async () => (await compact(messages, options))!);
    expect(JSON.stringify(first.value.messages)).toContain("characters cut to fit the context window");
    const second = await measured(async () => (await compact(messages, options))!);
    expect(second.value.messages).toEqual(first.value.messages);
    expect(second.scanned).toBe(0);
    expect(second.counted).toBeLessThan(1_000);
  });

  it("the search for the longest cut that fits tries a few lengths, not one per halving", async () => {
    const text = output(4 * MB);
    const messages = [request, { ...call }, { role: "tool", tool_call_id: "c1", content: text }];
    let tries = 0;
    const counter = createCachedCounter((message: object) => {
      tries++;
      return Math.ceil(JSON.stringify(message).length / 4);
    });
    counter(messages);
    tries = 0;
    const truncation = truncateToolPayloads(messages, 40_000, counter)!;
    // A bisection of four million lengths takes 22 tries.
    expect(tries).toBeLessThanOrEqual(12);
    expect(truncation.tokens).toBeLessThanOrEqual(40_000);
    // The longest: a budget one token smaller keeps less.
    expect(truncateToolPayloads(messages, truncation.tokens - 1, counter)!.tokens).toBeLessThan(truncation.tokens);
  });

  it("the marker never names what the redaction removes in context", () => {
    const secrets = "password: hunter2xyz and Authorization: Bearer abcdefghij0123456789";
    const text = `${"head line\n".repeat(2_000)}order #W2378156 ${secrets} in src/app.ts\n${"tail line\n".repeat(2_000)}`;
    const messages = [request, call, { role: "tool", tool_call_id: "c1", content: text }];
    const truncation = truncateToolPayloads(messages, 400, undefined)!;
    const cut = JSON.stringify(truncation.messages);
    expect(cut).toMatch(/it named [^\]]*#W2378156/);
    expect(cut).toContain("src/app.ts");
    expect(cut).not.toContain("hunter2xyz");
    expect(cut).not.toContain("abcdefghij0123456789");
  });
});
