import stableStringify from "fast-json-stable-stringify";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { estimateTokens } from "../src/index.js";
import { mediaEstimate } from "../src/counting/media-tokens.js";
import { utf8ByteLengthPortable } from "../src/counting/utf8-length.js";
import { anyTranscriptArbitrary } from "./support/transcripts.js";

const native = (messages: readonly unknown[]) =>
  messages.reduce<number>((sum, m) => sum + Math.ceil(Buffer.byteLength(JSON.stringify(m)) / 4), 0);

describe("estimateTokens", () => {
  it.each([
    ["empty", [], 0],
    ["one short message (29 bytes)", [{ role: "user", content: "hi" }], 8],
    ["rounds up per message, then sums", [{ a: 1 }, { a: 1 }], 4],
    ["counts UTF-8 bytes (17)", [{ c: "日本語" }], 5],
    ["counts emoji as 4 bytes", [{ c: "😀" }], 3],
  ])("%s", (_, messages, expected) => {
    expect(estimateTokens(messages)).toBe(expected);
    expect(estimateTokens(messages)).toBe(native(messages));
  });

  it("equals the formula on any JSON value", () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), (messages) => {
        expect(estimateTokens(messages)).toBe(native(messages));
      }),
    );
    fc.assert(
      fc.property(fc.array(fc.object({ withNullPrototype: true })), (messages) => {
        expect(estimateTokens(messages)).toBe(native(messages));
      }),
    );
  });

  // `Σ ceil(utf8Bytes(JSON.stringify(m)) / 4)` for every message without images or files, in every
  // format whose messages are sent as their own JSON (a LangChain instance and a pi message count
  // as what the provider receives of them), whatever the script of their text.
  it("equals the formula on transcripts of every format without media, in every script", () => {
    const scripts = ["👨‍👩‍👧‍👦", "🇯🇵🇫🇷", "👍🏽", "日本語の文", "é", "e\u0301\u0323", "𝒜𐍈", "ZWJ\u200d", "Привет"];
    const sent = (dialect: string) => dialect !== "langchain" && dialect !== "pi-agent";
    const scripted = fc
      .tuple(anyTranscriptArbitrary({ maxTurns: 4 }), fc.array(fc.constantFrom(...scripts), { maxLength: 6 }))
      .map(([{ dialect, messages }, words]) => ({
        dialect,
        // Text of every script in every message: the first string field of each gets the words.
        messages: messages.map((message) => {
          const copy = structuredClone(message) as Record<string, unknown>;
          if (typeof copy["content"] === "string") copy["content"] += words.join(" ");
          return copy;
        }),
      }));
    fc.assert(
      fc.property(
        scripted.filter(({ dialect }) => sent(dialect)),
        ({ messages }) => {
          expect(estimateTokens(messages)).toBe(native(messages));
        },
      ),
    );
  });

  it("does not depend on key order (fast-json-stable-stringify as the oracle)", () => {
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.string(), fc.jsonValue())), (messages) => {
        const stable = messages.reduce((sum, m) => sum + Math.ceil(Buffer.byteLength(stableStringify(m)) / 4), 0);
        expect(estimateTokens(messages)).toBe(stable);
        const reversed = messages.map((m) => Object.fromEntries(Object.entries(m).reverse()));
        expect(estimateTokens(reversed)).toBe(stable);
      }),
    );
  });

  it("the portable byte counter equals Buffer.byteLength, lone surrogates included", () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.oneof(
            fc.constant("\ud800"),
            fc.constant("\udc00"),
            fc.constant("é"),
            fc.constant("😀"),
            fc.constant("a"),
            fc.constant("日"),
          ),
        }),
        (text) => {
          expect(utf8ByteLengthPortable(text)).toBe(Buffer.byteLength(text, "utf8"));
        },
      ),
    );
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        expect(utf8ByteLengthPortable(text)).toBe(Buffer.byteLength(text, "utf8"));
      }),
    );
  });

  it("honours toJSON and drops undefined like JSON.stringify", () => {
    const messages = [{ toJSON: () => ({ role: "user" }) }, { a: undefined, b: [undefined, 1] }];
    expect(estimateTokens(messages)).toBe(native(messages));
  });

  it("names the bad index, with the cause", () => {
    const circular: Record<string, unknown> = {};
    circular["self"] = circular;
    expect(() => estimateTokens([{}, circular])).toThrow(/`messages\[1\]`/);
    expect(() => estimateTokens([{ n: 1n }])).toThrow(TypeError);
    try {
      estimateTokens([{ n: 1n }]);
    } catch (error) {
      expect((error as Error).cause).toBeInstanceOf(TypeError);
    }
    expect(() => estimateTokens([{}, {}, undefined])).toThrow(
      "Expected `messages[2]` to be serializable to JSON, got `undefined` (undefined)",
    );
    expect(() => estimateTokens([() => 1])).toThrow(/`messages\[0\]`/);
    expect(() => estimateTokens("x" as never)).toThrow("Expected `messages` to be an array, got `x` (string)");
  });
});

describe("LangChain message instances", () => {
  it("count as what the provider receives, not as their serialization wrapper", async () => {
    const { AIMessage, HumanMessage, ToolMessage } = await import("@langchain/core/messages");
    const instances = [
      new HumanMessage({ content: "where is my order #W123?", id: "h1" }),
      new AIMessage({
        content: "",
        id: "a1",
        tool_calls: [{ id: "c1", name: "lookup", args: { q: "#W123" }, type: "tool_call" }],
      }),
      new ToolMessage({ content: "shipped", tool_call_id: "c1", id: "t1" }),
    ];
    const plain = [
      { type: "human", content: "where is my order #W123?", id: "h1" },
      {
        type: "ai",
        content: "",
        tool_calls: [{ id: "c1", name: "lookup", args: { q: "#W123" }, type: "tool_call" }],
        id: "a1",
      },
      { type: "tool", content: "shipped", tool_call_id: "c1", id: "t1" },
    ];
    expect(estimateTokens(instances)).toBe(estimateTokens(plain));
    expect(estimateTokens(instances)).toBeLessThan(
      instances.reduce((sum, m) => sum + Math.ceil(JSON.stringify(m).length / 4), 0),
    );
  });
});

describe("images and files, read without telling a message's format", () => {
  // The estimate reads media by the shape of each part, the dialects by each format's own reader:
  // on messages as each SDK types them, both must find the same media. The shapes follow the SDKs'
  // types: OpenAI `ChatCompletionContentPartImage`/`File` and Responses `input_image`/`input_file`
  // (with a `function_call_output` list), Anthropic `ImageBlockParam`/`DocumentBlockParam` and a
  // `tool_result`'s content, the AI SDK's `ImagePart`/`FilePart` and a tool output of type
  // `content` (`media`, `image-data`, `file-data` in @ai-sdk/provider-utils), Gemini `Part.inlineData`/
  // `fileData` and `FunctionResponse.parts`, Genkit `MediaPart` and a `toolResponse`'s content,
  // Bedrock `ContentBlock.image`/`document` and `ToolResultBlock.content`, pi's `ImageContent`.
  const png = `data:image/png;base64,${"A".repeat(400)}`;
  const bare = "A".repeat(300);
  const pdf = `data:application/pdf;base64,${"QUJD".repeat(30_000)}`;
  const csv = "data:text/csv;base64,QUJD";
  const withMedia: object[] = [
    {
      role: "user",
      content: [
        { type: "text", text: "see" },
        { type: "image_url", image_url: { url: png, detail: "low" } },
        { type: "file", file: { file_data: pdf, filename: "a.pdf" } },
      ],
    },
    {
      type: "message",
      role: "user",
      content: [
        { type: "input_image", image_url: png, detail: "high" },
        { type: "input_file", file_data: pdf, filename: "a.pdf" },
        { type: "input_file", file_data: csv },
      ],
    },
    {
      type: "function_call_output",
      call_id: "c",
      output: [
        { type: "input_image", image_url: png },
        { type: "input_file", file_id: "file-1" },
      ],
    },
    {
      role: "user",
      content: [
        { type: "image", source: { type: "base64", media_type: "image/png", data: bare } },
        { type: "document", source: { type: "base64", media_type: "application/pdf", data: bare } },
        { type: "document", source: { type: "text", media_type: "text/plain", data: "hi" } },
      ],
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "t",
          content: [
            { type: "text", text: "shot" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: bare } },
          ],
        },
      ],
    },
    {
      role: "user",
      content: [
        { type: "image", image: png },
        { type: "file", data: pdf, mediaType: "application/pdf" },
        { type: "file", data: csv, mediaType: "text/csv" },
      ],
    },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "t",
          toolName: "shot",
          output: {
            type: "content",
            value: [
              { type: "text", text: "ok" },
              { type: "media", data: bare, mediaType: "image/png" },
              { type: "image-data", data: bare, mediaType: "image/png" },
              { type: "file-data", data: bare, mediaType: "application/pdf" },
            ],
          },
        },
      ],
    },
    {
      role: "user",
      parts: [
        { text: "see" },
        { inlineData: { mimeType: "image/png", data: bare } },
        { inlineData: { mimeType: "application/pdf", data: bare } },
        { fileData: { mimeType: "application/pdf", fileUri: "gs://a/b.pdf" } },
      ],
    },
    {
      role: "user",
      parts: [
        {
          functionResponse: {
            name: "shot",
            response: { ok: true },
            parts: [{ inlineData: { mimeType: "image/png", data: bare } }],
          },
        },
      ],
    },
    {
      role: "user",
      content: [
        { text: "see" },
        { media: { url: png, contentType: "image/png" } },
        { media: { url: pdf } },
        { media: { url: "https://x/a.pdf", contentType: "application/pdf" } },
      ],
    },
    {
      role: "tool",
      content: [{ toolResponse: { name: "shot", ref: "r", output: "ok", content: [{ media: { url: png } }] } }],
    },
    {
      role: "user",
      content: [
        { text: "see" },
        { image: { format: "png", source: { bytes: bare } } },
        { document: { format: "pdf", name: "d", source: { bytes: new Uint8Array(200_000) } } },
      ],
    },
    {
      role: "user",
      content: [{ toolResult: { toolUseId: "t", content: [{ image: { format: "png", source: { bytes: bare } } }] } }],
    },
    {
      role: "toolResult",
      toolCallId: "t",
      toolName: "shot",
      content: [
        { type: "text", text: "ok" },
        { type: "image", data: bare, mimeType: "image/png" },
      ],
      isError: false,
      timestamp: 1,
    },
  ];
  // As docs/counting.md says providers bill them: 1,600 an image, 85 in OpenAI's low detail, 1,600
  // per 75 KB of a file's data (1,600 at least); the data itself is left out of bytes / 4.
  const billed = (part: { kind: string; detail?: string; fileBytes?: number }) =>
    part.kind === "image"
      ? part.detail === "low"
        ? 85
        : 1600
      : 1600 * Math.max(1, Math.ceil((part.fileBytes ?? 0) / 75_000));

  it("counts the media each message's own dialect reads, in every format", async () => {
    const { mediaOf } = await import("../src/dialects/media-parts.js");
    const { dialectFixtures } = await import("./support/dialect-fixtures.js");
    const messages: object[] = [
      ...dialectFixtures.flatMap((fixture) => [
        fixture.user,
        ...fixture.toolRound,
        ...fixture.parallel,
        fixture.resultOnly,
        fixture.summary,
      ]),
      ...withMedia,
    ];
    for (const message of messages) {
      const parts = mediaOf(message);
      const expected =
        parts.length === 0
          ? undefined
          : {
              dataLength: parts.reduce((sum, part) => sum + part.dataLength, 0),
              tokens: parts.reduce((sum, part) => sum + billed(part), 0),
            };
      expect(mediaEstimate(message), JSON.stringify(message).slice(0, 100)).toEqual(expected);
    }
    expect(withMedia.every((message) => mediaEstimate(message) !== undefined)).toBe(true);
  });
});
