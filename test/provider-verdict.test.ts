// The provider's verdict on a request, read from response bodies typed by the SDKs' own response
// types (`@anthropic-ai/sdk` `Message`/`BetaMessage`, `openai` `Response`), so a shape the SDKs do
// not declare would not compile.
import type Anthropic from "@anthropic-ai/sdk";
import type OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { compactor, estimateTokens, type ProviderVerdict, type UsageEvent } from "../src/index.js";
import { readProviderVerdicts } from "../src/expert.js";
import { builders } from "./support/builders.js";
import { anthropicReply, anthropicUsage } from "./support/anthropic-reply.js";

const { user, assistant, toolCall, toolResult } = builders.anthropic;
const history = () => [
  user("Fix the build."),
  toolCall("t1", "read_file", { path: "src/a.ts" }),
  toolResult("t1", "export const a = 1;"),
  assistant("It is fixed."),
  user("Thanks, now the tests."),
];

describe("events.onProviderVerdict", () => {
  it("Anthropic input_transformations: each thinking block dropped or let through, with the message of the last output it was in", async () => {
    const verdicts: ProviderVerdict[] = [];
    const hook = compactor({
      maxTokens: 100_000,
      format: "anthropic",
      summarize: () => "s",
      verdicts: readProviderVerdicts(),
      events: { onProviderVerdict: (verdict) => verdicts.push(verdict) },
    });
    const sent = history();
    expect(await hook({ messages: sent })).toBeNull();
    const response = anthropicReply({
      input_transformations: [
        { type: "thinking_dropped", path: "messages.1.content.0", reason: "prefix_binding_mismatch" },
        { type: "thinking_mismatch_allowed", path: "messages.3.content.0", reason: "prefix_binding_mismatch" },
      ],
    });
    await hook({ messages: [...sent, assistant("Running them.")], response });
    expect(verdicts).toEqual([
      { kind: "thinking-dropped", reason: "prefix_binding_mismatch", path: "messages.1.content.0", message: sent[1] },
      {
        kind: "thinking-mismatch-allowed",
        reason: "prefix_binding_mismatch",
        path: "messages.3.content.0",
        message: sent[3],
      },
    ]);
    expect(verdicts[0]!.kind === "thinking-dropped" && verdicts[0]!.message).toBe(sent[1]);
  });

  it("Anthropic cache diagnostics: a miss with its reason and the tokens it cost; types it does not know are passed over", async () => {
    const verdicts: ProviderVerdict[] = [];
    const hook = compactor({
      maxTokens: 100_000,
      format: "anthropic",
      summarize: () => "s",
      verdicts: readProviderVerdicts(),
      events: { onProviderVerdict: (verdict) => verdicts.push(verdict) },
    });
    const diagnostics: Anthropic.Diagnostics = {
      cache_miss_reason: { type: "messages_changed", cache_missed_input_tokens: 31_000 },
    };
    const unknownEntry = {
      type: "connector_rewritten",
      path: "messages.0.content.0",
    } as unknown as Anthropic.Beta.BetaInputTransformation;
    await hook({
      messages: history(),
      response: { ...anthropicReply({ input_transformations: [unknownEntry] }), diagnostics },
    });
    expect(verdicts).toEqual([{ kind: "cache-miss", reason: "messages_changed", missedTokens: 31_000 }]);
    // Pending diagnosis (null) says nothing.
    verdicts.length = 0;
    await hook({ messages: history(), response: { ...anthropicReply({}), diagnostics: { cache_miss_reason: null } } });
    expect(verdicts).toEqual([]);
  });

  it("a system message kept in the transcript is sent apart as `system`: the path counts the request's messages without it", async () => {
    const verdicts: ProviderVerdict[] = [];
    const hook = compactor({
      maxTokens: 100_000,
      format: "anthropic",
      summarize: () => "s",
      verdicts: readProviderVerdicts(),
      events: { onProviderVerdict: (verdict) => verdicts.push(verdict) },
    });
    const sent = [{ role: "system", content: "You fix builds." }, ...history()];
    await hook({ messages: sent });
    await hook({
      messages: sent,
      response: anthropicReply({
        input_transformations: [
          { type: "thinking_dropped", path: "messages.1.content.0", reason: "prefix_binding_mismatch" },
        ],
      }),
    });
    expect(verdicts).toHaveLength(1);
    expect(verdicts[0]!.kind === "thinking-dropped" && verdicts[0]!.message).toBe(sent[2]);
  });

  it("OpenAI Responses input_transformations: a reasoning item removed, mapped to the item of that id", async () => {
    const verdicts: ProviderVerdict[] = [];
    const hook = compactor({
      maxTokens: 100_000,
      format: "openai-responses",
      summarize: () => "s",
      verdicts: readProviderVerdicts(),
      events: { onProviderVerdict: (verdict) => verdicts.push(verdict) },
    });
    const reasoning = { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "gAAAA-encrypted" };
    const sent = [
      { role: "user", content: "Plan the refund." },
      reasoning,
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Planned." }] },
      { role: "user", content: "Go on." },
    ];
    await hook({ messages: sent });
    const transformation: OpenAI.Responses.Response.InputTransformation = {
      type: "reasoning",
      action: "removed",
      id: "rs_1",
      reason: "model_mismatch",
    };
    await hook({
      messages: sent,
      response: {
        id: "resp_1",
        object: "response",
        input_transformations: [transformation],
        usage: { input_tokens: 900 },
      },
    });
    expect(verdicts).toEqual([{ kind: "reasoning-removed", reason: "model_mismatch", id: "rs_1", message: reasoning }]);
  });

  it("a stop at the context window makes this call compact, though the estimate says the transcript fits", async () => {
    const verdicts: ProviderVerdict[] = [];
    let summarized = 0;
    const hook = compactor({
      maxTokens: 100_000,
      format: "anthropic",
      summarize: () => `summary ${++summarized}`,
      verdicts: readProviderVerdicts(),
      events: { onProviderVerdict: (verdict) => verdicts.push(verdict) },
    });
    const sent = [...history(), assistant("Tests run."), user("And the lint?")];
    expect(await hook({ messages: sent })).toBeNull();
    expect(estimateTokens(sent)).toBeLessThan(100_000);
    const result = await hook({
      messages: sent,
      response: anthropicReply({ stop_reason: "model_context_window_exceeded" }),
    });
    expect(verdicts).toEqual([{ kind: "context-window-exceeded" }]);
    expect(summarized).toBe(1);
    expect(result).not.toBeNull();
  });

  it("without the verdicts' reader, the plain hook still compacts after a stop at the context window and tells that stop, and nothing it would have to map", async () => {
    let summarized = 0;
    const verdicts: ProviderVerdict[] = [];
    const hook = compactor({
      maxTokens: 100_000,
      format: "anthropic",
      summarize: () => `summary ${++summarized}`,
      events: { onProviderVerdict: (verdict) => verdicts.push(verdict) },
    });
    const sent = [...history(), assistant("Tests run."), user("And the lint?")];
    expect(await hook({ messages: sent })).toBeNull();
    const dropped = {
      input_transformations: [
        { type: "thinking_dropped", path: "messages.1.content.0", reason: "binding_check_failed" },
      ],
    };
    expect(await hook({ messages: sent, response: anthropicReply(dropped as never) })).toBeNull();
    expect(verdicts).toEqual([]);
    expect(
      await hook({ messages: sent, response: anthropicReply({ stop_reason: "model_context_window_exceeded" }) }),
    ).not.toBeNull();
    expect(summarized).toBe(1);
    expect(verdicts).toEqual([{ kind: "context-window-exceeded" }]);
    expect(() => compactor({ maxTokens: 100_000, summarize: () => "s", verdicts: {} as never })).toThrow(
      /`verdicts` to be what `readProviderVerdicts\(\)`/,
    );
  });

  it("reads Anthropic's usage with its cache fields from the response: what the cache served counts", async () => {
    const said: UsageEvent[] = [];
    const hook = compactor({
      maxTokens: 20_000,
      format: "anthropic",
      summarize: () => "s",
      events: { warnOverBudget: false, onUsage: (event) => said.push(event) },
    });
    const sent = [...history(), assistant("Tests run."), user("And the lint?")];
    expect(await hook({ messages: sent })).toBeNull();
    // 10 uncached tokens, and 30,000 written to and read from the cache: 30,010 in all, over 20,000.
    const usage = {
      ...anthropicUsage,
      input_tokens: 10,
      cache_creation_input_tokens: 5_000,
      cache_read_input_tokens: 25_000,
    };
    await hook({
      messages: [...sent, assistant("Lint is clean."), user("Ship it.")],
      response: anthropicReply({ usage: usage as unknown as Anthropic.Beta.BetaUsage }),
    });
    expect(said.length).toBeGreaterThan(0);
    expect(
      said.every(
        (event) =>
          event.inputTokens === 30_010 &&
          event.messageCount === sent.length &&
          event.read.includes("cache_read_input_tokens"),
      ),
    ).toBe(true);
    expect(said.map((event) => event.kind)).toContain("over-budget");
    // The same transcript read back from a database (new objects) is counted by the response alike,
    // by another hook that never saw it: the report describes the messages before the model's latest reply.
    const fresh: UsageEvent[] = [];
    const other = compactor({
      maxTokens: 20_000,
      format: "anthropic",
      summarize: () => "s",
      events: { warnOverBudget: false, onUsage: (event) => fresh.push(event) },
    });
    const readBack = structuredClone([...sent, assistant("Lint is clean."), user("Ship it.")]);
    expect(
      await other({
        messages: readBack,
        response: anthropicReply({ usage: usage as unknown as Anthropic.Beta.BetaUsage }),
      }),
    ).not.toBeNull();
    expect(fresh.map((event) => [event.kind, event.inputTokens, event.messageCount])).toContainEqual([
      "over-budget",
      30_010,
      sent.length,
    ]);
  });
});

describe("statefulCompactor's call `response`", () => {
  it("tells the verdicts mapped onto what the conversation's last call returned, and compacts after a stop at the context window", async () => {
    const { statefulCompactor, memoryStore } = await import("../src/index.js");
    const verdicts: ProviderVerdict[] = [];
    let summarized = 0;
    const compact = statefulCompactor({
      maxTokens: 100_000,
      format: "anthropic",
      summarize: () => `summary ${++summarized}`,
      store: memoryStore(),
      conversationId: "c1",
      events: { onProviderVerdict: (verdict) => verdicts.push(verdict) },
    });
    const sent = [...history(), assistant("Tests run."), user("And the lint?")];
    expect(await compact(sent)).toBeNull();
    const response = anthropicReply({
      stop_reason: "model_context_window_exceeded",
      input_transformations: [
        { type: "thinking_dropped", path: "messages.2.content.0", reason: "model_binding_mismatch" },
      ],
    });
    expect(await compact(sent, { response })).not.toBeNull();
    expect(verdicts).toEqual([
      { kind: "context-window-exceeded" },
      { kind: "thinking-dropped", reason: "model_binding_mismatch", path: "messages.2.content.0", message: sent[2] },
    ]);
    expect(summarized).toBe(1);
  });
});

describe("a refused native item, read from what the SDK threw", () => {
  // OpenAI's body for an encrypted item it cannot verify, as users report it (github.com/openai/codex/issues/8145).
  const openaiBody = {
    error: {
      message: "The encrypted content gAAA...DQ== could not be verified.",
      type: "invalid_request_error",
      param: null,
      code: "invalid_encrypted_content",
    },
  };
  const item = { id: "cmp_1", type: "compaction", encrypted_content: "gAAAA-encrypted" };
  const sent = [{ role: "developer", content: "Be brief." }, item, { role: "user", content: "Go on." }];

  async function verdictsOf(response: unknown): Promise<ProviderVerdict[]> {
    const verdicts: ProviderVerdict[] = [];
    const hook = compactor({
      maxTokens: 100_000,
      format: "openai-responses",
      summarize: () => "s",
      verdicts: readProviderVerdicts(),
      events: { onProviderVerdict: (verdict) => verdicts.push(verdict) },
    });
    await hook({ messages: sent });
    await hook({ messages: sent, response });
    return verdicts;
  }

  it("from the AI SDK's APICallError (its status and its body as text), and from a RetryError around it", async () => {
    const { APICallError } = await import("@ai-sdk/provider");
    const error = new APICallError({
      message: "Bad Request",
      url: "https://api.openai.com/v1/responses",
      requestBodyValues: {},
      statusCode: 400,
      responseBody: JSON.stringify(openaiBody),
      isRetryable: false,
    });
    const refused = {
      kind: "native-item-refused",
      provider: "openai",
      code: "invalid_encrypted_content",
      message: item,
    };
    expect(await verdictsOf(error)).toEqual([refused]);
    expect(
      await verdictsOf({
        name: "AI_RetryError",
        message: "Failed after 3 attempts",
        lastError: error,
        errors: [error],
      }),
    ).toEqual([refused]);
  });

  it("only on a bad request: the same code on another status, or a body passed alone, is no verdict", async () => {
    expect(await verdictsOf({ status: 500, code: "invalid_encrypted_content", error: openaiBody.error })).toEqual([]);
    expect(await verdictsOf(openaiBody)).toEqual([]);
    expect(
      await verdictsOf({
        status: 400,
        code: "context_length_exceeded",
        error: { ...openaiBody.error, code: "context_length_exceeded" },
      }),
    ).toEqual([]);
  });

  it("Anthropic's error_code of a refused compaction block, from the body's details", async () => {
    const verdicts: ProviderVerdict[] = [];
    const hook = compactor({
      maxTokens: 100_000,
      format: "anthropic",
      summarize: () => "s",
      verdicts: readProviderVerdicts(),
      events: { onProviderVerdict: (verdict) => verdicts.push(verdict) },
    });
    const block = {
      role: "assistant",
      content: [{ type: "compaction", content: "Earlier: the build was fixed.", signature: "sig" }],
    };
    const messages = [block, user("Now the tests.")];
    await hook({ messages });
    // The wire body (@anthropic-ai/sdk core/error.ts reads `error.details.error_code` as `errorCode`).
    const body = {
      type: "error",
      error: {
        type: "invalid_request_error",
        message: "messages.0.content.0: the compaction block's content does not match",
        details: { error_code: "compaction_content_mismatch" },
      },
    };
    await hook({ messages, response: { status: 400, error: body } });
    expect(verdicts).toEqual([
      { kind: "native-item-refused", provider: "anthropic", code: "compaction_content_mismatch", message: block },
    ]);
  });
});
