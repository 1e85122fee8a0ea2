import stableStringify from "fast-json-stable-stringify";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { estimateTokens } from "../src/index.js";
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
    fc.assert(fc.property(fc.array(fc.jsonValue()), (messages) => {
      expect(estimateTokens(messages)).toBe(native(messages));
    }));
    fc.assert(fc.property(fc.array(fc.object({ withNullPrototype: true })), (messages) => {
      expect(estimateTokens(messages)).toBe(native(messages));
    }));
  });

  // `Σ ceil(utf8Bytes(JSON.stringify(m)) / 4)` for every message without images or files, in every
  // format whose messages are sent as their own JSON (a LangChain instance and a pi message count
  // as what the provider receives of them), whatever the script of their text.
  it("equals the formula on transcripts of every format without media, in every script", () => {
    const scripts = ["👨‍👩‍👧‍👦", "🇯🇵🇫🇷", "👍🏽", "日本語の文", "é", "e\u0301\u0323", "𝒜𐍈", "ZWJ\u200d", "Привет"];
    const sent = (dialect: string) => dialect !== "langchain" && dialect !== "pi-agent";
    const scripted = fc.tuple(anyTranscriptArbitrary({ maxTurns: 4 }), fc.array(fc.constantFrom(...scripts), { maxLength: 6 })).map(([{ dialect, messages }, words]) => ({
      dialect,
      // Text of every script in every message: the first string field of each gets the words.
      messages: messages.map((message) => {
        const copy = structuredClone(message) as Record<string, unknown>;
        if (typeof copy["content"] === "string") copy["content"] += words.join(" ");
        return copy;
      }),
    }));
    fc.assert(
      fc.property(scripted.filter(({ dialect }) => sent(dialect)), ({ messages }) => {
        expect(estimateTokens(messages)).toBe(native(messages));
      }),
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
      fc.property(fc.string({ unit: fc.oneof(fc.constant("\ud800"), fc.constant("\udc00"), fc.constant("é"), fc.constant("😀"), fc.constant("a"), fc.constant("日")) }), (text) => {
        expect(utf8ByteLengthPortable(text)).toBe(Buffer.byteLength(text, "utf8"));
      }),
    );
    fc.assert(fc.property(fc.string({ unit: "binary" }), (text) => {
      expect(utf8ByteLengthPortable(text)).toBe(Buffer.byteLength(text, "utf8"));
    }));
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
    expect(() => estimateTokens([{}, {}, undefined])).toThrow("Expected `messages[2]` to be serializable to JSON, got `undefined` (undefined)");
    expect(() => estimateTokens([() => 1])).toThrow(/`messages\[0\]`/);
    expect(() => estimateTokens("x" as never)).toThrow("Expected `messages` to be an array, got `x` (string)");
  });
});

describe("LangChain message instances", () => {
  it("count as what the provider receives, not as their serialization wrapper", async () => {
    const { AIMessage, HumanMessage, ToolMessage } = await import("@langchain/core/messages");
    const instances = [
      new HumanMessage({ content: "where is my order #W123?", id: "h1" }),
      new AIMessage({ content: "", id: "a1", tool_calls: [{ id: "c1", name: "lookup", args: { q: "#W123" }, type: "tool_call" }] }),
      new ToolMessage({ content: "shipped", tool_call_id: "c1", id: "t1" }),
    ];
    const plain = [
      { type: "human", content: "where is my order #W123?", id: "h1" },
      { type: "ai", content: "", tool_calls: [{ id: "c1", name: "lookup", args: { q: "#W123" }, type: "tool_call" }], id: "a1" },
      { type: "tool", content: "shipped", tool_call_id: "c1", id: "t1" },
    ];
    expect(estimateTokens(instances)).toBe(estimateTokens(plain));
    expect(estimateTokens(instances)).toBeLessThan(instances.reduce((sum, m) => sum + Math.ceil(JSON.stringify(m).length / 4), 0));
  });
});
