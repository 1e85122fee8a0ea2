// Every exported path that reads untrusted text runs in time linear in its length. Each of them is
// held to 1 s per MB on crafted inputs: ten times the 100 ms a linear pass takes here, so that only
// a pattern that backtracks (quadratic on these inputs: minutes, not seconds) fails the bound.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildSummaryPrompt, compact, extractiveSummary, planCompaction, renderTranscript } from "../src/index.js";

const MB = 1 << 20;
const fill = (unit: string) => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);

/** Twenty inputs of 1 MB, each shaped against a pattern a scanner of identifiers, secrets, fences or word pieces might use. */
const adversarial: Record<string, string> = {
  "hex digits": Array.from({ length: MB }, (_, i) => "0123456789abcdef"[(i * 7919) % 16]).join(""),
  "one long word": fill("a"),
  "dotted run": fill("a."),
  "slashed run": fill("a/"),
  "dashes and dots": fill("a.-"),
  "path segments without an end": fill("ab/cd."),
  "spaces": fill(" "),
  "a tag opener before a megabyte of spaces": `<${fill(" ")}`,
  "tag openers": fill("< /"),
  "combining marks": fill("a\u0301\u0302"),
  "lone surrogates": fill("\ud800"),
  "digits": fill("1"),
  "digits in card-like groups": fill("4111 "),
  "a URL that never ends": `http://${fill("a")}`,
  "at signs": fill("a@"),
  "colons": fill("a:"),
  "key-like runs": fill("sk-"),
  "password settings": fill("password="),
  "base64": fill("QUJD"),
  "mixed identifier characters": fill("x1-y2_z3.w4/#$"),
};

/** The faster of two runs: the other test files run beside this one, and a pause of theirs is not this path's time. */
function perMegabyte(run: () => unknown): number {
  let fastest = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 2; attempt++) {
    const started = performance.now();
    run();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}

const call = (text: string) => ({ role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "run", arguments: JSON.stringify({ input: text }) } }] });
const result = (text: string) => ({ role: "tool", tool_call_id: "c1", content: text });
const transcript = (text: string) => [{ role: "user", content: text }, call(text.slice(0, MB / 4)), result(text.slice(0, MB / 4))];

const paths: Record<string, (text: string) => unknown> = {
  extractiveSummary: (text) => extractiveSummary(transcript(text), { maxTokens: 4_000 }),
  renderTranscript: (text) => renderTranscript(transcript(text)),
  buildSummaryPrompt: (text) => buildSummaryPrompt(transcript(text), { previousSummary: text.slice(0, MB / 4), instructions: text.slice(0, MB / 4) }),
  // With usage reported, each message also counts no less than its word pieces.
  "the word-pieces floor": (text) =>
    planCompaction([{ role: "user", content: "a" }, { role: "assistant", content: "b" }, { role: "user", content: text }], { maxTokens: 100, usage: { inputTokens: 10, messageCount: 2 } }),
};

describe.each(Object.entries(paths))("%s is linear", (_, path) => {
  it.each(Object.keys(adversarial))("%s", (name) => {
    const text = adversarial[name]!;
    expect(perMegabyte(() => path(text))).toBeLessThan(1_000);
  });
});

describe("truncation is linear", () => {
  it.each(Object.keys(adversarial))("%s", async (name) => {
    const text = adversarial[name]!;
    // The latest turn's tool result alone is over the window: only cutting it makes the request fit.
    const messages = [{ role: "user", content: "old ".repeat(100) }, { role: "assistant", content: "ok" }, { role: "user", content: "go" }, call("x"), result(text)];
    let fastest = Number.POSITIVE_INFINITY;
    for (let attempt = 0; attempt < 2; attempt++) {
      const started = performance.now();
      const output = await compact(messages, { maxTokens: 2_000, summarize: () => "s", usage: { inputTokens: 20, messageCount: 3 } });
      fastest = Math.min(fastest, performance.now() - started);
      expect(output).not.toBeNull();
    }
    expect(fastest).toBeLessThan(1_000);
  });
});

describe("the CLI is linear", () => {
  const cli = new URL("../dist/cli.js", import.meta.url).pathname;
  const dir = mkdtempSync(join(tmpdir(), "linear-cli-"));
  // The process's own start, measured on an empty transcript, is not the CLI's reading.
  const empty = join(dir, "empty.json");
  writeFileSync(empty, "[]");
  const startup = () => {
    const started = performance.now();
    spawnSync(process.execPath, [cli, "inspect", empty, "--max-tokens", "100"]);
    return performance.now() - started;
  };

  it.each(Object.keys(adversarial))("%s", (name) => {
    const file = join(dir, `${name.replace(/\W+/g, "-")}.json`);
    const json = JSON.stringify([{ role: "user", content: adversarial[name] }, result(adversarial[name]!.slice(0, MB / 4))]);
    writeFileSync(file, json);
    const base = startup();
    const started = performance.now();
    const { status } = spawnSync(process.execPath, [cli, "inspect", file, "--max-tokens", "1000"], { encoding: "utf8" });
    expect(status).toBe(1);
    // The file is larger than the text where JSON escapes it (a lone surrogate takes six bytes).
    expect(performance.now() - started - base).toBeLessThan(1_000 * Math.max(1, json.length / MB));
  });
});
