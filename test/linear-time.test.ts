// Every exported path that reads untrusted text, and the CLI, goes through each of twenty crafted
// inputs of 1 MB: a pattern that backtracks takes minutes on at least one of them (a linear pass
// about 100 ms), so it fails here by the test's timeout. How long each path takes per megabyte, as
// a ratio between two sizes, is measured by `npm run bench` (bench/linear-time.mjs), not asserted.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import * as root from "../src/index.js";
import * as expert from "../src/expert.js";
import * as summaryKit from "../src/summary-kit.js";
import { adversarialTexts, untrustedTextPaths } from "./support/adversarial-text.mjs";
import { sectionsOf } from "../src/text/summary-sections.js";
import { withoutArchiveLine } from "../src/archive/archive-line.js";
import { verdictsOf } from "../src/dialects/provider-verdict.js";
import * as renderTranscript from "../src/summary-kit/render-transcript.js";

const MB = 1 << 20;
const adversarial = adversarialTexts(MB);
const library = { ...root, ...expert, ...summaryKit };
const { truncation, recall, ...paths } = untrustedTextPaths(library);

describe.each(Object.entries(paths))("%s reads each crafted input", (_, path) => {
  it.each(Object.keys(adversarial))("%s", (name) => {
    expect(path(adversarial[name]!)).toBeDefined();
  });
});

// The next compaction reads an earlier summary's sections (and its archive line) back.
describe("the summary's sections are read from each crafted input", () => {
  it.each(Object.keys(adversarial))("%s", (name) => {
    const text = adversarial[name]!;
    expect(
      sectionsOf(
        withoutArchiveLine(`${text}\n\n[Summary part: 2 compactions, depth 2]\n${text}`, {
          last: 2,
          toolName: "recall_context",
        }),
      ).length,
    ).toBeGreaterThanOrEqual(2);
  });
});

describe("truncation reads each crafted input", () => {
  it.each(Object.keys(adversarial))("%s", async (name) => {
    expect(await truncation!(adversarial[name]!)).not.toBeNull();
  });
});

describe("recall reads each crafted input, archived and as its query", () => {
  it.each(Object.keys(adversarial))("%s", async (name) => {
    const answers = (await recall!(adversarial[name]!)) as string[];
    expect(answers).toHaveLength(3);
    for (const answer of answers) expect(answer).not.toBe("Nothing of this conversation is archived.");
    // Each answer within the default bound of 2,000 tokens.
    for (const answer of answers) expect(Math.ceil(Buffer.byteLength(answer) / 4)).toBeLessThanOrEqual(2_000);
  });
});

describe("the CLI reads each crafted input", () => {
  const cli = new URL("../dist/cli.js", import.meta.url).pathname;
  const dir = mkdtempSync(join(tmpdir(), "linear-cli-"));

  it.each(Object.keys(adversarial))("%s", (name) => {
    const file = join(dir, `${name.replace(/\W+/g, "-")}.json`);
    writeFileSync(
      file,
      JSON.stringify([
        { role: "user", content: adversarial[name] },
        { role: "tool", tool_call_id: "c1", content: adversarial[name]!.slice(0, MB / 4) },
      ]),
    );
    const { status, stdout } = spawnSync(process.execPath, [cli, "inspect", file, "--max-tokens", "1000"], {
      encoding: "utf8",
    });
    // The result without its call is reported as a broken pair.
    expect(status).toBe(1);
    expect(stdout).toContain("orphan-result");
  });
});

// Work counted, not timed: each of these was quadratic, or read the whole of its input again per call.
describe("work that grew faster than its input", () => {
  /** `count` reasoning items, each wrapped so that every read of its `id` is counted. */
  const removedItems = (count: number) => {
    const reads = { id: 0 };
    const sent = Array.from({ length: count }, (_, index) => {
      const item = { type: "reasoning", id: `rs_${index}`, summary: [] };
      return new Proxy(item, { get: (target, key) => (key === "id" && reads.id++, Reflect.get(target, key)) });
    });
    const response = {
      input_transformations: sent.map((_, index) => ({
        type: "reasoning",
        action: "removed",
        id: `rs_${index}`,
        reason: "model_mismatch",
      })),
    };
    return { sent, response, reads };
  };

  it("mapping a Responses input_transformations list reads each item's id once", () => {
    for (const count of [1_000, 4_000]) {
      const { sent, response, reads } = removedItems(count);
      const verdicts = verdictsOf(response, sent);
      expect(verdicts).toHaveLength(count);
      expect(
        verdicts.every((verdict, index) => verdict.kind === "reasoning-removed" && verdict.message === sent[index]),
      ).toBe(true);
      // Was 500,500 reads for 1,000 items and 8,002,000 for 4,000.
      expect(reads.id).toBeLessThanOrEqual(count);
    }
  });

  it("a second recall of an archive that did not change renders and redacts none of it again", async () => {
    const history: object[] = [{ role: "system", content: "s" }];
    for (let index = 0; index < 300; index++)
      history.push(
        { role: "user", content: `Where is ORD-${index}? ${"words ".repeat(40)}` },
        { role: "assistant", content: `ORD-${index} shipped.` },
      );
    history.push({ role: "user", content: "go on" });
    const stateful = root.statefulCompactor({
      maxTokens: 2_000,
      keepTail: 100,
      summarize: () => "s",
      archive: true,
      conversationId: "twice",
    });
    await stateful(history);
    const render = vi.spyOn(renderTranscript, "renderEach");
    expect(await stateful.recall("ORD-12")).toContain("ORD-12");
    expect(render).toHaveBeenCalledTimes(1);
    expect(await stateful.recall("ORD-250")).toContain("ORD-250");
    expect(await stateful.recall("1-40")).toContain("[message");
    expect(render).toHaveBeenCalledTimes(1);
    render.mockRestore();
  });

  it("cutting the results of a turn of parallel tool calls asks the segmenter next to nothing for ASCII output", async () => {
    const count = 2_000;
    const ids = Array.from({ length: count }, (_, index) => `call_${index}`);
    const calls = {
      role: "assistant",
      content: null,
      tool_calls: ids.map((id) => ({ id, type: "function", function: { name: "read", arguments: "{}" } })),
    };
    const results = ids.map((id, index) => ({
      role: "tool",
      tool_call_id: id,
      content: `export const v${index} = ${index}; // ${"lorem ipsum dolor sit amet ".repeat(16)}`,
    }));
    const messages = [
      { role: "system", content: "s" },
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
      { role: "user", content: "read every file" },
      calls,
      ...results,
    ];
    const segment = vi.spyOn(Intl.Segmenter.prototype, "segment");
    const output = await root.compact(messages, {
      maxTokens: count * 60,
      summary: { maxTokens: 1_000 },
      summarize: () => "s",
    });
    expect(output).not.toBeNull();
    // Was called for every cut of every result: 19,990 segmentations here, about a million at 100,000 calls.
    expect(JSON.stringify(output)).toContain("cut to fit the context window");
    expect(segment.mock.calls.length).toBeLessThanOrEqual(10);
    segment.mockRestore();
  });
});
