// OpenTelemetry spans of compactions, read back through the SDK's in-memory exporter. A context
// manager is what makes "the active span" mean anything: the API's default one keeps no context,
// so every span would be a root. AsyncLocalStorageContextManager is the one Node SDK set-ups
// register (@opentelemetry/sdk-trace-node, NodeSDK).
import { context, SpanStatusCode, trace, type Span } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  extractiveSummary,
  compactor,
  estimateTokens,
  statefulCompactor,
  type CompactedEvent,
} from "../../src/index.js";
import { SUMMARY_PREFIX, readProviderVerdicts } from "../../src/expert.js";
import { firstOf } from "../../src/summary-kit.js";
import { otelEvents, recordSummaryUsage } from "../../src/telemetry/otel.js";
import { chatCompletion, startStubModel } from "../../examples/stub-model.mjs";
import { supportAgent } from "../../examples/recipes/opentelemetry.js";
import { fiveMessages as messages, perMessage } from "../support/five-messages.js";

const exporter = new InMemorySpanExporter();
/** The ids of the compaction spans started, ended or not (a span never ended is never exported). */
const startedCompactions: string[] = [];
const startRecorder: SpanProcessor = {
  onStart: (span) => {
    if (span.name === "compaction") startedCompactions.push(span.spanContext().spanId);
  },
  onEnd: () => {},
  forceFlush: async () => {},
  shutdown: async () => {},
};
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter), startRecorder] });
const tracer = provider.getTracer("context-compactor-test");
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
  // The recipe takes its tracer from the global provider, as an application does.
  trace.setGlobalTracerProvider(provider);
});
afterAll(async () => {
  context.disable();
  trace.disable();
  await provider.shutdown();
});
beforeEach(() => {
  exporter.reset();
  startedCompactions.length = 0;
});

const overBudget = { maxTokens: 4, keepTail: 2, countTokens: perMessage };
/** Five rounds of large tool results, which masking alone brings within `maskBudget`. */
const toolSession = [
  { role: "system", content: "You are an agent." },
  { role: "user", content: "look things up" },
  ...[0, 1, 2, 3, 4].flatMap((round) => [
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: `c${round}`, type: "function", function: { name: "lookup", arguments: "{}" } }],
    },
    { role: "tool", tool_call_id: `c${round}`, content: `${round}:${"x".repeat(4000)}` },
  ]),
  { role: "assistant", content: "done" },
];
const maskBudget = { maxTokens: estimateTokens(toolSession) - 1500, ladder: { maskToolResults: { keepRecent: 2 } } };

/** Runs `work` inside an active span, as a framework's instrumentation would, and ends it. */
async function inSpan<T>(name: string, attributes: Record<string, string>, work: () => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, { attributes }, async (span: Span) => {
    try {
      return await work();
    } finally {
      span.end();
    }
  });
}
const inAgentSpan = <T>(work: () => Promise<T>) =>
  inSpan(
    "invoke_agent researcher",
    { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "researcher" },
    work,
  );

const named = (name: string): ReadableSpan[] => exporter.getFinishedSpans().filter((span) => span.name === name);
const only = (name: string): ReadableSpan => {
  const spans = named(name);
  expect(spans).toHaveLength(1);
  return spans[0]!;
};
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe("otelEvents", () => {
  it("a summarizing compaction is one span under the active span, with its figures, and marks the GenAI span compacted", async () => {
    const usageRecorded: boolean[] = [];
    const hook = compactor({
      ...overBudget,
      summarize: () => {
        // The span exists while summarize runs: onCompacting started it.
        usageRecorded.push(recordSummaryUsage({ inputTokens: 120, outputTokens: 30 }));
        return "s";
      },
      events: otelEvents(tracer),
    });
    const result = await inAgentSpan(() => hook({ messages }));
    expect(result).not.toBeNull();
    expect(usageRecorded).toEqual([true]);
    const parent = only("invoke_agent researcher");
    const span = only("compaction");
    expect(parentOf(span)).toBe(parent.spanContext().spanId);
    expect(span.spanContext().traceId).toBe(parent.spanContext().traceId);
    expect(span.attributes).toEqual({
      "context_compactor.strategy": "summarize",
      "context_compactor.tokens_before": 5,
      "context_compactor.tokens_after": 4,
      "context_compactor.messages_summarized": 2,
      "context_compactor.messages_kept": 3,
      "context_compactor.duration_ms": expect.any(Number),
      "context_compactor.over_budget": false,
      "context_compactor.made_by": "summarize",
      "gen_ai.usage.input_tokens": 120,
      "gen_ai.usage.output_tokens": 30,
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(parent.attributes["gen_ai.conversation.compacted"]).toBe(true);
  });

  it("the usage of a summary made in several requests adds up", async () => {
    const hook = compactor({
      ...overBudget,
      summarize: () => {
        recordSummaryUsage({ inputTokens: 100, outputTokens: 10 });
        recordSummaryUsage({ inputTokens: 50, outputTokens: 5 });
        return "s";
      },
      events: otelEvents(tracer),
    });
    await inAgentSpan(() => hook({ messages }));
    expect(only("compaction").attributes).toMatchObject({
      "gen_ai.usage.input_tokens": 150,
      "gen_ai.usage.output_tokens": 15,
    });
  });

  it("a call within budget makes no span and marks nothing", async () => {
    const summarize = vi.fn(() => "s");
    const hook = compactor({ maxTokens: 100, countTokens: perMessage, summarize, events: otelEvents(tracer) });
    expect(await inAgentSpan(() => hook({ messages }))).toBeNull();
    expect(named("compaction")).toEqual([]);
    expect(only("invoke_agent researcher").attributes).not.toHaveProperty("gen_ai.conversation.compacted");
    expect(recordSummaryUsage({ inputTokens: 1 })).toBe(false);
  });

  it("only a GenAI span is marked compacted: an HTTP span stays as it was", async () => {
    const hook = compactor({ ...overBudget, summarize: () => "s", events: otelEvents(tracer) });
    await inSpan("POST /chat", { "http.request.method": "POST" }, () => hook({ messages }));
    const parent = only("POST /chat");
    expect(parentOf(only("compaction"))).toBe(parent.spanContext().spanId);
    expect(parent.attributes).not.toHaveProperty("gen_ai.conversation.compacted");
  });

  it("a mask-only compaction (no onCompacting) still gets its span, begun its duration before it ends", async () => {
    const transcript = toolSession;
    const summarize = vi.fn(() => "s");
    const onCompacted = vi.fn<(event: CompactedEvent) => void>();
    // A count that takes a while the first time, so the compaction lasts long enough to tell a
    // span begun durationMs before its end from one begun as it ends.
    let slow = true;
    const countTokens = (list: readonly object[]) => {
      if (slow) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
      slow = false;
      return estimateTokens(list);
    };
    const hook = compactor({ ...maskBudget, countTokens, summarize, events: otelEvents(tracer, { onCompacted }) });
    await inAgentSpan(() => hook({ messages: transcript }));
    expect(summarize).not.toHaveBeenCalled();
    const span = only("compaction");
    expect(parentOf(span)).toBe(only("invoke_agent researcher").spanContext().spanId);
    expect(span.attributes).toMatchObject({
      "context_compactor.strategy": "mask",
      "context_compactor.messages_summarized": 0,
      "context_compactor.messages_kept": transcript.length,
    });
    expect(span.attributes["context_compactor.tokens_after"]).toBe(onCompacted.mock.calls[0]![0].tokensAfter);
    // Start and end are a millisecond-rounded durationMs apart, not the microseconds of one callback.
    const [startSeconds, startNanos] = span.startTime;
    const [endSeconds, endNanos] = span.endTime;
    const spanMs = (endSeconds - startSeconds) * 1000 + (endNanos - startNanos) / 1e6;
    expect(onCompacted.mock.calls[0]![0].durationMs).toBeGreaterThanOrEqual(20);
    expect(spanMs).toBeGreaterThanOrEqual(onCompacted.mock.calls[0]![0].durationMs - 1);
    expect(only("invoke_agent researcher").attributes["gen_ai.conversation.compacted"]).toBe(true);
  });

  it("a compaction skipped on an error is an ERROR span with the exception and its error.type", async () => {
    const hook = compactor({
      ...overBudget,
      onError: "skip",
      summarize: () => {
        throw new Error("model unavailable");
      },
      events: otelEvents(tracer),
    });
    expect(await inAgentSpan(() => hook({ messages }))).toBeNull();
    const span = only("compaction");
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: expect.stringContaining("model unavailable") });
    expect(span.attributes).toMatchObject({
      "context_compactor.skip_reason": "error",
      "context_compactor.tokens_before": 5,
      "error.type": "SUMMARIZE_FAILED",
    });
    expect(span.events.map((event) => event.name)).toEqual(["exception"]);
    expect(span.events[0]!.attributes?.["exception.message"]).toContain("model unavailable");
    expect(only("invoke_agent researcher").attributes).not.toHaveProperty("gen_ai.conversation.compacted");
  });

  it("a skip without summarize (nothing to summarize) is a span with its reason and status unset", async () => {
    const hook = compactor({ maxTokens: 1, countTokens: perMessage, summarize: () => "s", events: otelEvents(tracer) });
    await inAgentSpan(() =>
      hook({
        messages: [
          { role: "system", content: "S" },
          { role: "user", content: "u1" },
        ],
      }),
    );
    const span = only("compaction");
    expect(span.attributes).toMatchObject({
      "context_compactor.skip_reason": "nothing-to-summarize",
      "context_compactor.over_budget": true,
      "context_compactor.over_budget_cause": expect.any(String),
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it("a fallback compaction records the summarizer's failure and stays a success", async () => {
    const long = (text: string) =>
      `${text}: the build failed in module ${text} because the cache at /tmp/${text} was stale. `.repeat(20);
    const transcript = [
      { role: "system", content: "S" },
      ...["u1", "a1", "u2", "a2", "u3", "a3"].map((text, index) => ({
        role: index % 2 === 0 ? "user" : "assistant",
        content: long(text),
      })),
    ];
    const hook = compactor({
      maxTokens: Math.floor(estimateTokens(transcript) * 0.7),
      onError: "fallback",
      fallback: extractiveSummary,
      summarize: () => {
        throw new Error("model unavailable");
      },
      events: otelEvents(tracer),
    });
    expect(await inAgentSpan(() => hook({ messages: transcript }))).not.toBeNull();
    const span = only("compaction");
    expect(span.attributes["context_compactor.strategy"]).toBe("fallback");
    expect(span.attributes["context_compactor.made_by"]).toBe("extractiveSummary");
    expect(span.events.map((event) => event.name)).toEqual(["exception"]);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it("says which summarizer of a chain made the summary, and which failed before it", async () => {
    const long = (text: string) =>
      `${text}: the deploy of service ${text} waited on the lock at /var/run/${text}.lock. `.repeat(20);
    const transcript = [
      { role: "system", content: "S" },
      ...["u1", "a1", "u2", "a2", "u3", "a3"].map((text, index) => ({
        role: index % 2 === 0 ? "user" : "assistant",
        content: long(text),
      })),
    ];
    const native = Object.assign(
      async function nativeCompaction(): Promise<string> {
        throw new Error("compaction unavailable");
      },
      { madeBy: { provider: "acme", model: "m1" } },
    );
    const ownModel = () => "Own model's summary.";
    const hook = compactor({
      maxTokens: Math.floor(estimateTokens(transcript) * 0.7),
      summarize: firstOf(native, ownModel),
      events: otelEvents(tracer),
    });
    expect(await inAgentSpan(() => hook({ messages: transcript }))).not.toBeNull();
    const span = only("compaction");
    expect(span.attributes["context_compactor.made_by"]).toBe("ownModel");
    expect(span.attributes["context_compactor.made_by.provider"]).toBeUndefined();
    expect(span.attributes["context_compactor.summarizers_failed"]).toEqual(["nativeCompaction"]);
  });

  it("calls the caller's own callbacks too, after the span's work", async () => {
    const seen: string[] = [];
    const hook = compactor({
      ...overBudget,
      summarize: () => "s",
      events: otelEvents(tracer, {
        onCompacting: (event) => seen.push(`compacting ${event.older} ${named("compaction").length}`),
        onCompacted: (event) => seen.push(`compacted ${event.strategy} ${named("compaction").length}`),
      }),
    });
    await inAgentSpan(() => hook({ messages }));
    const skipping = compactor({
      maxTokens: 1,
      countTokens: perMessage,
      summarize: () => "s",
      events: otelEvents(tracer, { onSkipped: (event) => seen.push(`skipped ${event.reason}`) }),
    });
    await skipping({ messages: messages.slice(0, 2) });
    // The span is finished (exported) before the caller's onCompacted runs.
    expect(seen).toEqual(["compacting 2 0", "compacted summarize 1", "skipped nothing-to-summarize"]);
  });

  it("names the span and sets the caller's attributes on it", async () => {
    const hook = compactor({
      ...overBudget,
      summarize: () => "s",
      events: otelEvents(tracer, { spanName: "compact history", attributes: { "gen_ai.conversation.id": "chat-42" } }),
    });
    await inAgentSpan(() => hook({ messages }));
    expect(only("compact history").attributes["gen_ai.conversation.id"]).toBe("chat-42");
  });

  it("concurrent compactions under different spans each end under their own parent", async () => {
    const releases: (() => void)[] = [];
    const hook = compactor({
      ...overBudget,
      summarize: (older) => new Promise<string>((resolve) => releases.push(() => resolve(`${older.length}`))),
      events: otelEvents(tracer),
    });
    const runs = Promise.all(
      ["a", "b"].map((id) =>
        inSpan(`chat ${id}`, { "gen_ai.operation.name": "chat" }, () =>
          hook({ messages: [...messages, { role: "user", content: id }] }),
        ),
      ),
    );
    await vi.waitFor(() => expect(releases).toHaveLength(2));
    releases.reverse().forEach((release) => release());
    await runs;
    for (const id of ["a", "b"]) {
      const parent = only(`chat ${id}`);
      const children = named("compaction").filter((span) => parentOf(span) === parent.spanContext().spanId);
      expect(children, id).toHaveLength(1);
      expect(parent.attributes["gen_ai.conversation.compacted"]).toBe(true);
    }
  });

  it("a compaction that throws leaves no span to be picked up by the next one", async () => {
    let fail = true;
    const hook = compactor({
      ...overBudget,
      summarize: () => {
        if (fail) throw new Error("model unavailable");
        return "s";
      },
      events: otelEvents(tracer),
    });
    await inAgentSpan(async () => {
      await expect(hook({ messages })).rejects.toThrow(/model unavailable/);
      fail = false;
      await hook({ messages });
    });
    const span = only("compaction");
    expect(span.attributes["context_compactor.strategy"]).toBe("summarize");
    // The failed compaction's span was never ended: the one exported is the second compaction's own.
    expect(startedCompactions).toHaveLength(2);
    expect(span.spanContext().spanId).toBe(startedCompactions[1]);
  });

  it("a skip or a mask (no onCompacting) never ends the span a thrown compaction left", async () => {
    // One otelEvents for every hook: the skip and the mask make their own spans, not the failed compaction's.
    const shared = otelEvents(tracer);
    const failing = compactor({ ...overBudget, summarize: () => Promise.reject(new Error("down")), events: shared });
    const skipping = compactor({ maxTokens: 1, countTokens: perMessage, summarize: () => "s", events: shared });
    const masking = compactor({ ...maskBudget, summarize: () => "s", events: shared });
    await inAgentSpan(async () => {
      await expect(failing({ messages })).rejects.toThrow(/down/);
      await skipping({ messages: messages.slice(0, 2) });
      await masking({ messages: toolSession });
    });
    const spans = named("compaction");
    expect(
      spans.map(
        (span) => span.attributes["context_compactor.skip_reason"] ?? span.attributes["context_compactor.strategy"],
      ),
    ).toEqual(["nothing-to-summarize", "mask"]);
    expect(startedCompactions).toHaveLength(3);
    expect(spans.map((span) => span.spanContext().spanId)).toEqual(startedCompactions.slice(1));
  });

  it("goes into statefulCompactor's events, whose keys are checked", async () => {
    const hook = statefulCompactor({
      ...overBudget,
      summarize: () => "s",
      conversationId: "c1",
      events: otelEvents(tracer),
    });
    await inAgentSpan(() => hook(messages));
    const span = only("compaction");
    expect(span.attributes["context_compactor.strategy"]).toBe("summarize");
    // The span onCompacting started is the one ended: the store's calls keep the hook's context.
    expect(startedCompactions).toEqual([span.spanContext().spanId]);
  });

  it("checks its arguments once, naming the one at fault", () => {
    expect(() => otelEvents(undefined as never)).toThrow(
      "Expected `tracer` to be an OpenTelemetry `Tracer` (with `startSpan`), got `undefined` (undefined)",
    );
    expect(() => otelEvents(tracer, { spanName: "" })).toThrow(TypeError);
    expect(() => otelEvents(tracer, { spanName: "" })).toThrow("`spanName`");
    expect(() => otelEvents(tracer, { onCompacted: "log" as never })).toThrow(
      "Expected `onCompacted` to be a function",
    );
    expect(() => otelEvents(tracer, { spanname: "x" } as never)).toThrow(
      "Unknown option `spanname`. Did you mean `spanName`?",
    );
    expect(() => otelEvents(tracer, { attributes: [] as never })).toThrow("`attributes`");
  });
});

describe("the OpenTelemetry recipe as written", () => {
  let stub: Awaited<ReturnType<typeof startStubModel>>;
  beforeAll(async () => {
    // The summarizing model (gpt-4.1-mini) reports its usage; the agent's model answers briefly.
    stub = await startStubModel(({ body }) =>
      body.model === "gpt-4.1-mini"
        ? {
            ...chatCompletion({ content: "The user asked about orders W0 to W9." }),
            usage: { prompt_tokens: 500, completion_tokens: 40, total_tokens: 540 },
          }
        : chatCompletion({ content: `Noted (${body.messages.length} messages).` }),
    );
  });
  afterAll(() => stub.close());

  it("each crossing is a compaction span under its turn's invoke_agent span, with the summarizer's usage", async () => {
    const client = new OpenAI({ baseURL: stub.baseURL, apiKey: "test", maxRetries: 0 });
    const reply = supportAgent(client, "chat-7", 1000);
    for (let turn = 0; turn < 30; turn++)
      await reply(`Question ${turn}: where is order W${turn}? ${"details ".repeat(40)}`);

    const turns = named("invoke_agent support");
    const compactions = named("compaction");
    const summaryRequests = stub.requests.filter((request) => request.body.model === "gpt-4.1-mini");
    expect(compactions.length).toBeGreaterThanOrEqual(3);
    expect(summaryRequests).toHaveLength(compactions.length);
    for (const span of compactions) {
      const parent = turns.find((turn) => turn.spanContext().spanId === parentOf(span));
      expect(parent?.attributes["gen_ai.conversation.compacted"]).toBe(true);
      expect(span.attributes).toMatchObject({
        "gen_ai.conversation.id": "chat-7",
        "context_compactor.strategy": "summarize",
        "gen_ai.usage.input_tokens": 500,
        "gen_ai.usage.output_tokens": 40,
      });
    }
    // A turn that did not compact is not marked.
    expect(turns.filter((turn) => turn.attributes["gen_ai.conversation.compacted"] === true)).toHaveLength(
      compactions.length,
    );
    // The summary reaches the model.
    const agentRequests = stub.requests.filter((request) => request.body.model === "gpt-4.1");
    expect(
      agentRequests
        .at(-1)!
        .body.messages.some(
          (message: { content?: unknown }) =>
            typeof message.content === "string" && message.content.startsWith(SUMMARY_PREFIX),
        ),
    ).toBe(true);
  });
});

describe("otelEvents and the provider's verdict", () => {
  // Anthropic's response as the SDK types it (@anthropic-ai/sdk resources/beta/messages: `input_transformations`,
  // `diagnostics.cache_miss_reason`, `stop_reason: "model_context_window_exceeded"`).
  const response = {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "claude-opus-4-7",
    content: [{ type: "text", text: "Done." }],
    stop_reason: "model_context_window_exceeded",
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 2 },
    input_transformations: [
      { type: "thinking_dropped", path: "messages.1.content.0", reason: "prefix_binding_mismatch" },
    ],
    diagnostics: { cache_miss_reason: { type: "tools_changed", cache_missed_input_tokens: 31_000 } },
  };
  const transcript = [
    { role: "user", content: "Fix the build." },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "", signature: "sig" },
        { type: "text", text: "Fixed." },
      ],
    },
    { role: "user", content: "Now the tests." },
    { role: "assistant", content: "Tests run." },
    { role: "user", content: "And the lint?" },
  ];

  it("records each verdict as an event of the active span, and the compaction the stop forced as its span", async () => {
    const hook = compactor({
      maxTokens: 100_000,
      format: "anthropic",
      summarize: () => "Earlier: the build and the tests.",
      verdicts: readProviderVerdicts(),
      events: otelEvents(tracer),
    });
    await inAgentSpan(() => hook({ messages: transcript }));
    await inAgentSpan(() => hook({ messages: transcript, response }));
    const agent = named("invoke_agent researcher").at(-1)!;
    const verdicts = agent.events
      .filter((event) => event.name === "context_compactor.provider_verdict")
      .map((event) => event.attributes);
    expect(verdicts).toEqual([
      {
        "context_compactor.verdict.kind": "context-window-exceeded",
        "gen_ai.provider.name": "anthropic",
        "gen_ai.response.finish_reasons": ["model_context_window_exceeded"],
      },
      {
        "context_compactor.verdict.kind": "thinking-dropped",
        "gen_ai.provider.name": "anthropic",
        "context_compactor.verdict.reason": "prefix_binding_mismatch",
        "context_compactor.verdict.path": "messages.1.content.0",
      },
      {
        "context_compactor.verdict.kind": "cache-miss",
        "gen_ai.provider.name": "anthropic",
        "context_compactor.verdict.reason": "tools_changed",
        "context_compactor.verdict.missed_tokens": 31_000,
      },
    ]);
    // The stop at the context window compacted this call, under the same span.
    expect(parentOf(only("compaction"))).toBe(agent.spanContext().spanId);
  });

  it("with no active span, a verdict is a span of its own, bounded in what it quotes of the provider", async () => {
    const hook = compactor({
      maxTokens: 100_000,
      format: "openai-responses",
      summarize: () => "s",
      verdicts: readProviderVerdicts(),
      events: otelEvents(tracer, { attributes: { "gen_ai.conversation.id": "chat-7" } }),
    });
    const error = Object.assign(new Error("400 The encrypted content gAAA...DQ== could not be verified."), {
      status: 400,
      code: "invalid_encrypted_content",
    });
    const sent = [
      { role: "user", content: "Hi" },
      { type: "compaction", id: "cmp_1", encrypted_content: "gAAAA" },
      { role: "user", content: "Go on." },
    ];
    await hook({ messages: sent });
    await hook({ messages: sent, response: error });
    const span = only("context_compactor.provider_verdict");
    expect(span.attributes).toMatchObject({
      "gen_ai.conversation.id": "chat-7",
      "context_compactor.verdict.kind": "native-item-refused",
      "gen_ai.provider.name": "openai",
      "context_compactor.verdict.code": "invalid_encrypted_content",
    });
    expect(span.events.map((event) => event.name)).toEqual(["context_compactor.provider_verdict"]);

    const long = compactor({
      maxTokens: 100_000,
      format: "anthropic",
      summarize: () => "s",
      verdicts: readProviderVerdicts(),
      events: otelEvents(tracer),
    });
    await inAgentSpan(() =>
      long({
        messages: transcript,
        response: {
          ...response,
          stop_reason: "end_turn",
          diagnostics: null,
          input_transformations: [{ type: "thinking_dropped", path: "x", reason: "r".repeat(5_000) }],
        },
      }),
    );
    const reason = named("invoke_agent researcher").at(-1)!.events[0]!.attributes![
      "context_compactor.verdict.reason"
    ] as string;
    expect(reason.length).toBeLessThanOrEqual(200);
  });
});
