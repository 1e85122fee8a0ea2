// The adapters hand the provider's last response to the compactor themselves, where the framework
// keeps it: each real framework package, over the real provider package or a stub model whose
// answers carry the fields the providers' SDKs declare (Anthropic's `input_transformations`,
// `diagnostics.cache_miss_reason`, `stop_reason: "model_context_window_exceeded"`).
import { createAnthropic } from "@ai-sdk/anthropic";
import { generateText, jsonSchema, stepCountIs, tool, type ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { toPrepareStep } from "../../src/adapters/ai-sdk.js";
import { toAgentMiddleware } from "../../src/adapters/langchain.js";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool as langchainTool } from "@langchain/core/tools";
import { createAgent } from "langchain";
import { genkit, z, type MessageData } from "genkit";
import { toModelMiddleware } from "../../src/adapters/genkit.js";
import { SUMMARY_PREFIX } from "../../src/expert.js";
import { memoryStore, type ProviderVerdict } from "../../src/index.js";

/** An Anthropic `Message` (@anthropic-ai/sdk resources/beta/messages: `BetaMessage`) with the verdict fields. */
function anthropicMessage(content: object[], extra: Record<string, unknown>) {
  return {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "claude-opus-4-7",
    content,
    stop_sequence: null,
    usage: { input_tokens: 900, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    ...extra,
  };
}

const verdictFields = {
  input_transformations: [
    { type: "thinking_dropped", path: "messages.1.content.0", reason: "prefix_binding_mismatch" },
  ],
  diagnostics: { cache_miss_reason: { type: "tools_changed", cache_missed_input_tokens: 1_200 } },
};

function history(): ModelMessage[] {
  const messages: ModelMessage[] = [];
  for (let turn = 1; turn <= 4; turn++) {
    messages.push({ role: "user", content: `Check order W-${turn}. ${"context ".repeat(30)}` });
    messages.push({
      role: "assistant",
      content: `Order W-${turn} ships with tracking W${turn}TRK. ${"notes ".repeat(40)}`,
    });
  }
  messages.push({ role: "user", content: "Now look up order W-5." });
  return messages;
}

describe("the AI SDK adapter reads the last step's response body", () => {
  it("generateText with @ai-sdk/anthropic: the verdicts of step 1 are told at step 2, each once", async () => {
    const bodies: Record<string, unknown>[] = [];
    const fetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
      bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
      const answer =
        bodies.length === 1
          ? anthropicMessage([{ type: "tool_use", id: "toolu_1", name: "lookup", input: { order: "W-5" } }], {
              stop_reason: "tool_use",
              ...verdictFields,
            })
          : anthropicMessage([{ type: "text", text: "W-5 ships tomorrow." }], { stop_reason: "end_turn" });
      return new Response(JSON.stringify(answer), { status: 200, headers: { "content-type": "application/json" } });
    };
    const model = createAnthropic({ apiKey: "test", fetch })("claude-opus-4-7");
    const verdicts: ProviderVerdict[] = [];
    let summarized = 0;
    const prepareStep = toPrepareStep({
      maxTokens: 100_000,
      summarize: () => `Orders W-1 to W-4 were checked (${++summarized}).`,
      store: memoryStore(),
      conversationId: "chat",
      events: { onProviderVerdict: (verdict) => verdicts.push(verdict) },
    });
    const lookup = tool({
      description: "Looks up an order",
      inputSchema: jsonSchema<{ order: string }>({
        type: "object",
        properties: { order: { type: "string" } },
        required: ["order"],
      }),
      execute: async ({ order }) => `${order}: ships tomorrow`,
    });
    const result = await generateText({
      model,
      system: "You are a support agent.",
      messages: history(),
      tools: { lookup },
      prepareStep,
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe("W-5 ships tomorrow.");
    expect(bodies).toHaveLength(2);
    expect(verdicts.map((verdict) => verdict.kind)).toEqual(["thinking-dropped", "cache-miss"]);
    expect(verdicts[0]).toMatchObject({ reason: "prefix_binding_mismatch", path: "messages.1.content.0" });
    expect(verdicts[1]).toEqual({ kind: "cache-miss", reason: "tools_changed", missedTokens: 1_200 });
    // Under budget, and no stop at the window: nothing compacted.
    expect(summarized).toBe(0);
    expect(JSON.stringify(bodies[1])).not.toContain(SUMMARY_PREFIX.trim().slice(1, -1));
  });

  it("a step that stopped at the context window makes the next one compact (the step's body as generateText keeps it)", async () => {
    const verdicts: ProviderVerdict[] = [];
    let summarized = 0;
    const prepareStep = toPrepareStep({
      maxTokens: 100_000,
      summarize: () => `Orders W-1 to W-4 were checked (${++summarized}).`,
      store: memoryStore(),
      conversationId: "chat",
      events: { onProviderVerdict: (verdict) => verdicts.push(verdict) },
    });
    const messages = history();
    expect(await prepareStep({ messages, stepNumber: 0, steps: [] })).toEqual({});
    // @ai-sdk/anthropic maps the stop to finishReason "length", which ends generateText's loop: a
    // loop of one's own that goes on passes the steps, as the AI SDK's StepResult holds them.
    const fetch = async (): Promise<Response> =>
      new Response(
        JSON.stringify(
          anthropicMessage([{ type: "text", text: "Order W-5" }], { stop_reason: "model_context_window_exceeded" }),
        ),
        { status: 200, headers: { "content-type": "application/json" } },
      );
    const stopped = await generateText({
      model: createAnthropic({ apiKey: "test", fetch })("claude-opus-4-7"),
      messages,
    });
    expect(stopped.finishReason).toBe("length");
    const next = [...messages, ...stopped.response.messages, { role: "user" as const, content: "Go on." }];
    const compacted = (await prepareStep({ messages: next, stepNumber: 1, steps: stopped.steps })) as {
      messages?: ModelMessage[];
    };
    expect(verdicts).toEqual([{ kind: "context-window-exceeded" }]);
    expect(summarized).toBe(1);
    expect(JSON.stringify(compacted.messages)).toContain("Orders W-1 to W-4 were checked (1).");
  });
});

describe("the LangChain middleware reads the last AI message's response_metadata", () => {
  function langchainHistory(): BaseMessage[] {
    const messages: BaseMessage[] = [];
    for (let turn = 1; turn <= 4; turn++) {
      messages.push(new HumanMessage(`Check order W-${turn}. ${"context ".repeat(30)}`));
      messages.push(new AIMessage(`Order W-${turn} ships with tracking W${turn}TRK. ${"notes ".repeat(40)}`));
    }
    messages.push(new HumanMessage("Now look up order W-5."));
    return messages;
  }

  it("createAgent: what the model's response said is told before the next model call, and its stop at the context window compacts it", async () => {
    const verdicts: ProviderVerdict[] = [];
    let summarized = 0;
    const middleware = toAgentMiddleware({
      maxTokens: 100_000,
      summarize: () => `Orders W-1 to W-4 were checked (${++summarized}).`,
      events: { onProviderVerdict: (verdict) => verdicts.push(verdict) },
    });
    // As @langchain/anthropic builds it: every field of the Anthropic `Message` but its content, in `response_metadata`.
    const { content: _content, ...metadata } = anthropicMessage([], {
      stop_reason: "model_context_window_exceeded",
      ...verdictFields,
    });
    const model = fakeModel()
      .respond(
        new AIMessage({
          content: "",
          tool_calls: [{ id: "t1", name: "lookup", args: { order: "W-5" }, type: "tool_call" }],
          response_metadata: metadata,
        }),
      )
      .respond(
        new AIMessage({
          content: "W-5 ships tomorrow.",
          response_metadata: { ...metadata, stop_reason: "end_turn", input_transformations: [], diagnostics: null },
        }),
      );
    const lookup = langchainTool(async ({ order }: { order: string }) => `${order}: ships tomorrow`, {
      name: "lookup",
      description: "Looks up an order",
      schema: { type: "object", properties: { order: { type: "string" } }, required: ["order"] },
    });
    const agent = createAgent({ model, tools: [lookup], middleware: [middleware] });
    const result = await agent.invoke({ messages: langchainHistory() }, { configurable: { thread_id: "chat" } });
    expect(String(result.messages.at(-1)?.content)).toBe("W-5 ships tomorrow.");
    expect(verdicts.map((verdict) => verdict.kind)).toEqual([
      "context-window-exceeded",
      "thinking-dropped",
      "cache-miss",
    ]);
    expect(verdicts[2]).toEqual({ kind: "cache-miss", reason: "tools_changed", missedTokens: 1_200 });
    const calls = model.calls.map((call) => JSON.stringify(call.messages));
    expect(calls).toHaveLength(2);
    expect(calls[0]).not.toContain("Orders W-1 to W-4 were checked");
    expect(summarized).toBe(1);
    expect(calls[1]).toContain("Orders W-1 to W-4 were checked (1).");
    expect(calls[1]).not.toContain("W1TRK");
  });
});

describe("the Genkit middleware reads the model response's raw", () => {
  it("generate: the raw provider response of one model call is read at the next, whose stop at the context window compacts it", async () => {
    const ai = genkit({});
    const requests: MessageData[][] = [];
    // A model plugin fills `raw` with the provider's own response; this one, with an Anthropic `Message`.
    const model = ai.defineModel(
      { name: "anthropic-like", supports: { tools: true, multiturn: true, systemRole: true } },
      async (request) => {
        requests.push(structuredClone(request.messages));
        if (request.messages.at(-1)!.role === "tool")
          return {
            message: { role: "model", content: [{ text: "W-5 ships tomorrow." }] },
            finishReason: "stop",
            raw: anthropicMessage([], { stop_reason: "end_turn" }),
          };
        return {
          message: {
            role: "model",
            content: [{ toolRequest: { name: "lookup", ref: "t1", input: { order: "W-5" } } }],
          },
          finishReason: "length",
          raw: anthropicMessage([], { stop_reason: "model_context_window_exceeded", ...verdictFields }),
        };
      },
    );
    const lookup = ai.defineTool(
      {
        name: "lookup",
        description: "Looks up an order",
        inputSchema: z.object({ order: z.string() }),
        outputSchema: z.string(),
      },
      async ({ order }) => `${order}: ships tomorrow`,
    );
    const verdicts: ProviderVerdict[] = [];
    let summarized = 0;
    const middleware = toModelMiddleware<MessageData>({
      maxTokens: 100_000,
      summarize: () => `Orders W-1 to W-4 were checked (${++summarized}).`,
      conversationId: "chat",
      events: { onProviderVerdict: (verdict) => verdicts.push(verdict) },
    });
    const messages: MessageData[] = [];
    for (let turn = 1; turn <= 4; turn++) {
      messages.push({ role: "user", content: [{ text: `Check order W-${turn}. ${"context ".repeat(30)}` }] });
      messages.push({
        role: "model",
        content: [{ text: `Order W-${turn} ships with tracking W${turn}TRK. ${"notes ".repeat(40)}` }],
      });
    }
    const response = await ai.generate({
      model,
      system: "You are a support agent.",
      messages,
      prompt: "Now look up order W-5.",
      tools: [lookup],
      use: [middleware],
    });
    expect(response.text).toBe("W-5 ships tomorrow.");
    expect(requests).toHaveLength(2);
    expect(verdicts.map((verdict) => verdict.kind)).toEqual([
      "context-window-exceeded",
      "thinking-dropped",
      "cache-miss",
    ]);
    expect(summarized).toBe(1);
    expect(JSON.stringify(requests[0])).not.toContain("Orders W-1 to W-4 were checked");
    expect(JSON.stringify(requests[1])).toContain("Orders W-1 to W-4 were checked (1).");
    expect(JSON.stringify(requests[1])).not.toContain("W1TRK");
  });
});
