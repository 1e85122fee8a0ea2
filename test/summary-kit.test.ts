import fc from "fast-check";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEFAULT_SUMMARY_SECTIONS, buildSummaryPrompt, renderTranscript } from "../src/summary-kit.js";
import { SUMMARY_PREFIX } from "../src/expert.js";
import { compactor, isCompactionError, summarizeWith } from "../src/index.js";
import { chatCompletion, startStubModel } from "../examples/stub-model.mjs";
import { loadFixtures } from "./support/fixtures.js";
import {
  dialects,
  hasSystemMessages,
  render,
  summaryRoleFor,
  transcriptArbitrary,
  type Shape,
} from "./support/transcripts.js";

const shape: Shape = {
  system: "You are a support agent.",
  summary: "The user is Ada; order W1 was refunded.",
  steps: [
    { kind: "user", text: "Where is my order W2?" },
    {
      kind: "tools",
      text: "Let me check.",
      calls: [
        { id: "c1", name: "get_order", args: '{"id":"W2"}', result: "shipped ".repeat(500) },
        { id: "c2", name: "get_user", args: '{"id":"ada"}', result: "Ada Lovelace" },
      ],
    },
    { kind: "assistant", text: "It shipped yesterday." },
    { kind: "user", text: "Thanks. And W3?" },
  ],
};

describe.each(dialects)("renderTranscript in %s", (dialect) => {
  const messages = render(shape, dialect);
  const text = renderTranscript(messages, { maxResultChars: 100 });

  it("renders every message readably", () => {
    expect(text).toContain("User: Where is my order W2?");
    expect(text).toContain("Assistant: It shipped yesterday.");
    expect(text).toContain("Tool call get_order(");
    expect(text).toContain("Tool result (get_order): shipped");
    expect(text).toContain("Tool result (get_user): Ada Lovelace");
    // A message's further lines are indented: the prefix's line break is one.
    expect(text).toContain(
      `${summaryRoleFor(dialect) === "system" ? "Earlier summary: " : `User: ${SUMMARY_PREFIX.replace("\n", "\n  ")}`}The user is Ada; order W1 was refunded.`,
    );
    if (hasSystemMessages(dialect)) expect(text).toContain("System: You are a support agent.");
  });

  it("cuts long results in the middle and says how much was left out", () => {
    const long = "shipped ".repeat(500);
    expect(text).toContain(`[… ${long.length - 100} characters left out …]`);
    expect(text).not.toContain(long);
    expect(renderTranscript(messages, { maxResultChars: long.length })).toContain(long);
    expect(renderTranscript(messages)).toContain(`[… ${long.length - 2000} characters left out …]`);
  });
});

describe("renderTranscript", () => {
  it("shows non-text parts as short placeholders", () => {
    const text = renderTranscript([
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "image", source: { type: "base64", data: "AAAA" } },
          { type: "document", source: { type: "base64", data: "AAAA" } },
        ],
      },
      { role: "user", content: [{ type: "file", filename: "report.pdf", data: "AAAA", mediaType: "application/pdf" }] },
      { type: "message", role: "user", content: [{ type: "input_image", image_url: "data:AAAA" }] },
    ]);
    expect(text).toBe("User: look\n  [image]\n\nUser: [image]\n  [file]\n\nUser: [file: report.pdf]\n\nUser: [image]");
    expect(text).not.toContain("AAAA");
  });

  it("never throws on a valid transcript of any dialect", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...dialects).chain((d) => transcriptArbitrary(d)),
        fc.nat(3000),
        (messages, maxResultChars) => {
          expect(typeof renderTranscript(messages, { maxResultChars })).toBe("string");
        },
      ),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.array(fc.object()), (messages) => {
        expect(typeof renderTranscript(messages)).toBe("string");
      }),
    );
  });

  it("shrinks the real moatless runs to a readable size", () => {
    const sizes = loadFixtures()
      .filter((f) => f.source === "moatless")
      .map(({ messages }) => ({ json: JSON.stringify(messages).length, rendered: renderTranscript(messages) }));
    for (const { json, rendered } of sizes) {
      expect(rendered.length).toBeLessThan(json);
      expect(rendered).toContain("User: ");
    }
    // The run with a 202k-character test output renders to a small fraction of it.
    const largest = sizes.reduce((a, b) => (a.json > b.json ? a : b));
    expect(largest.rendered.length).toBeLessThan(largest.json / 5);
  });
});

describe("buildSummaryPrompt", () => {
  const older = render(shape, "openai-chat").slice(1);

  it("asks for every section and extends the previous summary", () => {
    const prompt = buildSummaryPrompt(older, {
      previousSummary: "The user is Ada; order W1 was refunded.",
      instructions: undefined,
    });
    for (const { title } of DEFAULT_SUMMARY_SECTIONS) expect(prompt.system).toContain(`## ${title}`);
    expect(prompt.system).toContain("extend it");
    expect(prompt.user).toContain("<previous-summary>\nThe user is Ada; order W1 was refunded.\n</previous-summary>");
    expect(prompt.user).toContain("User: Where is my order W2?");
    // The earlier summary message is not repeated inside the transcript.
    expect(prompt.user).not.toContain("Earlier summary:");
    expect(prompt.user).toMatch(/Write the updated summary/);
  });

  it("includes instructions, and custom sections", () => {
    const prompt = buildSummaryPrompt(
      older,
      { previousSummary: undefined, instructions: "focus on shipping" },
      { sections: ["Shipping", { title: "Refunds", description: "amounts" }] },
    );
    expect(prompt.user).toContain("<instructions>\nfocus on shipping\n</instructions>");
    expect(prompt.system).toContain("## Shipping\n## Refunds\n(amounts)");
    expect(prompt.system).not.toContain("## Decisions");
    expect(prompt.user).not.toContain("<previous-summary>");
  });
});

describe("summarizeWith over the real openai SDK", () => {
  let stub: Awaited<ReturnType<typeof startStubModel>>;
  beforeAll(async () => {
    stub = await startStubModel(({ body }) =>
      chatCompletion({ content: `  summary of ${body.messages[1].content.length} characters  ` }),
    );
  });
  afterAll(() => stub.close());

  it("builds the prompt, passes the signal, and its result becomes the summary", async () => {
    const client = new OpenAI({ baseURL: stub.baseURL, apiKey: "test", maxRetries: 0 });
    const signals: AbortSignal[] = [];
    const summarize = summarizeWith(async ({ system, user }, { signal }) => {
      signals.push(signal);
      const response = await client.chat.completions.create(
        {
          model: "summarizer",
          messages: [
            { role: "system", content: system },
            { role: "user", content: user },
          ],
        },
        { signal },
      );
      return response.choices[0]?.message.content ?? "";
    });
    const messages = render(shape, "openai-chat");
    const result = await compactor({ maxTokens: 200, keepTail: 10, summarize })({ messages });
    expect(signals).toHaveLength(1);
    expect(signals[0]).toBeInstanceOf(AbortSignal);
    const request = stub.requests.at(-1)!.body;
    // A window of 200 tokens leaves the summary a few dozen: one plain paragraph is asked for, not seven headed sections (SPEC §40).
    expect(request.messages[0].content).toContain("Write one short paragraph of plain text, without headings");
    expect(request.messages[1].content).toContain("<previous-summary>");
    const summary = (result!.messages[1] as { content: string }).content;
    expect(summary).toMatch(new RegExp(`^${SUMMARY_PREFIX.replace(/[[\]]/g, "\\$&")}summary of \\d+ characters$`));
  });

  it("an empty completion is an INVALID_SUMMARY: the transcript is untouched, or, when cutting its tool payloads alone fits, cut and the refusal said", async () => {
    const summarize = summarizeWith(() => "   ");
    const messages = render(shape, "openai-chat");
    const error = await compactor({ maxTokens: 100, keepTail: 10, summarize, ladder: { truncateToolResults: false } })({
      messages,
    }).catch((e: unknown) => e);
    expect(isCompactionError(error) && error.code).toBe("INVALID_SUMMARY");
    const compacted = vi.fn();
    const cut = await compactor({ maxTokens: 200, keepTail: 10, summarize, events: { onCompacted: compacted } })({
      messages,
    });
    expect(cut).not.toBeNull();
    expect(compacted.mock.calls[0]![0]).toMatchObject({
      strategy: "truncate",
      error: expect.objectContaining({ code: "INVALID_SUMMARY" }),
    });
  });

  it("the signal aborts when the compaction times out", async () => {
    const seen = vi.fn();
    const summarize = summarizeWith(
      (_, { signal }) =>
        new Promise<string>((_resolve, reject) =>
          signal.addEventListener("abort", () => {
            seen();
            reject(signal.reason);
          }),
        ),
    );
    const error = await compactor({ maxTokens: 200, keepTail: 10, summarize, summary: { timeoutMs: 20 } })({
      messages: render(shape, "openai-chat"),
    }).catch((e: unknown) => e);
    expect(isCompactionError(error) && error.code).toBe("TIMEOUT");
    expect(seen).toHaveBeenCalled();
  });
});

describe("the summary's form fits the limit the prompt states", () => {
  it("asks for the sections where the limit holds them twice over, else one plain paragraph", async () => {
    const { buildSummaryPrompt } = await import("../src/summary-kit/build-summary-prompt.js");
    const older = [{ role: "user", content: "Never disable TLS verification." }];
    expect(
      buildSummaryPrompt(older, { previousSummary: undefined, instructions: undefined, maxSummaryTokens: 32 }).system,
    ).toContain("one short paragraph");
    expect(
      buildSummaryPrompt(older, { previousSummary: undefined, instructions: undefined, maxSummaryTokens: 32 }).system,
    ).not.toContain("## Goals");
    expect(
      buildSummaryPrompt(older, { previousSummary: undefined, instructions: undefined, maxSummaryTokens: 400 }).system,
    ).toContain("## Goals and constraints");
    expect(buildSummaryPrompt(older).system).toContain("## Goals and constraints");
  });
});
