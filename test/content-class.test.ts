// The content classifier: each class told from texts made by outside sources (Node's own UUIDs,
// hex and base64, the shipped transcripts' prose, code and JSON records), its ratios kept to what
// `npm run bench:estimate` last measured, and one pass per text on the crafted inputs of 1 MB.
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  CONTENT_CLASS_LABELS,
  ESTIMATE_ERROR,
  classifyText,
  type ContentClass,
} from "../src/counting/content-class.js";
import { cjkSamples, csvSamples, emojiSamples } from "../bench/content-samples.mjs";
import { adversarialTexts } from "./support/adversarial-text.mjs";

const fixtures = new URL("./fixtures/transcripts/", import.meta.url).pathname;
type Message = { role: string; content?: unknown; tool_calls?: unknown };
const transcripts = ["tau1", "tau2", "moatless"].flatMap((dataset) =>
  readdirSync(join(fixtures, dataset)).map((file) => ({
    dataset,
    messages: JSON.parse(readFileSync(join(fixtures, dataset, file), "utf8")) as Message[],
  })),
);
const texts = (keep: (dataset: string, message: Message) => boolean) =>
  transcripts.flatMap(({ dataset, messages }) =>
    messages
      .filter(
        (message) => typeof message.content === "string" && message.content.length >= 80 && keep(dataset, message),
      )
      .map((message) => message.content as string),
  );

const lines = (count: number, line: () => string) => Array.from({ length: count }, line).join("\n");
const samples: Record<ContentClass, string[]> = {
  prose: texts(
    (dataset, m) => dataset !== "moatless" && (m.role === "user" || m.role === "assistant") && !m.tool_calls,
  ),
  code: texts((dataset, m) => dataset === "moatless" && m.role === "tool" && String(m.content).includes("```")),
  json: texts((dataset, m) => dataset !== "moatless" && m.role === "tool" && /^\s*[[{]/.test(String(m.content))),
  digits: csvSamples(20),
  ids: [
    ...Array.from({ length: 10 }, () => lines(40, randomUUID)),
    ...Array.from({ length: 10 }, () => lines(40, () => randomBytes(20).toString("hex"))),
  ],
  base64: Array.from({ length: 20 }, () => randomBytes(3_000).toString("base64")),
  cjk: cjkSamples(20),
  emoji: emojiSamples(20),
};

describe("classifyText", () => {
  it.each(Object.keys(samples) as ContentClass[])("tells %s from the rest", (name) => {
    const list = samples[name];
    expect(list.length).toBeGreaterThanOrEqual(5);
    const right = list.filter((text) => classifyText(text) === name).length;
    expect(right / list.length, `${right} of ${list.length}`).toBeGreaterThanOrEqual(0.9);
  });

  it.each([
    ["", "prose"],
    ["ok", "prose"],
    ["Your reservation is confirmed for Monday.", "prose"],
    ["a3f9c2e1-77b0-4c1e-9d2a-0e5b6c7d8f90", "ids"],
    ["2025-03-14,17.3,2048\n2025-03-15,18.1,2051", "digits"],
    ['{"user_id": "mia_li_3668", "name": {"first_name": "Mia"}}', "json"],
    ["function add(a, b) { return a + b; }", "code"],
    ["ご注文の商品は本日発送されました。", "cjk"],
    ["🎉🎉 👨‍👩‍👧‍👦 🇯🇵 👍🏽", "emoji"],
  ] as const)("%j is %s", (text, expected) => {
    expect(classifyText(text)).toBe(expected);
  });

  const crafted = adversarialTexts(1 << 20);
  it.each(Object.keys(crafted))("reads the crafted input %s of 1 MB in one pass", (name) => {
    const text = crafted[name]!;
    expect(Object.keys(ESTIMATE_ERROR)).toContain(classifyText(text));
  });
});

describe("ESTIMATE_ERROR", () => {
  // bench/estimate-error.json is what `npm run bench:estimate` printed last.
  const measured = JSON.parse(readFileSync(new URL("../bench/estimate-error.json", import.meta.url), "utf8")) as {
    rows: { key: string; o200kRatio: number }[];
  };
  const benchKey: Record<ContentClass, string> = {
    prose: "prose",
    code: "code",
    json: "json",
    digits: "csv",
    ids: "uuid",
    base64: "base64",
    cjk: "cjk",
    emoji: "emoji",
  };

  it.each(Object.keys(ESTIMATE_ERROR) as ContentClass[])("%s is within 10% of the last measurement", (name) => {
    const row = measured.rows.find((r) => r.key === benchKey[name]);
    expect(row, benchKey[name]).toBeDefined();
    expect(Math.abs(ESTIMATE_ERROR[name] / row!.o200kRatio - 1)).toBeLessThanOrEqual(0.1);
  });

  it("every class has a label", () => {
    expect(Object.keys(CONTENT_CLASS_LABELS).sort()).toEqual(Object.keys(ESTIMATE_ERROR).sort());
  });
});
