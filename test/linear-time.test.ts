// Every exported path that reads untrusted text, and the CLI's report, goes through each of twenty
// crafted inputs of 1 MB: a pattern that backtracks takes minutes on at least one of them (a linear
// pass about 100 ms), so it fails here by the test's timeout. How long each path takes per megabyte,
// as a ratio between two sizes, is measured by `npm run bench` (bench/linear-time.mjs), not asserted.
import { describe, expect, it, vi } from "vitest";
import * as root from "../src/index.js";
import * as expert from "../src/expert.js";
import * as summaryKit from "../src/summary-kit.js";
import { adversarialTexts, untrustedTextPaths } from "./support/adversarial-text.mjs";
import { parallelToolTurn } from "./support/parallel-tool-turn.mjs";
import { sectionsOf } from "../src/text/summary-sections.js";
import { withoutArchiveLine } from "../src/archive/archive-line.js";
import { verdictsOf } from "../src/dialects/provider-verdict.js";
import { inspectTranscript, transcriptFrom } from "../src/cli/inspect.js";
import { formatReport } from "../src/cli/format-report.js";

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

// What `context-compactor inspect` runs on a transcript it read, in this process (test/cli.test.ts
// runs the built command itself): a process each, the same work took a second more per input.
describe("the CLI's report reads each crafted input", () => {
  it.each(Object.keys(adversarial))("%s", (name) => {
    const messages = transcriptFrom(
      JSON.parse(
        JSON.stringify([
          { role: "user", content: adversarial[name] },
          { role: "tool", tool_call_id: "c1", content: adversarial[name]!.slice(0, MB / 4) },
        ]),
      ),
    );
    const report = formatReport(inspectTranscript("crafted.json", messages, { maxTokens: 1000 }));
    // The result without its call is reported as a broken pair.
    expect(report).toContain("orphan-result");
  });
});

// Work counted, not timed: each of these was quadratic in its input.
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

  it("cutting the results of a turn of parallel tool calls asks the segmenter next to nothing for ASCII output", async () => {
    const count = 2_000;
    const messages = parallelToolTurn(count);
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
