// Real agent runs (tau-bench, tau2-bench, moatless-tools, SWE-agent) in every dialect.
import { isSummaryMessage } from "../src/dialects/messages.js";
import { describe, expect, it } from "vitest";
import { compactor, estimateTokens } from "../src/index.js";
import { detectDialect, findToolPairProblems, maskToolResults } from "../src/expert.js";
import { convert } from "./support/convert.js";
import { loadFixtures } from "./support/fixtures.js";
import { deepFreeze, jsonDialects as dialects, hasSystemMessages, summaryRoleFor } from "./support/transcripts.js";

const fixtures = loadFixtures();

describe.each(dialects)("real transcripts as %s", (dialect) => {
  it.each(fixtures.map((f) => [f.file, f] as const))("%s compacts safely at several budgets", async (_, fixture) => {
    const messages = deepFreeze(convert(fixture.messages as never, dialect));
    expect(detectDialect(messages)).toBe(dialect);
    expect(findToolPairProblems(messages)).toEqual([]);
    const total = estimateTokens(messages);
    for (const share of [0.2, 0.5, 0.8]) {
      for (const options of [{}, { ladder: { maskToolResults: true } }, { ladder: { splitInsideTurn: true } }]) {
        const maxTokens = Math.max(1, Math.floor(total * share));
        const result = await compactor({
          maxTokens,
          summarize: () => "summary",
          summary: { role: summaryRoleFor(dialect) },
          onError: "skip",
          ...options,
        })({ messages });
        if (result === null) continue;
        expect(findToolPairProblems(result.messages)).toEqual([]);
        if (hasSystemMessages(dialect)) expect(result.messages[0]).toBe(messages[0]);
        expect(result.messages.some(isSummaryMessage) || options.ladder?.maskToolResults).toBeTruthy();
      }
    }
  });
});

describe("masking on the moatless coding runs", () => {
  it("saves most of the tokens without a model", () => {
    const moatless = fixtures.filter((f) => f.source === "moatless");
    let before = 0;
    let after = 0;
    for (const { messages } of moatless) {
      before += estimateTokens(messages);
      after += estimateTokens(maskToolResults(messages, { keepRecent: 3 }).messages);
    }
    // The shipped runs hold tool outputs of up to 200k characters; masking removes the old ones.
    expect(after / before).toBeLessThan(0.6);
  });

  it("splitInsideTurn keeps the request and the newest groups of a long coding turn", async () => {
    const run = fixtures.find((f) => f.file.includes("django__django-12284"))!;
    const messages = deepFreeze(run.messages);
    const userTurns = messages.filter((m) => m["role"] === "user").length;
    expect(userTurns).toBe(1);
    const keepTail = 8000;
    const result = await compactor({
      maxTokens: 16_000,
      keepTail,
      summarize: () => "summary",
      ladder: { splitInsideTurn: true },
    })({ messages });
    const output = result!.messages;
    const tail = output.slice(output.findIndex(isSummaryMessage) + 1);
    expect(tail[0]!["role"]).toBe("user");
    expect(tail.at(-1)).toBe(messages.at(-1));
    expect(findToolPairProblems(output)).toEqual([]);
    expect(estimateTokens(tail)).toBeLessThanOrEqual(keepTail);
  });
});
