// Every request the library hands back, checked against what the providers accept (the checkers
// in ./support/provider-rules quote the providers' documentation and error texts beside each rule).
// The real transcripts are replayed turn by turn in every format, with signed reasoning, thought
// signatures, screenshots in tool results and parallel calls, at budgets that reach every rung of
// the ladder, through the hook, statefulCompactor and the model-free fallback.
import { afterAll, describe, expect, it } from "vitest";
import {
  extractiveSummary,
  compactor,
  estimateTokens,
  statefulCompactor,
  type CompactorOptions,
} from "../src/index.js";
import { convert } from "./support/convert.js";
import { enrich } from "./support/enrich.js";
import { loadFixtures } from "./support/fixtures.js";
import { providerRequest, requestViolations } from "./support/provider-request.js";
import type { Violation } from "./support/provider-rules/index.js";
import { dialects, type DialectName } from "./support/transcripts.js";

type Message = Record<string, unknown>;

const fixtures = loadFixtures();
const shares = [0.4, 0.25, 0.1];
const ladders: { name: string; options: Partial<CompactorOptions> }[] = [
  { name: "defaults", options: {} },
  { name: "masking first", options: { ladder: { maskToolResults: true } } },
  {
    name: "model-free fallback",
    options: {
      onError: "fallback",
      fallback: extractiveSummary,
      summarize: () => Promise.reject(new Error("model down")),
    },
  },
];

/** True for what the model wrote: a request is sent right before each run of these. */
function isModelOutput(m: Message): boolean {
  if (m["role"] === "assistant" || m["role"] === "model") return true;
  if (typeof m["_getType"] === "function") return (m["_getType"] as () => string)() === "ai";
  return m["type"] === "function_call" || m["type"] === "reasoning" || m["type"] === "ai";
}

/** The provider settings the enriched transcripts need: Anthropic with thinking on, Gemini 3 (which checks signatures). */
const settingsFor = (dialect: DialectName) =>
  dialect === "anthropic"
    ? { thinking: true }
    : dialect === "google-genai" || dialect === "genkit"
      ? { gemini3: true }
      : {};

const checked = new Map<DialectName, { requests: number; compacted: number; violations: number }>();
const examples: string[] = [];

function check(dialect: DialectName, request: readonly object[], compacted: boolean, where: string): Violation[] {
  const violations = requestViolations(dialect, request, settingsFor(dialect));
  const row = checked.get(dialect) ?? { requests: 0, compacted: 0, violations: 0 };
  row.requests++;
  if (compacted) row.compacted++;
  row.violations += violations.length;
  checked.set(dialect, row);
  if (violations.length > 0 && examples.length < 10)
    examples.push(`${dialect} ${where}: ${violations.map((v) => `[${v.rule}] ${v.detail}`).join("; ")}`);
  return violations;
}

afterAll(() => {
  const rows = [...checked].map(
    ([dialect, row]) =>
      `${dialect.padEnd(18)} ${String(row.requests).padStart(6)} requests, ${String(row.compacted).padStart(5)} compacted, ${row.violations} violations`,
  );
  console.log(
    `Provider checks over the real transcripts:\n${rows.join("\n")}${examples.length > 0 ? `\nfirst violations:\n${examples.join("\n")}` : ""}`,
  );
});

// pi's messages reach a provider through pi-ai's own conversion, and the AI SDK's through its
// provider packages (test/integration/ai-sdk-providers.test.ts): no direct checker reads them.
// LangChain's messages are checked by the property tests (the real-transcript converter writes none).
const checkedDialects = dialects.filter(
  (dialect) => dialect !== "langchain" && providerRequest(dialect, []) !== undefined,
);

describe.each(checkedDialects)("every request in %s passes the provider's checks", (dialect) => {
  it.each(fixtures.map((fixture) => [fixture.file, fixture] as const))(
    "%s, replayed turn by turn",
    async (_file, fixture) => {
      const transcript = enrich(convert(fixture.messages as never, dialect), dialect);
      // The input itself is a request the provider accepts: any violation below is the library's.
      expect(check(dialect, transcript, false, "input")).toEqual([]);
      const starts = transcript
        .map((m, i) => (isModelOutput(m) && (i === 0 || !isModelOutput(transcript[i - 1]!)) ? i : -1))
        .filter((i) => i > 0);
      // Budgets are shares of the transcript as billed (a screenshot counts as an image, not its base64).
      const total = estimateTokens(transcript);
      let problems = 0;
      for (const share of shares) {
        for (const ladder of ladders) {
          const maxTokens = Math.max(200, Math.floor(total * share));
          const hook = compactor({
            maxTokens,
            summarize: () => "The user asked for help; the agent looked things up.",
            format: dialect,
            ...ladder.options,
          } as CompactorOptions);
          // An agent loop: the request is what the hook returns, and a compacted transcript goes on from there.
          let sent: object[] = [];
          let taken = 0;
          for (const start of starts) {
            sent = sent.concat(transcript.slice(taken, start));
            taken = start;
            const result = await hook({ messages: sent });
            if (result) sent = result.messages;
            problems += check(dialect, sent, result !== null, `${ladder.name} at ${share}`).length;
          }
          // A chat route: the whole history each time, the compaction kept in a store (at one budget: the
          // requests are those of the loop above, assembled from stored state instead).
          if (share !== 0.25) continue;
          const stateful = statefulCompactor({
            maxTokens,
            summarize: () => "The user asked for help; the agent looked things up.",
            format: dialect,
            ...ladder.options,
          } as CompactorOptions);
          for (const start of starts) {
            const history = transcript.slice(0, start);
            const result = await stateful(history, { conversationId: `${fixture.file}/${share}/${ladder.name}` });
            const request =
              result === null ? history : Array.isArray(result) ? result : (result as { messages: object[] }).messages;
            problems += check(dialect, request, result !== null, `stateful ${ladder.name} at ${share}`).length;
          }
        }
      }
      expect(problems).toBe(0);
    },
  );
});
