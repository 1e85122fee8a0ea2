// The same suite over every dialect's fixtures (test/support/dialect-fixtures.ts).
import { isSummaryMessage } from "../src/dialects/messages.js";
import { describe, expect, it } from "vitest";
import {
  FLUSH_TO_MEMORY_REMINDER,
  SUMMARY_PREFIX,
  SUMMARY_REPLY,
  MASKED_TOOL_RESULT,
  detectDialect,
  findToolPairProblems,
  maskToolResults,
  splitAtUserBoundary,
} from "../src/expert.js";
import { compact } from "../src/index.js";
import { renderTranscript } from "../src/summary-kit.js";
import { formatOrder } from "../src/dialects/format-claims.js";
import { mediaOf } from "../src/dialects/media-parts.js";
import { mediaByShape } from "../src/dialects/media-by-shape.js";
import { dialectOf, dialects } from "../src/dialects/registry.js";
import { describers, messageLeadingText } from "../src/dialects/describe-message.js";
import { dialectFixtures } from "./support/dialect-fixtures.js";

// The renderer indents every further line of a message: the prefix ends in a line break.
const indentedPrefix = SUMMARY_PREFIX.replace("\n", "\n  ");

describe.each(dialectFixtures)("$name", (fixture) => {
  const { user, toolRound, parallel, resultOnly, summary } = fixture;
  const transcript = [user, ...toolRound, { ...user }, ...parallel];

  it("is detected", () => {
    expect(detectDialect(transcript)).toBe(fixture.name);
    expect(detectDialect([...toolRound])).toBe(fixture.name);
  });

  it("pairs calls with results, parallel ones included", () => {
    expect(findToolPairProblems(transcript)).toEqual([]);
    expect(findToolPairProblems(parallel)).toEqual([]);
  });

  it("reports a result without its call and a call without its result", () => {
    expect(findToolPairProblems([resultOnly])).toMatchObject([{ index: 0, kind: "orphan-result" }]);
    expect(findToolPairProblems(toolRound.slice(1))).toMatchObject([{ index: 0, kind: "orphan-result" }]);
    expect(findToolPairProblems(toolRound.slice(0, 1))).toMatchObject([{ index: 0, kind: "missing-result", id: "a" }]);
    expect(findToolPairProblems(parallel.slice(0, -1)).map((p) => p.kind)).toContain("missing-result");
  });

  it("takes a user request as a boundary, never a message holding only a tool result", () => {
    const messages = [user, ...toolRound, resultOnly];
    // A tiny keepTail: the only possible tail start is the most recent boundary.
    expect(splitAtUserBoundary([user, ...toolRound, user, ...toolRound], { keepTail: 0 }).tail[0]).toBe(user);
    expect(splitAtUserBoundary(messages, { keepTail: 10_000 }).tail).toEqual([]);
  });

  it("recognises the library's summary", () => {
    expect(isSummaryMessage(summary)).toBe(true);
    expect(isSummaryMessage(user)).toBe(false);
  });

  it("renders calls, results and text", () => {
    const text = renderTranscript([user, ...toolRound]);
    expect(text).toContain("User: Find A");
    expect(text).toContain("Tool call lookup(");
    expect(text).toContain("Tool result (lookup): found A");
    // Only a system-role summary is shown as one: a user-role message that starts with the prefix
    // may be a user's own text, so it is shown as what it is (the hook vouches through previousSummary).
    expect(renderTranscript([summary])).toBe(
      ["openai-chat", "openai-responses", "langchain"].includes(fixture.name)
        ? "Earlier summary: earlier"
        : `User: ${indentedPrefix}earlier`,
    );
  });

  it("masks results in its own shape, calls and pairs kept", () => {
    const { messages, masked } = maskToolResults(transcript, { keepRecent: 1 });
    expect(masked).toBe(2);
    expect(findToolPairProblems(messages)).toEqual([]);
    expect(detectDialect(messages)).toBe(fixture.name);
    expect(renderTranscript(messages)).toContain(`Tool result (lookup): ${MASKED_TOOL_RESULT}`);
    expect(maskToolResults(messages, { keepRecent: 1 }).masked).toBe(0);
  });

  it("writes the summary in the transcript's own format", async () => {
    const result = await compact(transcript, {
      maxTokens: 1,
      keepTail: 0,
      summary: { maxTokens: 1000, role: "user" },
      summarize: () => "short",
    });
    expect(result).not.toBeNull();
    // Where turns must alternate (Bedrock), an assistant reply follows the summary.
    const [made, ...rest] = result!.messages;
    const tail = fixture.name === "bedrock-converse" ? rest.slice(1) : rest;
    if (fixture.name === "bedrock-converse")
      expect(rest[0]).toEqual({ role: "assistant", content: [{ text: SUMMARY_REPLY }] });
    expect(isSummaryMessage(made)).toBe(true);
    // A user-role summary is sealed, and shown as a user's message (its seal left out).
    expect(renderTranscript([made!])).toBe(`User: ${indentedPrefix}short`);
    expect(detectDialect([made!, ...toolRound])).toBe(fixture.name);
    expect(findToolPairProblems(result!.messages)).toEqual([]);
    expect(tail[0]).toBe(transcript[3]);
  });
});

describe("formats without system messages", () => {
  it.each(["google-genai", "anthropic", "genkit", "pi-agent"] as const)(
    "%s: a summary and its reminder are user messages even with summaryRole system",
    async (name) => {
      const { user, toolRound } = dialectFixtures.find((fixture) => fixture.name === name)!;
      const result = await compact([user, ...toolRound, { ...user }], {
        format: name,
        maxTokens: 1,
        keepTail: 0,
        summary: { maxTokens: 1000, role: "system", flushToMemory: true },
        summarize: () => "s",
      });
      expect(result!.messages.slice(0, 2).map((m) => (m as { role: string }).role)).toEqual(["user", "user"]);
    },
  );

  it("bedrock-converse: the summary, its reminder as a second block, then an assistant reply, so turns alternate", async () => {
    const { user, toolRound } = dialectFixtures.find((fixture) => fixture.name === "bedrock-converse")!;
    const result = await compact([user, ...toolRound, { ...user }], {
      maxTokens: 1,
      keepTail: 0,
      summary: { maxTokens: 1000, role: "system", flushToMemory: true },
      summarize: () => "s",
    });
    const [summary, reply, next] = result!.messages as { role: string; content: { text: string }[] }[];
    expect(summary!.role).toBe("user");
    expect(summary!.content.at(-1)).toEqual({ text: FLUSH_TO_MEMORY_REMINDER });
    expect(reply).toEqual({ role: "assistant", content: [{ text: SUMMARY_REPLY }] });
    expect(next!.role).toBe("user");
  });
});

describe("Gemini id-less pairing", () => {
  const call = (name: string) => ({ functionCall: { name, args: {} } });
  const response = (name: string) => ({ functionResponse: { name, response: { output: name } } });

  it("pairs in order, so a response before any call is an orphan and an extra call is unanswered", () => {
    expect(findToolPairProblems([{ role: "user", parts: [response("x")] }])).toEqual([
      { index: 0, kind: "orphan-result", id: "" },
    ]);
    const messages = [
      { role: "model", parts: [call("x"), call("y")] },
      { role: "user", parts: [response("x")] },
    ];
    expect(findToolPairProblems(messages)).toEqual([{ index: 0, kind: "missing-result", id: "" }]);
  });
});

describe("telling formats apart", () => {
  // The estimate tells a message's format and reads its media apart from the dialects; both must
  // answer as the message's own dialect does.
  it("the registry lists its dialects in the order the formats are told apart", () => {
    expect(dialects.map((dialect) => dialect.name)).toEqual(formatOrder);
  });

  it("what only reads messages reads them with each dialect's own describe, and their leading text as each dialect does", () => {
    expect(describers).toEqual(dialects.map((dialect) => dialect.describe));
    const messages: object[] = dialectFixtures.flatMap((fixture) => [
      fixture.user,
      ...fixture.toolRound,
      fixture.summary,
    ]);
    for (const message of messages) {
      const own = dialectOf(message).leadingText(message as Record<string, unknown>);
      if (own !== undefined) expect(messageLeadingText(message), JSON.stringify(message).slice(0, 80)).toBe(own);
    }
  });

  it("the media the estimate reads are those the message's own dialect reads", () => {
    const png = `data:image/png;base64,${"A".repeat(400)}`;
    const pdf = `data:application/pdf;base64,${"QUJD".repeat(100)}`;
    const messages: object[] = [
      ...dialectFixtures.flatMap((fixture) => [
        fixture.user,
        ...fixture.toolRound,
        ...fixture.parallel,
        fixture.resultOnly,
        fixture.summary,
      ]),
      { role: "user", content: [{ type: "image_url", image_url: { url: png, detail: "low" } }] },
      { role: "user", content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: png } }] },
      {
        role: "user",
        content: [
          { type: "file", data: pdf, mediaType: "application/pdf" },
          { type: "tool-call", toolCallId: "a", toolName: "t", input: {} },
        ],
      },
      { type: "function_call_output", call_id: "c", output: [{ type: "input_image", image_url: png }] },
      {
        role: "user",
        parts: [
          { inlineData: { mimeType: "image/png", data: png } },
          { fileData: { mimeType: "application/pdf", fileUri: "gs://a/b.pdf" } },
        ],
      },
      { role: "user", content: [{ media: { url: png, contentType: "image/png" } }] },
      {
        role: "user",
        content: [
          { image: { format: "png", source: { bytes: "QUJD" } } },
          { document: { name: "d", source: { bytes: "QUJD" } } },
        ],
      },
      {
        role: "toolResult",
        toolCallId: "t",
        toolName: "shot",
        content: [{ type: "image", data: png, mimeType: "image/png" }],
        isError: false,
      },
    ];
    for (const message of messages)
      expect(mediaByShape(message), JSON.stringify(message).slice(0, 80)).toEqual(mediaOf(message));
    expect(messages.slice(-8).every((message) => mediaOf(message).length > 0)).toBe(true);
  });

  it("a plain message is read afresh each time, so content added later decides its format", () => {
    const message: Record<string, unknown> = { role: "user", content: "hi" };
    expect(findToolPairProblems([message])).toEqual([]);
    message["content"] = [{ type: "tool_result", tool_use_id: "z", content: "late" }];
    expect(findToolPairProblems([message])).toEqual([{ index: 0, kind: "orphan-result", id: "z" }]);
  });
});
