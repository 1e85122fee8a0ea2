// `run()` from the real `@openai/agents`, with `toCallModelInputFilter` given the run's
// `RunContext`, against a stub Responses API that reports each request's input tokens.
import { Agent, RunContext, run, setDefaultOpenAIClient, setOpenAIAPI, setTracingDisabled, tool } from "@openai/agents";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { toCallModelInputFilter } from "../../src/adapters/openai-agents.js";
import type { CompactedEvent } from "../../src/index.js";
import { startStubModel } from "../../examples/stub-model.mjs";
import { responsesReply } from "../support/builders.js";

const instructions = "You keep records. Use lookup for every record.";
// A provider whose tokenizer counts this run's dense tool output at twice its bytes / 4, as o200k
// counts digits and ids (docs/counting.md): what it reports is the only way to know.
describe("@openai/agents run with toCallModelInputFilter and the run's usage", () => {
  const maxTokens = 6_000;
  const provider = (body: { input: unknown; instructions?: string }) =>
    2 * Math.ceil(Buffer.byteLength(JSON.stringify(body.input) + (body.instructions ?? "")) / 4);
  let stub: Awaited<ReturnType<typeof startStubModel>>;
  let turn = 0;
  beforeAll(async () => {
    stub = await startStubModel(({ body }) => {
      turn++;
      const reply = responsesReply([
        {
          type: "function_call",
          id: `fc_${turn}`,
          call_id: `call_${turn}`,
          name: "lookup",
          arguments: JSON.stringify({ q: `turn ${turn}` }),
          status: "completed",
        },
      ]);
      reply.usage.input_tokens = provider(body as { input: unknown });
      return reply;
    });
    setTracingDisabled(true);
    setOpenAIAPI("responses");
    setDefaultOpenAIClient(new OpenAI({ baseURL: stub.baseURL, apiKey: "test", maxRetries: 0 }));
  });
  afterAll(() => stub.close());

  async function runOnce(withUsage: boolean) {
    const lookup = tool({
      name: "lookup",
      description: "Look something up",
      parameters: z.object({ q: z.string() }),
      execute: async ({ q }) =>
        `${q}: ${Array.from({ length: 60 }, (_, i) => `${1000 + i * 7} ${2000 + i * 13}`).join(" ")}`,
    });
    const agent = new Agent({ name: "records", instructions, tools: [lookup], model: "stub-model" });
    const context = new RunContext();
    const compacted: CompactedEvent[] = [];
    const callModelInputFilter = toCallModelInputFilter({
      maxTokens,
      summarize: (older) => `summary of ${older.length} items`,
      events: { onCompacted: (event) => compacted.push(event), warnOverBudget: false },
      ...(withUsage ? { runContext: () => context } : {}),
    });
    const from = stub.requests.length;
    await run(agent, [{ role: "user", content: "List the records." }], {
      context,
      callModelInputFilter,
      maxTurns: 40,
    }).catch((error: unknown) => {
      // The stub never stops calling the tool: the run ends at its turn limit.
      if (!(error instanceof Error && /max turns/i.test(error.message))) throw error;
    });
    const sent = stub.requests.slice(from).map((r) => provider(r.body as { input: unknown; instructions?: string }));
    return { sent, compacted, entries: context.usage.requestUsageEntries?.length ?? 0 };
  }

  it("counts each request by the report of the one before it, so none goes over the window unsaid", async () => {
    const plain = await runOnce(false);
    const anchored = await runOnce(true);
    expect(anchored.entries).toBe(anchored.sent.length);
    // By the estimate alone, the run goes over the window and nothing says so.
    expect(plain.sent.filter((tokens) => tokens > maxTokens).length).toBeGreaterThan(5);
    expect(plain.compacted.every((event) => !event.overBudget)).toBe(true);
    // With the run's usage, every request is within it but the first (no report yet) and any the
    // hook said it could not fit.
    const over = anchored.sent.slice(1).filter((tokens) => tokens > maxTokens);
    const said = anchored.compacted.filter((event) => event.overBudget).length;
    expect(over.length).toBeLessThanOrEqual(said);
    expect(anchored.compacted.length).toBeGreaterThan(plain.compacted.length);
  });
});
