// What the providers accept and how they count, held by the library's own entry points: the
// summary's role per format, a pinned format, messages no format holds, the developer prompt,
// media inside tool results, signed messages and what is sent beside the messages.
import { describe, expect, it } from "vitest";
import { compact, compactor, estimateTokens } from "../src/index.js";
import { planCompaction, SUMMARY_PREFIX } from "../src/expert.js";
import { dialects, render, summaryRoleFor, type Shape } from "./support/transcripts.js";

type Message = Record<string, unknown>;
const summarize = () => "the summary";

const shape: Shape = {
  system: "You are a support agent.",
  summary: undefined,
  steps: [
    { kind: "user", text: "first question ".repeat(60) },
    { kind: "assistant", text: "first answer ".repeat(60) },
    { kind: "user", text: "second question ".repeat(60) },
    { kind: "assistant", text: "second answer ".repeat(60) },
    { kind: "user", text: "the newest question" },
  ],
};

/** The role of a message as its format spells it. */
function rawRole(message: Message): unknown {
  if (typeof message["_getType"] === "function") return (message["_getType"] as () => string)();
  return message["role"] ?? message["type"];
}

describe("the summary's role follows the format", () => {
  it.each(dialects)(
    "%s: a system message only where the format's messages hold one after the first",
    async (dialect) => {
      const messages = render(shape, dialect);
      for (const summaryRole of [undefined, "auto", "system"] as const) {
        const output = (await compact(messages, {
          maxTokens: 400,
          summarize,
          format: dialect,
          ...(summaryRole ? { summary: { role: summaryRole } } : {}),
        }))!.messages as Message[];
        const summary = output.find((message) => JSON.stringify(message).includes(SUMMARY_PREFIX.trim())) as Message;
        const role = rawRole(summary);
        if (summaryRoleFor(dialect) === "system") expect(["system", "SystemMessage"]).toContain(role);
        else expect(["user", "human", "HumanMessage"]).toContain(role);
      }
      const asUser = (await compact(messages, {
        maxTokens: 400,
        summarize,
        format: dialect,
        summary: { role: "user" },
      }))!.messages as Message[];
      expect(
        asUser.some(
          (message) =>
            ["system", "SystemMessage"].includes(String(rawRole(message))) &&
            JSON.stringify(message).includes("the summary"),
        ),
      ).toBe(false);
    },
  );
});

describe("format pins the dialect", () => {
  const plain: Message[] = [
    { role: "user", content: "first ".repeat(200) },
    { role: "assistant", content: "answer ".repeat(200) },
    { role: "user", content: "the newest question" },
  ];

  it("a plain-text Anthropic transcript gets a user summary with format: anthropic, and a system one when it reads as OpenAI chat", async () => {
    const pinned = (await compact(plain, { maxTokens: 200, summarize, format: "anthropic" }))!.messages as Message[];
    expect(pinned[0]).toMatchObject({ role: "user", content: expect.stringContaining("the summary") });
    expect(pinned.every((message) => message["role"] !== "system")).toBe(true);
    const detected = (await compact(plain, { maxTokens: 200, summarize }))!.messages as Message[];
    expect(detected[0]).toMatchObject({ role: "system" });
  });

  it("a message that does not read as the pinned format is a TypeError naming its index", async () => {
    const mixed = [...plain.slice(0, 2), { role: "tool", tool_call_id: "t1", content: "42" }, plain[2]!];
    await expect(compact(mixed, { maxTokens: 200, summarize, format: "anthropic" })).rejects.toThrow(
      /Expected `messages\[2\]` to be a message of the `anthropic` format/,
    );
    expect(() =>
      planCompaction([{ role: "model", parts: [{ text: "hi" }] }], { maxTokens: 200, format: "openai-chat" }),
    ).toThrow(TypeError);
    expect(() => compactor({ maxTokens: 200, summarize, format: "gemini" as never })).toThrow(
      /Expected `format` to be/,
    );
  });
});

describe("a message no format holds is refused, never summarized away", () => {
  it.each<[string, object[]]>([
    [
      "{ speaker, text }",
      Array.from({ length: 30 }, (_, i) => ({ speaker: i % 2 ? "bot" : "me", text: `message ${i} `.repeat(20) })),
    ],
    [
      '{ role: "USER", message }',
      Array.from({ length: 30 }, (_, i) => ({ role: i % 2 ? "BOT" : "USER", message: `message ${i} `.repeat(20) })),
    ],
  ])("%s", async (_name, messages) => {
    const hook = compactor({ maxTokens: 500, summarize });
    await expect(hook({ messages })).rejects.toThrow(TypeError);
    await expect(hook({ messages })).rejects.toThrow(/Expected `messages\[0\]` to be a message of a known format/);
    // Under budget too: a transcript the hook cannot place is said at once, not at the first compaction.
    await expect(compactor({ maxTokens: 1_000_000, summarize })({ messages })).rejects.toThrow(TypeError);
  });
});

describe("the OpenAI developer message is a head", () => {
  const body = [
    { role: "user", content: "first ".repeat(200) },
    { role: "assistant", content: "answer ".repeat(200) },
    { role: "user", content: "the newest question" },
  ];

  it("a leading developer message is kept verbatim, the same object", async () => {
    const developer = { role: "developer", content: "You are terse." };
    const output = (await compact([developer, ...body], { maxTokens: 200, summarize }))!.messages;
    expect(output[0]).toBe(developer);
    expect(output[1]).toMatchObject({ role: "system", content: expect.stringContaining("the summary") });
  });

  it("so is a run of leading system and developer messages", async () => {
    const system = { role: "system", content: "You are a support agent." };
    const developer = { role: "developer", content: "Answer in French." };
    const output = (await compact([system, developer, ...body], { maxTokens: 220, summarize }))!.messages;
    expect(output[0]).toBe(system);
    expect(output[1]).toBe(developer);
    const items = [
      { type: "message", role: "developer", content: "Be brief." },
      ...body.map((m) => ({ type: "message", ...m })),
    ];
    const responses = (await compact(items, { maxTokens: 200, summarize }))!.messages;
    expect(responses[0]).toBe(items[0]);
  });
});

describe("media inside tool results count as the provider bills them", () => {
  // About 300 KB of image bytes, as base64.
  const data = "A".repeat(400_000);
  const url = `data:image/png;base64,${data}`;
  const pairs: [string, Message, Message][] = [
    [
      "anthropic",
      { role: "user", content: [{ type: "image", source: { type: "base64", media_type: "image/png", data } }] },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "t1",
            content: [{ type: "image", source: { type: "base64", media_type: "image/png", data } }],
          },
        ],
      },
    ],
    [
      "ai-sdk image-data",
      { role: "user", content: [{ type: "image", image: data, mediaType: "image/png" }] },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "t1",
            toolName: "shot",
            output: { type: "content", value: [{ type: "image-data", data, mediaType: "image/png" }] },
          },
        ],
      },
    ],
    [
      "ai-sdk media",
      { role: "user", content: [{ type: "image", image: data, mediaType: "image/png" }] },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "t1",
            toolName: "shot",
            output: { type: "content", value: [{ type: "media", data, mediaType: "image/png" }] },
          },
        ],
      },
    ],
    [
      "openai-responses",
      { role: "user", content: [{ type: "input_image", image_url: url }] },
      { type: "function_call_output", call_id: "t1", output: [{ type: "input_image", image_url: url }] },
    ],
    [
      "google-genai",
      { role: "user", parts: [{ inlineData: { mimeType: "image/png", data } }] },
      {
        role: "user",
        parts: [
          {
            functionResponse: {
              id: "t1",
              name: "shot",
              response: {},
              parts: [{ inlineData: { mimeType: "image/png", data } }],
            },
          },
        ],
      },
    ],
    [
      "bedrock-converse",
      { role: "user", content: [{ image: { format: "png", source: { bytes: data } } }] },
      {
        role: "user",
        content: [
          { toolResult: { toolUseId: "t1", content: [{ image: { format: "png", source: { bytes: data } } }] } },
        ],
      },
    ],
    [
      "langchain",
      { type: "human", content: [{ type: "image_url", image_url: { url } }] },
      {
        type: "tool",
        tool_call_id: "t1",
        content: [{ type: "image", source_type: "base64", data, mime_type: "image/png" }],
      },
    ],
    [
      "pi-agent",
      { role: "user", content: [{ type: "image", data, mimeType: "image/png" }], timestamp: 1 },
      {
        role: "toolResult",
        toolCallId: "t1",
        toolName: "shot",
        content: [{ type: "image", data, mimeType: "image/png" }],
        isError: false,
        timestamp: 1,
      },
    ],
    [
      "genkit",
      { role: "user", content: [{ media: { url, contentType: "image/png" } }] },
      {
        role: "tool",
        content: [
          {
            toolResponse: {
              ref: "t1",
              name: "shot",
              output: {},
              content: [{ media: { url, contentType: "image/png" } }],
            },
          },
        ],
      },
    ],
  ];

  it.each(pairs)(
    "%s: a screenshot in a tool result counts within 2× of the same image in a user message",
    (_format, top, inResult) => {
      const atTop = estimateTokens([top]);
      const inside = estimateTokens([inResult]);
      expect(atTop).toBeLessThan(2_000);
      expect(inside).toBeLessThan(2 * atTop);
    },
  );

  it("a computer-use loop of five screenshots keeps its newest screenshot under a 100,000-token budget", async () => {
    const messages: Message[] = [{ role: "user", content: "do the task" }];
    for (let step = 1; step <= 5; step++) {
      messages.push({
        role: "assistant",
        content: [{ type: "tool_use", id: `s${step}`, name: "screenshot", input: {} }],
      });
      messages.push({
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: `s${step}`,
            content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: `${step}${data}` } }],
          },
        ],
      });
    }
    const result = await compactor({ maxTokens: 100_000, summarize, format: "anthropic" })({ messages });
    // Five screenshots of about 1,600 tokens each fit: nothing is summarized away.
    expect(result).toBeNull();
  });
});

/** An earlier exchange to summarize, in the format's own text messages. */
function earlier(format: "plain" | "gemini" | "bedrock"): Message[] {
  const text = (words: string) =>
    format === "gemini"
      ? { parts: [{ text: words }] }
      : format === "bedrock"
        ? { content: [{ text: words }] }
        : { content: words };
  return [
    { role: "user", ...text("an earlier request ".repeat(50)) },
    { role: format === "gemini" ? "model" : "assistant", ...text("an earlier answer ".repeat(50)) },
  ];
}

describe("signed messages are never edited", () => {
  // A call's arguments of 5,000 tokens and a result of 10,000: a common cut of both would fit, as would
  // the result cut alone; only the second leaves the signed message as the provider wrote it.
  const huge = "x".repeat(40_000);
  const large = "y".repeat(20_000);

  it("truncation cuts the results that answer signed thinking, never its calls or its thinking", async () => {
    const signed = {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "I should look it up.", signature: "sig-abc" },
        { type: "tool_use", id: "t1", name: "write", input: { text: large } },
      ],
    };
    const messages = [
      ...earlier("plain"),
      { role: "user", content: "write it" },
      signed,
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: huge }] },
    ];
    const output = (await compact(messages, { maxTokens: 12_000, summarize, format: "anthropic" }))!.messages;
    expect(output).toContain(signed);
    const result = output.at(-1) as { content: { content: string }[] };
    expect(result.content[0]!.content.length).toBeLessThan(huge.length);
  });

  it.each([
    [
      "a Gemini call with a thought signature",
      {
        role: "model",
        parts: [{ functionCall: { id: "t1", name: "write", args: { text: large } }, thoughtSignature: "c2ln" }],
      },
      { role: "user", parts: [{ functionResponse: { id: "t1", name: "write", response: { output: huge } } }] },
    ],
    [
      "a Bedrock call with signed reasoning",
      {
        role: "assistant",
        content: [
          { reasoningContent: { reasoningText: { text: "plan", signature: "sig" } } },
          { toolUse: { toolUseId: "t1", name: "write", input: { text: large } } },
        ],
      },
      { role: "user", content: [{ toolResult: { toolUseId: "t1", content: [{ text: huge }] } }] },
    ],
    [
      "an AI SDK call after signed reasoning",
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "plan", providerOptions: { anthropic: { signature: "sig" } } },
          { type: "tool-call", toolCallId: "t1", toolName: "write", input: { text: large } },
        ],
      },
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "t1", toolName: "write", output: { type: "text", value: huge } }],
      },
    ],
  ])("%s keeps its arguments", async (_name, call, result) => {
    const format = "parts" in call ? "gemini" : "toolUse" in (call.content as object[])[1]! ? "bedrock" : "plain";
    const output = (await compact([...earlier(format), ...earlier(format).slice(0, 1), call, result], {
      maxTokens: 12_000,
      summarize,
    }))!.messages;
    expect(output).toContain(call);
  });

  it("a Responses call bound to its encrypted reasoning keeps its arguments", async () => {
    const reasoning = { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "gAAAA" };
    const call = { type: "function_call", call_id: "t1", name: "write", arguments: JSON.stringify({ text: large }) };
    const output = (await compact(
      [
        ...earlier("plain"),
        { role: "user", content: "write it" },
        reasoning,
        call,
        { type: "function_call_output", call_id: "t1", output: huge },
      ],
      { maxTokens: 12_000, summarize },
    ))!.messages;
    expect(output).toContain(reasoning);
    expect(output).toContain(call);
  });
});

describe("reserveTokens counts what is sent beside the messages", () => {
  const messages = [
    { role: "user", content: "first ".repeat(200) },
    { role: "assistant", content: "answer ".repeat(200) },
    { role: "user", content: "the newest question" },
  ];
  const tokens = estimateTokens(messages);

  it("is subtracted from maxTokens while no usage covers the request", async () => {
    const maxTokens = tokens + 100;
    expect(await compactor({ maxTokens, summarize })({ messages })).toBeNull();
    const result = await compactor({ maxTokens, summarize, reserveTokens: 200 })({ messages });
    expect(result).not.toBeNull();
    expect(estimateTokens(result!.messages)).toBeLessThanOrEqual(maxTokens - 200);
  });

  it("is measured, not reserved, once usage is reported", async () => {
    const maxTokens = tokens + 100;
    const usage = { inputTokens: tokens + 50, messageCount: messages.length };
    expect(await compactor({ maxTokens, summarize, reserveTokens: 200 })({ messages, usage })).toBeNull();
  });

  it("must leave room for messages", () => {
    expect(() => compactor({ maxTokens: 100, summarize, reserveTokens: 100 })).toThrow(
      /Expected `reserveTokens` to be less than `maxTokens` \(100\)/,
    );
    expect(() => compactor({ maxTokens: 100, summarize, reserveTokens: -1 })).toThrow(RangeError);
  });
});
