// The built `context-compactor` command, run as a user would (npm test builds before it tests).
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { countTokens as o200k } from "gpt-tokenizer/encoding/o200k_base";
import { dialectFixtures } from "./support/dialect-fixtures.js";
import { builders } from "./support/builders.js";
import { csvSamples } from "../bench/content-samples.mjs";

const cli = new URL("../dist/cli.js", import.meta.url).pathname;
const transcript = new URL("./fixtures/transcripts/tau2/gpt41_airline_task18_trial0.json", import.meta.url).pathname;
const run = (args: string[], input?: string) => {
  const result = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", input });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
};
const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at /);

describe("context-compactor inspect in every dialect", () => {
  it.each(dialectFixtures)("names $name and finds its broken pairs", (fixture) => {
    const dir = mkdtempSync(join(tmpdir(), "inspect-"));
    const whole = join(dir, "whole.json");
    const broken = join(dir, "broken.json");
    // A file holds plain JSON: LangChain messages in their plain form, `{ type, content, … }`.
    const plain = (messages: Record<string, unknown>[]) =>
      messages.map((m) => (m["lc_kwargs"] ? { type: m["type"], ...(m["lc_kwargs"] as object) } : m));
    writeFileSync(
      whole,
      JSON.stringify(plain([fixture.user, ...fixture.toolRound, { ...fixture.user }, ...fixture.parallel])),
    );
    writeFileSync(broken, JSON.stringify(plain([fixture.user, fixture.resultOnly])));
    const ok = run(["inspect", whole, "--max-tokens", "10", "--json"]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({
      dialect: fixture.name,
      toolPairProblems: [],
      plan: { action: "summarize" },
    });
    const bad = run(["inspect", broken, "--max-tokens", "1000"]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain(`${fixture.name}, 2 messages`);
    expect(bad.stdout).toContain("orphan-result");
  });
});

describe("context-compactor inspect", () => {
  it("prints counts, tool pairs and the plan with a bar", () => {
    const { code, stdout } = run(["inspect", transcript, "--max-tokens", "4000"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/openai-chat, 43 messages, \d+ tokens/);
    expect(stdout).toContain("tool pairs: ok");
    expect(stdout).toContain("plan: summarize (over-budget)");
    expect(stdout).toMatch(/head +1 message/);
    expect(stdout).toMatch(/\[#+·+=+\]/);
  });

  it("prints the same as JSON", () => {
    const { code, stdout } = run(["inspect", transcript, "--max-tokens", "4000", "--keep-tail", "1000", "--json"]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({
      dialect: "openai-chat",
      messages: 43,
      toolPairProblems: [],
      budget: { maxTokens: 4000, keepTail: 1000 },
      plan: { action: "summarize", reason: "over-budget" },
    });
    const { head, older, tail } = report.plan;
    expect(head.messages + older.messages + tail.messages).toBe(43);
    expect(head.tokens + older.tokens + tail.tokens).toBe(report.tokens);
    expect(tail.tokens).toBeLessThanOrEqual(1000);
  });

  it("shows what a forced compaction would do under budget", () => {
    const { code, stdout } = run(["inspect", transcript, "--max-tokens", "1000000", "--json"]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      plan: { action: "none", reason: "under-budget" },
      ifForced: { head: { messages: 1 } },
    });
  });

  it("reads standard input with -", () => {
    const { code, stdout } = run(["inspect", "-", "--max-tokens", "4000", "--json"], readFileSync(transcript, "utf8"));
    expect(code).toBe(0);
    expect(JSON.parse(stdout).file).toBe("<stdin>");
  });

  it("--format names the format; a message that does not read as it, or no format holds, is an invalid file", () => {
    const plain = JSON.stringify([
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
    ]);
    expect(JSON.parse(run(["inspect", "-", "--json"], plain).stdout).dialect).toBe("openai-chat");
    expect(JSON.parse(run(["inspect", "-", "--json", "--format", "anthropic"], plain).stdout).dialect).toBe(
      "anthropic",
    );
    const mixed = run(
      ["inspect", "-", "--format", "anthropic"],
      JSON.stringify([
        { role: "user", content: "hi" },
        { role: "tool", tool_call_id: "t", content: "x" },
      ]),
    );
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toContain("messages[1]");
    const unknown = run(["inspect", "-"], JSON.stringify([{ speaker: "me", text: "hi" }]));
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("messages[0]");
    noStack(unknown.stderr);
    const typo = run(["inspect", "-", "--format", "antropic"], plain);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('Did you mean "anthropic"?');
  });

  it("exits 1 on a broken tool pair and names it", () => {
    const messages = JSON.parse(readFileSync(transcript, "utf8")) as { tool_calls?: unknown[] }[];
    const withCall = messages.findIndex((m) => m.tool_calls);
    messages.splice(withCall, 1);
    const { code, stdout } = run(["inspect", "-", "--max-tokens", "4000"], JSON.stringify(messages));
    expect(code).toBe(1);
    expect(stdout).toContain("orphan");
    expect(stdout).toMatch(/message \d+: orphan result/);
  });

  it("exits 1 with one line on a missing, unreadable or invalid file", () => {
    const dir = mkdtempSync(join(tmpdir(), "cc-cli-"));
    writeFileSync(join(dir, "bad.json"), "{ not json");
    writeFileSync(join(dir, "null.json"), '[{"role":"user"}, null]');
    writeFileSync(join(dir, "object.json"), '{"hello": 1}');
    for (const [file, message] of [
      [join(dir, "missing.json"), "cannot read"],
      [join(dir, "bad.json"), "is not valid JSON"],
      [join(dir, "null.json"), "Expected `messages[1]` to be a message object"],
      [join(dir, "object.json"), "Expected a JSON array of messages"],
      [dir, "is a directory"],
    ] as const) {
      const { code, stderr } = run(["inspect", file, "--max-tokens", "10"]);
      expect(code).toBe(1);
      expect(stderr).toContain(message);
      expect(stderr.trim().split("\n")).toHaveLength(1);
      noStack(stderr);
    }
  });

  it("exits 2 on bad arguments", () => {
    // Without --max-tokens the command reports counts and pairs (tested above); a budget of zero, a word or a bogus flag is a usage error.
    for (const args of [
      [],
      ["inspect"],
      ["inspect", transcript, "--keep-tail", "5"],
      ["inspect", transcript, "--max-tokens", "0"],
      ["inspect", transcript, "--max-tokens", "ten"],
      ["inspect", transcript, "--max-tokens", "10", "--keep-tail", "10"],
      ["frobnicate", transcript],
      ["inspect", transcript, "--max-tokens", "10", "--bogus"],
    ]) {
      const { code, stderr } = run(args);
      expect(code, args.join(" ")).toBe(2);
      expect(stderr.trim().split("\n")).toHaveLength(1);
      noStack(stderr);
    }
  });

  it("prints help and version", () => {
    expect(run(["--help"]).stdout).toContain("Usage: context-compactor inspect");
    const version = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version;
    expect(run(["--version"]).stdout.trim()).toBe(version);
  });
});

describe("context-compactor inspect without a budget, and mistyped flags", () => {
  it("reports counts and tool pairs without --max-tokens", () => {
    const { code, stdout } = run(["inspect", transcript]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/openai-chat, \d+ messages, \d+ tokens/);
    expect(stdout).toContain("tool pairs: ok");
    expect(stdout).toContain("give --max-tokens N");
    const json = JSON.parse(run(["inspect", transcript, "--json"]).stdout);
    expect(json.plan).toBeUndefined();
    expect(json.toolPairProblems).toEqual([]);
  });

  it.each([
    ["--max-token", "--max-tokens"],
    ["--jsn", "--json"],
    ["--keeptail", "--keep-tail"],
  ])("%s gets a suggestion", (typo, meant) => {
    const { code, stderr } = run(["inspect", transcript, typo]);
    expect(code).toBe(2);
    expect(stderr).toContain(`Did you mean "${meant}"?`);
    noStack(stderr);
  });
});

describe("context-compactor inspect: room, plan options and --html", () => {
  it("says when the head leaves the tail less than keepTail", () => {
    const { code, stdout } = run([
      "inspect",
      new URL("./fixtures/transcripts/tau1/gpt-4o-airline_task003_trial0.json", import.meta.url).pathname,
      "--max-tokens",
      "3000",
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain(
      "room: the head (system prompt) takes 1566 of the 3000-token budget (52%), and the summary up to 750: the tail may take 684 tokens, less than keepTail (1500)",
    );
  });

  it("plans with masking when asked, as the hook would", () => {
    const coding = new URL("./fixtures/transcripts/moatless/django__django-12284.json", import.meta.url).pathname;
    const plain = JSON.parse(run(["inspect", coding, "--max-tokens", "20000", "--json"]).stdout);
    const masked = JSON.parse(run(["inspect", coding, "--max-tokens", "20000", "--mask", "--json"]).stdout);
    expect(plain.plan.action).toBe("summarize");
    expect(masked.plan.action).toBe("mask");
  });

  it("writes one self-contained page, and refuses plan flags without a budget", () => {
    const dir = mkdtempSync(join(tmpdir(), "inspect-html-"));
    const page = join(dir, "report.html");
    const { code, stdout } = run(["inspect", transcript, "--max-tokens", "4000", "--html", page]);
    expect(code).toBe(0);
    expect(stdout).toContain(`html: wrote ${page}`);
    const html = readFileSync(page, "utf8");
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/\b(src|href)=["']?(https?:)?\/\//);
    expect(run(["inspect", transcript, "--mask"])).toMatchObject({
      code: 2,
      stderr: "context-compactor: --mask needs --max-tokens (see --help)\n",
    });
    expect(run(["inspect", transcript, "--htm", page]).stderr).toContain('Did you mean "--html"?');
    const unwritable = run(["inspect", transcript, "--html", join(dir, "missing", "report.html")]);
    expect(unwritable.code).toBe(1);
    expect(unwritable.stderr).toContain("cannot write");
  });
});

describe("context-compactor inspect names the content that makes the estimate low", () => {
  // What a chat API bills, with o200k standing in for the provider's tokenizer: each message's text
  // plus 4 tokens (OpenAI's cookbook, "How to count tokens with tiktoken": `tokens_per_message = 3`,
  // and the role's value is encoded too, one token).
  const billed = (messages: { content?: unknown }[]) =>
    messages.reduce((sum, m) => sum + 4 + (typeof m.content === "string" ? o200k(m.content) : 0), 0);
  const { system, user, assistant, toolCall, toolResult } = builders["openai-chat"];

  it("says which class, how much of the transcript it is, and what to do, when o200k counts a tenth more", () => {
    const messages: { role: string; content?: unknown }[] = [system("You are a data analyst.")];
    csvSamples(6).forEach((csv, i) =>
      messages.push(
        user(`Show the metrics of host ${i}.`),
        toolCall(`c${i}`, "query", { host: i }),
        toolResult(`c${i}`, csv),
        assistant("Latency peaks at noon; errors stay low."),
      ),
    );
    const file = join(mkdtempSync(join(tmpdir(), "inspect-dense-")), "metrics.json");
    writeFileSync(file, JSON.stringify(messages));
    const report = JSON.parse(run(["inspect", file, "--json"]).stdout);
    // The outside count first: the estimate is indeed low here.
    expect(billed(messages)).toBeGreaterThan(report.tokens * 1.5);
    expect(report.estimate.unsafe).toMatchObject({ contentClass: "digits" });
    expect(report.estimate.likelyTokens / billed(messages)).toBeGreaterThan(0.85);
    expect(report.estimate.likelyTokens / billed(messages)).toBeLessThan(1.15);
    const { stdout } = run(["inspect", file]);
    expect(stdout).toMatch(
      /estimate may be low: \d+% of tokens are digit-dense text \(CSV, timestamps, numbers\) in tool output, which o200k counts at about 2\.5× the estimate \(likely [\d,]+ tokens, not [\d,]+\); pass usage or an exact counter/,
    );
  });

  it("says nothing where o200k counts about what the estimate says", () => {
    const messages = JSON.parse(readFileSync(transcript, "utf8"));
    const report = JSON.parse(run(["inspect", transcript, "--json"]).stdout);
    expect(billed(messages)).toBeLessThan(report.tokens * 1.1);
    expect(report.estimate.unsafe).toBeUndefined();
    expect(report.estimate.content.map((share: { contentClass: string }) => share.contentClass)).toContain("json");
    expect(run(["inspect", transcript]).stdout).not.toContain("estimate may be low");
  });
});
