// Text is cut between whole characters, on every path that cuts it: nothing the library writes
// holds a lone surrogate that its input did not (a provider refuses such a request body whole; see
// test/support/well-formed.ts), and where the runtime can tell grapheme clusters, none is split.
import fc from "fast-check";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it, vi } from "vitest";
import {
  compactor,
  estimateTokens,
  extractiveSummary,
  memoryStore,
  statefulCompactor,
  summarizeWith,
  type CompactionStore,
} from "../src/index.js";
import { renderTranscript, type SummaryPrompt } from "../src/summary-kit.js";
import { bestOccurrence } from "../src/text/best-occurrence.js";
import { cutMiddle, identifiersBetween, indexIdentifiers } from "../src/text/cut-middle.js";
import { cutPayload } from "../src/text/cut-payload.js";
import { codePointHeadOf, cutPointAfter, cutPointBefore, headOf, sliceWhole, tailOf } from "../src/text/cut-points.js";
import { shortenJson } from "../src/text/shorten-json.js";
import { recallFromArchive } from "../src/archive/recall-archive.js";
import { otelEvents } from "../src/telemetry/otel.js";
import { builders } from "./support/builders.js";
import { SCRIPT_PIECES, scriptText } from "./support/scripts.js";
import { dialects, render, type DialectName, type Shape } from "./support/transcripts.js";
import { isWellFormed, malformedStrings, stringsIn } from "./support/well-formed.js";

const runs = { numRuns: 120 };
const marker = (cut: number, identifiers: readonly string[]) => `[… ${cut} cut; ${identifiers.join(", ")} …]`;

/** The grapheme boundaries of a whole text, as the runtime's segmenter reads it from its start: the oracle for a cut. */
const boundaries = (text: string): Set<number> => {
  const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
  return new Set([...[...segmenter.segment(text)].map((segment) => segment.index), text.length]);
};

describe("cut points", () => {
  it("land at or beside the index asked for, on a grapheme boundary of the whole text", () => {
    fc.assert(
      fc.property(scriptText(80), fc.nat(), (text, seed) => {
        const index = text.length === 0 ? 0 : seed % (text.length + 1);
        const whole = boundaries(text);
        const before = cutPointBefore(text, index);
        const after = cutPointAfter(text, index);
        expect(before).toBeLessThanOrEqual(index);
        expect(after).toBeGreaterThanOrEqual(index);
        expect(whole.has(before), `before ${index} in ${JSON.stringify(text)}`).toBe(true);
        expect(whole.has(after), `after ${index} in ${JSON.stringify(text)}`).toBe(true);
        for (const part of [
          headOf(text, index),
          codePointHeadOf(text, index),
          tailOf(text, index),
          sliceWhole(text, index, index + 7),
          text.slice(0, before),
          text.slice(after),
        ])
          expect(isWellFormed(part)).toBe(true);
      }),
      runs,
    );
  });

  it.each([
    ["a ZWJ family", "ab👨‍👩‍👧‍👦cd", 5, 2, 13],
    ["a skin tone", "ab👍🏽", 4, 2, 6],
    ["a flag in a run of flags", "🇯🇵🇺🇸🇩🇪", 6, 4, 8],
    ["a combining accent", "cafe\u0301!", 4, 3, 5],
    ["a CJK character beside an astral one", "日𠀀本", 2, 1, 3],
    ["a keycap", "x1️⃣y", 2, 1, 4],
  ])("%s stays whole", (_, text, index, before, after) => {
    expect([cutPointBefore(text, index), cutPointAfter(text, index)]).toEqual([before, after]);
  });

  it("a cluster longer than the window read around a cut is cut between code points, never inside a pair", () => {
    const zalgo = `x${"\u0301".repeat(300)}🚀`;
    for (const index of [1, 150, 300, 302]) {
      for (const at of [cutPointBefore(zalgo, index), cutPointAfter(zalgo, index)])
        expect(isWellFormed(zalgo.slice(0, at)) && isWellFormed(zalgo.slice(at))).toBe(true);
    }
    const flags = "🇯🇵".repeat(5_000);
    for (const index of [9_999, 10_001, 19_999])
      expect(isWellFormed(flags.slice(0, cutPointBefore(flags, index)))).toBe(true);
  });

  it("a lone surrogate the input holds is a place to cut, and is not doubled", () => {
    const text = "ab\ud800cd\udc00e";
    expect(cutPointBefore(text, 3)).toBe(3);
    expect(cutPointAfter(text, 5)).toBe(5);
    expect(headOf(text, 3)).toBe("ab\ud800");
  });

  it("a cut between two ASCII characters asks the segmenter nothing", () => {
    const segment = vi.spyOn(Intl.Segmenter.prototype, "segment");
    const text = `${"log line 42: ok\n".repeat(1_000)}\r\nend`;
    for (let index = 1; index < text.length - 5; index += 7) cutPointBefore(text, index);
    expect(segment).not.toHaveBeenCalled();
    // `\r\n` is one cluster: a cut between its halves is read by the segmenter, and moves.
    expect(cutPointBefore(text, text.length - 4)).toBe(text.length - 5);
    expect(segment).toHaveBeenCalled();
    segment.mockRestore();
  });

  it("each cut reads a window of the text, not the text: a megabyte costs what a line does", () => {
    const segment = vi.spyOn(Intl.Segmenter.prototype, "segment");
    const read = (text: string, index: number) => {
      segment.mockClear();
      cutPointBefore(text, index);
      cutPointAfter(text, index);
      return segment.mock.calls.reduce((sum, [input]) => sum + input.length, 0);
    };
    const line = SCRIPT_PIECES.join("");
    const mega = line.repeat(Math.ceil(1_000_000 / line.length));
    expect(read(mega, 500_000)).toBeLessThanOrEqual(4 * 66);
    // The same place of the line, in a megabyte of it: the same characters read (a cut between two
    // ASCII characters reads none).
    expect(read(mega, 500_000)).toBeLessThanOrEqual(read(line + line, line.length + (500_000 % line.length)) + 4);
    segment.mockRestore();
  });
});

describe("every cut keeps whole characters", () => {
  it("cutMiddle, with and without an index of identifiers, and identifiersBetween", () => {
    fc.assert(
      fc.property(scriptText(120), fc.nat({ max: 400 }), fc.nat({ max: 300 }), (text, keep, listChars) => {
        const named = indexIdentifiers(text);
        const outputs = [
          cutMiddle(text, keep, marker, { listChars }),
          cutMiddle(text, keep, marker, { listChars, named }),
          identifiersBetween(text, Math.floor(keep / 2), text.length - Math.floor(keep / 3), listChars),
        ];
        expect(malformedStrings(outputs)).toEqual([]);
      }),
      runs,
    );
  });

  it("cutPayload and shortenJson on JSON whose strings are every script: the cut strings, once parsed, too", () => {
    const payload = fc.record({
      log: scriptText(200),
      lines: fc.array(scriptText(20), { maxLength: 80 }),
      nested: fc.record({ note: scriptText(60) }),
    });
    fc.assert(
      fc.property(payload, fc.integer({ min: 20, max: 600 }), (value, keep) => {
        const text = JSON.stringify(value);
        const outputs = [
          cutPayload(text, keep, marker, 200),
          shortenJson(text, keep, 200) ?? "",
          cutPayload(JSON.stringify(value, null, 2), keep, marker, 0),
        ];
        expect(malformedStrings(outputs)).toEqual([]);
      }),
      runs,
    );
  });

  it("bestOccurrence finds no half of a character: a needle of a lone surrogate does not match inside an emoji", () => {
    expect(bestOccurrence("rocket 🚀 launch", "\ud83d")).toBeUndefined();
    expect(bestOccurrence("rocket 🚀 launch", "\ude80")).toBeUndefined();
    expect(bestOccurrence("lone \ud83d here, 🚀", "\ud83d")).toEqual({ at: 5, stands: 0 });
    expect(bestOccurrence("rocket 🚀 launch", "🚀")?.at).toBe(7);
  });
});

/** A transcript of one dialect whose every text is `text`'s kind: a short chat, a request, one large tool result. */
function shapeOf(request: string, result: string, chat: readonly string[] = []): Shape {
  return {
    system: undefined,
    summary: undefined,
    steps: [
      ...chat.map((text, index) => ({
        kind: index % 2 === 0 ? ("user" as const) : ("assistant" as const),
        text: text === "" ? "…" : text,
      })),
      { kind: "user", text: request === "" ? "…" : request },
      { kind: "tools", text: "", calls: [{ id: "call_0", name: "run_build", args: request, result }] },
    ],
  };
}

const chatText = fc
  .array(scriptText(30), { minLength: 2, maxLength: 8 })
  .map((texts) => (texts.length % 2 === 0 ? texts : texts.slice(1)));

describe.each(dialects)("through a transcript in %s", (dialect: DialectName) => {
  it("extractiveSummary and renderTranscript", () => {
    fc.assert(
      fc.property(
        chatText,
        scriptText(80),
        scriptText(400),
        fc.integer({ min: 1, max: 400 }),
        (chat, request, result, budget) => {
          const messages = render(shapeOf(request, result, chat), dialect);
          const outputs = [
            extractiveSummary(messages, { maxTokens: budget, previousSummary: request }),
            renderTranscript(messages, { maxResultChars: budget % 120 }),
          ];
          expect(malformedStrings(outputs)).toEqual([]);
        },
      ),
      runs,
    );
  });

  it("the hook, a short chat then one huge tool output: the output cut to fit", async () => {
    let cut = 0;
    await fc.assert(
      fc.asyncProperty(
        scriptText(40),
        scriptText(300),
        fc.integer({ min: 400, max: 1_500 }),
        async (request, result, maxTokens) => {
          const log = result.length === 0 ? "🚀" : result.repeat(Math.ceil((maxTokens * 12) / result.length));
          const messages = render(shapeOf(request, log, ["hi", "hello"]), dialect);
          const output = await compactor({ maxTokens, summarize: () => "the build ran" })({
            messages: messages as never,
          }).catch((error: Error) => error.message);
          if (JSON.stringify(output).includes("cut to fit the context window")) cut++;
          expect(malformedStrings(output)).toEqual([]);
        },
      ),
      { numRuns: 30 },
    );
    // The path under test was taken.
    expect(cut).toBeGreaterThan(20);
  });

  it("the hook, a long chat: summarizeWith's bounded input, and the model-free summary when the summarizer fails", async () => {
    let fellBack = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(scriptText(60), { minLength: 8, maxLength: 16 }),
        scriptText(200),
        fc.double({ min: 0.3, max: 0.7, noNaN: true }),
        async (chat, result, share) => {
          const turns = chat.slice(0, chat.length - (chat.length % 2)).map((text) => `${text} ${text} ${text}`);
          const messages = render(shapeOf(chat[0] ?? "", result, turns), dialect);
          const maxTokens = Math.max(200, Math.floor(estimateTokens(messages) * share));
          const prompts: SummaryPrompt[] = [];
          const summarize = summarizeWith((prompt) => (prompts.push(prompt), "the build ran"), {
            maxInputTokens: 150,
            maxResultChars: 90,
          });
          const outputs: unknown[] = [prompts];
          for (const options of [
            { summarize },
            {
              summarize: () => Promise.reject(new Error("down")),
              onError: "fallback" as const,
              fallback: extractiveSummary,
            },
          ]) {
            const events = {
              onCompacted: (event: { strategy: string }) => void (event.strategy === "fallback" && fellBack++),
            };
            const output = await compactor({ maxTokens, ...options, events })({ messages: messages as never }).catch(
              (error: Error) => error.message,
            );
            outputs.push(output);
          }
          expect(malformedStrings(outputs)).toEqual([]);
        },
      ),
      { numRuns: 30 },
    );
    expect(fellBack).toBeGreaterThan(15);
  });
});

describe("summarizeWith's input cut", () => {
  it("a message larger than a whole request is cut in the middle between whole characters", async () => {
    await fc.assert(
      fc.asyncProperty(scriptText(300), fc.integer({ min: 600, max: 1_400 }), async (text, maxInputTokens) => {
        const prompts: SummaryPrompt[] = [];
        const summarize = summarizeWith((prompt) => (prompts.push(prompt), "so far"), { maxInputTokens });
        const older = [{ role: "user", content: `${text}${"🚀👍🏽🇯🇵".repeat(maxInputTokens)}${text}` }];
        const context = {
          signal: new AbortController().signal,
          instructions: undefined,
          previousSummary: undefined,
          tokensBefore: 10_000,
          maxTokens: 5_000,
          keepTail: 2_500,
          maxSummaryTokens: 50,
        };
        await summarize(older, context);
        expect(prompts.some((prompt) => prompt.user.includes("left out to fit the summarizer's input"))).toBe(true);
        expect(malformedStrings(prompts)).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });
});

describe("recall: excerpts and the echoed query", () => {
  it("an excerpt around a match, at any budget, and a query cut for the answer's heading", () => {
    const { user, assistant } = builders["openai-chat"];
    fc.assert(
      fc.property(
        fc.array(scriptText(200), { minLength: 1, maxLength: 6 }),
        scriptText(300),
        fc.integer({ min: 30, max: 400 }),
        (texts, query, maxTokens) => {
          const messages = texts.map((text, index) => ({
            index: index + 1,
            message: index % 2 === 0 ? user(`${text} W2378156 ${query}`) : assistant(text),
          }));
          const ranges = [{ from: 1, to: messages.length, messages }];
          const answers = [
            recallFromArchive(ranges, query.slice(0, 1_000), maxTokens),
            recallFromArchive(ranges, "W2378156", maxTokens),
            recallFromArchive(ranges, `${"🚀".repeat(150)}x`, maxTokens),
          ];
          expect(malformedStrings(answers)).toEqual([]);
        },
      ),
      runs,
    );
  });
});

/** A build log of emoji, as a test runner or a CI step prints it; `allEmoji`: nothing but emoji. */
function emojiBuildLog(seed: number, lines: number, allEmoji: boolean): string {
  const marks = ["✅", "❌", "🚀", "🔥", "📦", "👍🏽", "👨‍👩‍👧", "🇯🇵", "⚠️", "🧪"];
  // mulberry32: a small seeded generator, so that every run replays the same logs.
  let state = seed;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
  const next = () => marks[Math.floor(random() * marks.length)]!;
  return Array.from({ length: lines }, (_, line) =>
    allEmoji
      ? Array.from({ length: 20 }, next).join("")
      : `${next()} step ${line}: compiled src/mod${line % 13}.ts in ${(line * 7) % 900} ms ${next()}`,
  ).join("\n");
}

describe("replayed: an emoji build log", () => {
  it.each([false, true])(
    "cut to fit the request, all emoji: %s: 40 requests, none with a lone surrogate",
    async (allEmoji) => {
      const { user, assistant, toolCall, toolResult } = builders.anthropic;
      let cut = 0;
      const malformed: number[] = [];
      for (let request = 0; request < 40; request++) {
        const messages = [
          user("hi"),
          assistant("hello"),
          user("fix the build"),
          toolCall("t0", "run_build", {}),
          toolResult("t0", emojiBuildLog(request + 1, 600 + request * 7, allEmoji)),
        ];
        const result = await compactor({ maxTokens: 3_000 + request * 41, summarize: () => "summary" })({ messages });
        if (JSON.stringify(result).includes("cut to fit the context window")) cut++;
        if (malformedStrings(result).length > 0) malformed.push(request);
      }
      expect(cut).toBe(40);
      expect(malformed).toEqual([]);
    },
  );

  it("through onError: fallback: 10 conversations, the stored summary and every request well-formed", async () => {
    const malformed: string[] = [];
    let fellBack = 0;
    for (let conversation = 0; conversation < 10; conversation++) {
      const written: string[] = [];
      const inner = memoryStore();
      const store: CompactionStore = {
        get: (key) => inner.get(key),
        set: (key, value) => (written.push(value), inner.set(key, value)),
      };
      const compact = statefulCompactor({
        maxTokens: 1_500,
        summarize: () => Promise.reject(new Error("model down")),
        onError: "fallback",
        fallback: extractiveSummary,
        store,
        conversationId: `c${conversation}`,
      });
      const { user, assistant, toolCall, toolResult } = builders.anthropic;
      const messages: object[] = [];
      for (let turn = 0; turn < 6; turn++) {
        // The user and the agent quote the log's emoji, and every other build fails: what the
        // model-free summary quotes, lists and files under errors. Whole code points: the input
        // holds no lone surrogate.
        const log = emojiBuildLog(conversation * 10 + turn, 30 + conversation * 3, false);
        const emoji = Array.from(emojiBuildLog(conversation * 10 + turn, 20, true));
        const start = (length: number) => emoji.slice(0, length).join("");
        messages.push(
          user(`${start(120 + conversation * 7)} why did it fail?`),
          toolCall(`t${turn}`, "run_build", { note: start(60 + turn) }),
          toolResult(`t${turn}`, turn % 2 === 1 ? `❌ build failed\n${log}` : log),
          assistant(`${start(199 + conversation)} it failed.`),
        );
        const result = await compact(structuredClone(messages));
        if (JSON.stringify(result).includes("A summary made without a model")) fellBack++;
        if (malformedStrings([result, written]).length > 0)
          malformed.push(`conversation ${conversation}, turn ${turn}`);
      }
      expect(written.length).toBeGreaterThan(0);
    }
    expect(fellBack).toBeGreaterThanOrEqual(10);
    expect(malformed).toEqual([]);
  });
});

describe("OpenTelemetry events", () => {
  it("cut an error's message, name and code between whole characters", () => {
    // Each is bounded (a message to 500 characters, a name or code to 100) before it is recorded.
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    fc.assert(
      fc.property(scriptText(40), fc.nat(3), (text, pad) => {
        fc.pre(text.length > 0);
        const long = "x".repeat(pad) + text.repeat(Math.ceil(700 / text.length));
        const failure = Object.assign(new Error(long), { name: long, code: long });
        const events = otelEvents(provider.getTracer("cuts"));
        events.onCompacting?.({ messages: [], tokensBefore: 10, maxTokens: 5 } as never);
        events.onSkipped?.({ reason: "error", error: failure, tokensBefore: 10 } as never);
        const spans = exporter.getFinishedSpans().map((span) => [span.status, span.events, span.attributes]);
        exporter.reset();
        expect(stringsIn(spans).filter((value) => !isWellFormed(value))).toEqual([]);
      }),
      runs,
    );
  });
});
