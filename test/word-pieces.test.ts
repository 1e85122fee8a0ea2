// With usage, no message of the default estimate counts less than its word pieces: a lower bound of
// the o200k count that catches the dense tool output bytes / 4 under-counts (fit).
import fc from "fast-check";
import { countTokens as o200k } from "gpt-tokenizer/encoding/o200k_base";
import { O200K_TOKEN_SPLIT_REGEX } from "gpt-tokenizer/encodingParams/constants";
import { describe, expect, it } from "vitest";
import { compactor, estimateTokens } from "../src/index.js";
import { planCompaction } from "../src/expert.js";
import { renderTranscript } from "../src/summary-kit.js";
import { countWordPieces, messageWordPieces } from "../src/counting/word-pieces.js";
import { loadFixtures } from "./support/fixtures.js";

type Chat = { role: string; content?: unknown; tool_calls?: { function?: { name?: string; arguments?: string } }[] };
const fixtures = loadFixtures();
const textOf = (message: Chat): string =>
  typeof message.content === "string"
    ? message.content
    : Array.isArray(message.content)
      ? message.content.map((part: { text?: string }) => part?.text ?? "").join("")
      : "";
/** What a chat API bills for a message: its text, tool names and arguments, and 4 tokens of framing. */
const billed = (message: Chat): number =>
  o200k(textOf(message)) +
  4 +
  (message.tool_calls ?? []).reduce(
    (sum, call) => sum + o200k(call.function?.name ?? "") + o200k(call.function?.arguments ?? ""),
    0,
  );
const billedList = (messages: Chat[]): number => messages.reduce((sum, message) => sum + billed(message), 0);

/** A tool output of line-numbered code: what bytes / 4 under-counts most. */
const numberedCode = (lines: number): string =>
  Array.from(
    { length: lines },
    (_, i) => `${String(i + 1).padStart(6)}\tif (x[${i}] != ${i * 7}) { y += f(${i}, ${i % 13}); }`,
  ).join("\n");

describe("word pieces", () => {
  const reference = (text: string) => [...text.matchAll(O200K_TOKEN_SPLIT_REGEX)].length;

  it("are the pieces of o200k's pre-tokenizer, and never more than its tokens", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: "binary" }),
          fc.string({
            unit: fc.constantFrom("a", "B", "7", " ", "\n", "\t", "'s", "é", "日", "😀", ".", "/", "{", "\r"),
          }),
        ),
        (text) => {
          expect(countWordPieces(text)).toBe(reference(text));
          expect(countWordPieces(text)).toBeLessThanOrEqual(o200k(text));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("bound every real message's o200k count from below", () => {
    let messages = 0;
    for (const { messages: transcript } of fixtures) {
      for (const message of transcript as Chat[]) {
        const pieces = messageWordPieces(message, estimateTokens([message]));
        expect(pieces).toBeLessThanOrEqual(billed(message));
        messages++;
      }
    }
    expect(messages).toBeGreaterThan(200);
  });

  it("are far closer than bytes / 4 on line-numbered code", () => {
    const message = { role: "tool", tool_call_id: "call_1", content: numberedCode(200) };
    const truth = billed(message);
    expect(estimateTokens([message]) / truth).toBeLessThan(0.8);
    expect(messageWordPieces(message, estimateTokens([message])) / truth).toBeGreaterThan(0.9);
  });

  it("count a screenshot's base64 inside a tool output as bytes / 4, not piece by piece", () => {
    const base64 = "iVBORw0KGgoAAAANSUhEUgAA1x9Qz".repeat(1500).slice(0, 40_000);
    const output = {
      type: "computer_call_output",
      call_id: "c1",
      output: { type: "computer_screenshot", image_url: `data:image/png;base64,${base64}` },
    };
    expect(countWordPieces(base64)).toBeGreaterThan(12_000);
    expect(messageWordPieces(output, estimateTokens([output]))).toBeLessThanOrEqual(estimateTokens([output]));
  });
});

describe("usage-anchored counting of dense text", () => {
  const system = { role: "system", content: "You are a coding agent." };
  const prose = Array.from({ length: 6 }, (_, i) => [
    {
      role: "user",
      content: `Please look at part ${i} of the project and tell me what it does. ${"It is a plain description. ".repeat(20)}`,
    },
    {
      role: "assistant",
      content: `Part ${i} reads its input and writes a report. ${"Nothing unusual here. ".repeat(20)}`,
    },
  ]).flat();
  const call = {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "call_1", type: "function", function: { name: "read_file", arguments: '{"path":"src/x.c"}' } }],
  };
  const output = { role: "tool", tool_call_id: "call_1", content: numberedCode(300) };
  const sent = [system, ...prose, { role: "user", content: "Now read src/x.c." }];
  const messages = [...sent, call, output];

  it("counts a fresh dense tool output at its word pieces at least, where bytes / 4 falls short", () => {
    const usage = { inputTokens: billedList(sent), messageCount: sent.length };
    const counted = planCompaction(messages, { maxTokens: 1e9, usage }).tokensBefore;
    const truth = billedList(messages);
    // The ratio on the prose cannot see the code: scaled bytes / 4 alone stays under a tenth off...
    const ratio = Math.max(1, usage.inputTokens / estimateTokens(sent));
    expect(usage.inputTokens + ratio * estimateTokens([call, output])).toBeLessThan(truth * 0.9);
    // ...the floor brings the count within a few percent of the truth, and not over it by much.
    expect(counted).toBeGreaterThan(truth * 0.95);
    expect(counted).toBeLessThan(truth * 1.1);
  });

  it("counts a message changed in place afresh", () => {
    const usage = { inputTokens: billedList(sent), messageCount: sent.length };
    const growing = { role: "tool", tool_call_id: "call_1", content: "reading…" };
    const before = planCompaction([...sent, call, growing], { maxTokens: 1e9, usage }).tokensBefore;
    growing.content = numberedCode(300);
    const after = planCompaction([...sent, call, growing], { maxTokens: 1e9, usage }).tokensBefore;
    expect(after - before).toBeGreaterThan(billed(output) * 0.9);
  });

  it("compacts a request that only the floor shows is over the window, and the result fits", async () => {
    const truth = billedList(messages);
    const maxTokens = Math.floor(truth * 0.97);
    const usage = { inputTokens: billedList(sent), messageCount: sent.length };
    const plain = compactor({
      maxTokens,
      keepTail: Math.floor(maxTokens / 2),
      summarize: () => "earlier: the user asked about the parts.",
    });
    expect(await plain({ messages })).toBeNull();
    const result = await plain({ messages, usage });
    expect(result).not.toBeNull();
    expect(billedList(result!.messages as Chat[])).toBeLessThanOrEqual(maxTokens);
  });
});

describe("the replay of the shipped transcripts, usage from o200k", () => {
  // As `npm run bench:fit` does on all 604: every request of each transcript, turn by turn, with the
  // last request's o200k count reported as usage. The fit targets: at most 1% of requests
  // over the window for counter reasons, and none by more than 10%.
  const isRequest = (message: Chat) => message.role === "user";
  const smallestSummary = o200k(`[Summary of earlier conversation]\n${"a few words ".repeat(5)}`) + 4;

  it.each([0.4, 0.25])("at a window of %s of each transcript", async (share) => {
    let requests = 0;
    let over = 0;
    let worst = 0;
    for (const fixture of fixtures) {
      const messages = fixture.messages as unknown as Chat[];
      const window = Math.floor(billedList(messages) * share);
      const hook = compactor<Chat>({
        maxTokens: window,
        keepTail: Math.floor(window / 2),
        // A summarizer that writes less than it reads and keeps well within its budget; a summary
        // that would not be smaller than what it replaces is skipped, as a loop would.
        summarize: (older, context) => {
          const text = renderTranscript(older, { maxResultChars: 100 });
          return text.slice(0, Math.min(context.maxSummaryTokens * 2, Math.floor(text.length / 2))) || "(nothing)";
        },
        onError: "skip",
      });
      let working: Chat[] = [];
      let usage: { inputTokens: number; messageCount: number } | undefined;
      for (const message of messages) {
        if (message.role === "assistant") {
          const result = await hook({ messages: working, ...(usage ? { usage } : {}) });
          if (result) working = result.messages;
          requests++;
          const truth = billedList(working);
          usage = { inputTokens: truth, messageCount: working.length };
          const system = working[0]?.role === "system" ? billed(working[0]) : 0;
          const request = [...working].reverse().find(isRequest);
          const unavoidable = system + (request ? billed(request) : 0) + smallestSummary > window;
          if (truth > window && !unavoidable) {
            over++;
            worst = Math.max(worst, truth / window - 1);
          }
        }
        working = working.concat([message]);
      }
    }
    expect(requests).toBeGreaterThan(100);
    expect(over / requests).toBeLessThanOrEqual(0.01);
    expect(worst).toBeLessThanOrEqual(0.1);
  });
});
