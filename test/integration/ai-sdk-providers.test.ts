// What the AI SDK adapter hands back, sent through the AI SDK's real provider packages
// (@ai-sdk/anthropic, @ai-sdk/openai chat and Responses, @ai-sdk/google, @ai-sdk/amazon-bedrock)
// with a fetch that records each HTTP body, and every body checked against the provider's rules.
// The real transcripts are replayed step by step in the AI SDK's format, with signed reasoning and
// screenshots in tool results, at budgets that reach every rung.
import type { ModelMessage } from "ai";
import { afterAll, describe, expect, it } from "vitest";
import { toPrepareStep } from "../../src/adapters/ai-sdk.js";
import { estimateTokens } from "../../src/index.js";
import { convert } from "../support/convert.js";
import { enrich } from "../support/enrich.js";
import { loadFixtures } from "../support/fixtures.js";
import { aiSdkWireViolations, WIRE_FORMATS } from "../support/provider-rules/ai-sdk-wire.js";

const fixtures = loadFixtures();
// The packages' warnings (a reasoning part another provider signed is skipped by OpenAI's) are expected here.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
const system = "You are a careful support agent.";
const counts = new Map<string, { bodies: number; violations: number }>();
const examples: string[] = [];

afterAll(() => {
  const rows = WIRE_FORMATS.map(
    (format) =>
      `${format.padEnd(18)} ${counts.get(format)?.bodies ?? 0} request bodies, ${counts.get(format)?.violations ?? 0} violations`,
  );
  console.log(
    `AI SDK adapter output through the real provider packages:\n${rows.join("\n")}${examples.length ? `\nfirst violations:\n${examples.join("\n")}` : ""}`,
  );
});

describe("the AI SDK adapter's requests, as the real provider packages send them", () => {
  it.each(fixtures.map((fixture) => [fixture.file, fixture] as const))("%s", async (_file, fixture) => {
    // The system prompt travels as `system`, as the recipe passes it, not in the messages.
    // Bedrock refuses a conversation that opens with the assistant, as some of these runs do.
    const converted = enrich(convert(fixture.messages as never, "ai-sdk"), "ai-sdk").filter(
      (m) => m["role"] !== "system",
    );
    const transcript = (converted[0]?.["role"] === "assistant"
      ? [{ role: "user", content: "Hello." }, ...converted]
      : converted) as unknown as ModelMessage[];
    const steps = transcript
      .map((m, i) => (m.role === "assistant" && i > 0 && transcript[i - 1]!.role !== "assistant" ? i : -1))
      .filter((i) => i > 0);
    const total = estimateTokens(transcript);
    // The whole transcript is a request every provider accepts: any violation below is the adapter's.
    const input = await aiSdkWireViolations(transcript, { system });
    expect(Object.values(input).flat()).toEqual([]);
    let violations = 0;
    for (const share of [0.4, 0.1]) {
      // As the recipe sets it up: the system prompt travels as `system`, reserved beside the messages.
      const prepareStep = toPrepareStep({
        maxTokens: Math.max(300, Math.floor(total * share)),
        reserveTokens: 20,
        summarize: () => "The user asked for help; the agent looked things up.",
      });
      for (const [n, step] of steps.entries()) {
        const history = transcript.slice(0, step);
        const result = (await prepareStep({ messages: history, stepNumber: n, steps: [] } as never)) as {
          messages?: ModelMessage[];
        };
        if (result.messages === undefined) continue;
        const found = await aiSdkWireViolations(result.messages, { system });
        for (const format of WIRE_FORMATS) {
          const row = counts.get(format) ?? { bodies: 0, violations: 0 };
          row.bodies++;
          row.violations += found[format].length;
          counts.set(format, row);
          violations += found[format].length;
          if (found[format].length > 0 && examples.length < 8 && !examples.some((e) => e.startsWith(format)))
            examples.push(
              `${format} ${fixture.file} step ${n}: ${found[format].map((v) => `[${v.rule}] ${v.detail}`).join("; ")}`,
            );
        }
      }
    }
    expect(violations).toBe(0);
  });
});
