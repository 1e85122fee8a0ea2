// The `compact_context` tool in the real frameworks, with offline models: the model asks for a
// compaction, the next request holds a summary made with the model's note (the call is read from
// the conversation's own messages), and a second request right after it, or one on a small
// context, changes nothing.
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import {
  Agent,
  Usage,
  run,
  setTracingDisabled,
  type AgentInputItem,
  type Model,
  type ModelRequest,
} from "@openai/agents";
import { generateText, stepCountIs, type ModelMessage } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { createAgent } from "langchain";
import { readCompactContext } from "../../src/tools.js";
import { describe, expect, it } from "vitest";
import { compactTool as aiSdkCompactTool, toPrepareStep } from "../../src/adapters/ai-sdk.js";
import { compactTool as agentsCompactTool, toCallModelInputFilter } from "../../src/adapters/openai-agents.js";
import { compactTool as langchainCompactTool, toAgentMiddleware } from "../../src/adapters/langchain.js";
import { SUMMARY_PREFIX } from "../../src/expert.js";
import { compactToolDefinition } from "../../src/tools.js";
import { memoryStore, type SummaryContext } from "../../src/index.js";
import { builders } from "../support/builders.js";

const NOTE = "order W-3 and its tracking number W3TRK";
const requested =
  /Compaction requested: before your next step, the finished work is summarized, keeping what you noted, when that frees at least 500 tokens/;

/** A summarizer that says what it was asked to keep, and records the instructions it got. */
function notingSummarizer() {
  const instructions: (string | undefined)[] = [];
  const summarize = (_older: unknown[], context: SummaryContext) => {
    instructions.push(context.instructions);
    return `Orders 1 to 6 were checked. ${context.instructions?.includes(NOTE) ? `Kept as asked: ${NOTE}.` : ""}`;
  };
  return { summarize, instructions };
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

function aiSdkHistory(): ModelMessage[] {
  const { user, assistant, toolCall, toolResult } = builders["ai-sdk"];
  const messages: ModelMessage[] = [];
  for (let turn = 1; turn <= 6; turn++) {
    messages.push(user(`Check order W-${turn}. ${"context ".repeat(30)}`));
    messages.push(toolCall(`c${turn}`, "lookup", { order: `W-${turn}` }));
    messages.push(
      toolResult(`c${turn}`, `Order W-${turn} ships with tracking W${turn}TRK. ${"notes ".repeat(60)}`, {
        name: "lookup",
      }),
    );
    messages.push(assistant(`Order W-${turn} checked.`));
  }
  messages.push(user("Now plan the refund for order W-3."));
  return messages;
}

describe("compact_context with the AI SDK", () => {
  it("generateText: the model asks, the next step's request holds a summary made with its note; asking again at once changes nothing", async () => {
    const { summarize, instructions } = notingSummarizer();
    // A budget the conversation never crosses: only the model's request compacts.
    const prepareStep = toPrepareStep({
      maxTokens: 100_000,
      summarize,
      store: memoryStore(),
      conversationId: "alice",
      compactTool: readCompactContext({ minTokens: 500 }),
    });
    const prompts: string[] = [];
    const answers: string[] = [];
    const model = new MockLanguageModelV3({
      doGenerate: async ({ prompt }) => {
        prompts.push(JSON.stringify(prompt));
        const toolResult = [...prompt]
          .reverse()
          .find((message) => message.role === "tool" && JSON.stringify(message.content).includes("compact_context"));
        if (toolResult !== undefined) answers.push(JSON.stringify(toolResult.content));
        if (prompts.length <= 2)
          return {
            content: [
              {
                type: "tool-call",
                toolCallId: `k${prompts.length}`,
                toolName: "compact_context",
                input: JSON.stringify({ keep: NOTE }),
              },
            ],
            finishReason: { unified: "tool-calls", raw: undefined },
            usage,
            warnings: [],
          };
        return {
          content: [{ type: "text", text: "Refund planned." }],
          finishReason: { unified: "stop", raw: undefined },
          usage,
          warnings: [],
        };
      },
    });
    const compact_context = aiSdkCompactTool(prepareStep);
    const result = await generateText({
      model,
      messages: aiSdkHistory(),
      prepareStep,
      tools: { compact_context },
      stopWhen: stepCountIs(4),
    });
    expect(result.text).toBe("Refund planned.");
    expect(prompts).toHaveLength(3);
    expect(prompts[0]).not.toContain(SUMMARY_PREFIX.trim().slice(1, -1));
    // The step after the request: compacted, with the note reaching summarize and the summary.
    expect(instructions).toHaveLength(1);
    expect(instructions[0]).toContain(NOTE);
    expect(prompts[1]).toContain(SUMMARY_PREFIX.trim().slice(1, -1));
    expect(prompts[1]).toContain(`Kept as asked: ${NOTE}.`);
    expect(prompts[1]).not.toContain("W1TRK");
    expect(answers[0]).toMatch(requested);
    // The second request came right after the compaction it asked for: nothing finished since frees anything.
    expect(answers[1]).toMatch(requested);
    expect(instructions).toHaveLength(1);
    // The tool is declared with the shared name, description and JSON schema.
    const declared = (model.doGenerateCalls[0]!.tools ?? []).find((tool) => tool.name === "compact_context") as {
      description?: string;
      inputSchema?: unknown;
    };
    expect(declared.description).toBe(compactToolDefinition.description);
    expect(declared.inputSchema).toMatchObject(compactToolDefinition.inputSchema);
  });

  it("a request that cannot free the minimum is not taken", async () => {
    const { summarize, instructions } = notingSummarizer();
    const prepareStep = toPrepareStep({
      maxTokens: 100_000,
      summarize,
      store: memoryStore(),
      conversationId: "small",
      compactTool: readCompactContext(),
    });
    // The default minimum is a tenth of the budget, 10,000 tokens: this conversation holds about 3,000.
    const answer = await aiSdkCompactTool(prepareStep).execute({ keep: NOTE }, {});
    expect(answer).toMatch(/when that frees at least 10000 tokens/);
    const { toolCall, toolResult } = builders["ai-sdk"];
    const asked = [
      ...aiSdkHistory(),
      toolCall("k", "compact_context", { keep: NOTE }),
      toolResult("k", answer, { name: "compact_context" }),
    ];
    expect(await prepareStep({ messages: asked })).toEqual({});
    expect(instructions).toHaveLength(0);
    // A tool over a compactor that does not read its calls is refused when it is made, with the fix.
    expect(() => aiSdkCompactTool(toPrepareStep({ maxTokens: 100_000, summarize, store: memoryStore() }))).toThrow(
      /compactTool: readCompactContext\(\)/,
    );
  });
});

function agentsHistory(): AgentInputItem[] {
  const items: AgentInputItem[] = [];
  for (let turn = 1; turn <= 6; turn++) {
    items.push({ role: "user", content: `Check order W-${turn}. ${"context ".repeat(30)}` });
    items.push({
      type: "function_call",
      callId: `c${turn}`,
      name: "lookup",
      arguments: JSON.stringify({ order: `W-${turn}` }),
      status: "completed",
    });
    items.push({
      type: "function_call_result",
      callId: `c${turn}`,
      name: "lookup",
      status: "completed",
      output: { type: "text", text: `Order W-${turn} ships with tracking W${turn}TRK. ${"notes ".repeat(60)}` },
    });
    items.push({
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: `Order W-${turn} checked.` }],
    });
  }
  items.push({ role: "user", content: "Now plan the refund for order W-3." });
  return items;
}

describe("compact_context with the OpenAI Agents SDK", () => {
  it("run: the model asks, the next model call's input holds a summary made with its note, of its own conversation only", async () => {
    setTracingDisabled(true);
    const { summarize, instructions } = notingSummarizer();
    const store = memoryStore();
    const conversationId = ({ context }: { context?: unknown }) => (context as { chatId: string }).chatId;
    const callModelInputFilter = toCallModelInputFilter({
      maxTokens: 100_000,
      summarize,
      store,
      conversationId,
      compactTool: readCompactContext({ minTokens: 500 }),
    });
    // Another conversation on the same filter: the request is alice's, and bob's next call stays as it is.
    await callModelInputFilter({ modelData: { input: agentsHistory() }, context: { chatId: "bob" } } as never);
    const requests: ModelRequest[] = [];
    const model: Model = {
      async getResponse(request) {
        requests.push(request);
        const output =
          requests.length <= 2
            ? [
                {
                  type: "function_call" as const,
                  callId: `k${requests.length}`,
                  name: "compact_context",
                  arguments: JSON.stringify({ keep: NOTE }),
                  status: "completed" as const,
                },
              ]
            : [
                {
                  type: "message" as const,
                  role: "assistant" as const,
                  status: "completed" as const,
                  content: [{ type: "output_text" as const, text: "Refund planned." }],
                },
              ];
        return { usage: new Usage(), output };
      },
      getStreamedResponse() {
        throw new Error("not streamed");
      },
    };
    const agent = new Agent({
      name: "support",
      instructions: "Help with orders.",
      model,
      tools: [agentsCompactTool(callModelInputFilter)],
    });
    const result = await run(agent, agentsHistory(), {
      callModelInputFilter,
      context: { chatId: "alice" },
      maxTurns: 4,
    });
    expect(result.finalOutput).toBe("Refund planned.");
    expect(requests).toHaveLength(3);
    expect(instructions).toEqual([expect.stringContaining(NOTE)]);
    const second = JSON.stringify(requests[1]!.input);
    expect(second).toContain(`Kept as asked: ${NOTE}.`);
    expect(second).not.toContain("W1TRK");
    expect(second).toMatch(requested);
    expect(JSON.stringify(requests[2]!.input)).not.toContain("W1TRK");
    const declared = requests[0]!.tools.find((tool) => tool.type === "function" && tool.name === "compact_context") as {
      description?: string;
      parameters?: unknown;
      strict?: boolean;
    };
    expect(declared).toMatchObject({
      description: compactToolDefinition.description,
      parameters: compactToolDefinition.inputSchema,
      strict: true,
    });
    // Bob's conversation was never asked for: his next call is under budget, and nothing is summarized.
    expect(
      await callModelInputFilter({ modelData: { input: agentsHistory() }, context: { chatId: "bob" } } as never),
    ).toEqual({ input: agentsHistory() });
    expect(instructions).toHaveLength(1);
  });
});

function langchainHistory(): BaseMessage[] {
  const messages: BaseMessage[] = [];
  for (let turn = 1; turn <= 6; turn++) {
    messages.push(new HumanMessage(`Check order W-${turn}. ${"context ".repeat(30)}`));
    messages.push(
      new AIMessage({
        content: "",
        tool_calls: [{ id: `c${turn}`, name: "lookup", args: { order: `W-${turn}` }, type: "tool_call" }],
      }),
    );
    messages.push(
      new ToolMessage({
        tool_call_id: `c${turn}`,
        content: `Order W-${turn} ships with tracking W${turn}TRK. ${"notes ".repeat(60)}`,
      }),
    );
    messages.push(new AIMessage(`Order W-${turn} checked.`));
  }
  messages.push(new HumanMessage("Now plan the refund for order W-3."));
  return messages;
}

describe("compact_context with LangChain createAgent", () => {
  it("the model asks, and the middleware compacts the thread before the next model call, with the note", async () => {
    const { summarize, instructions } = notingSummarizer();
    const middleware = toAgentMiddleware({
      maxTokens: 100_000,
      summarize,
      compactTool: readCompactContext({ minTokens: 500 }),
    });
    const model = fakeModel();
    model.respond(
      new AIMessage({
        content: "",
        tool_calls: [{ id: "k1", name: "compact_context", args: { keep: NOTE }, type: "tool_call" }],
      }),
    );
    model.respond(
      new AIMessage({
        content: "",
        tool_calls: [{ id: "k2", name: "compact_context", args: { keep: NOTE }, type: "tool_call" }],
      }),
    );
    model.respond(new AIMessage("Refund planned."));
    const agent = createAgent({ model, tools: [langchainCompactTool(middleware)], middleware: [middleware] });
    const result = await agent.invoke({ messages: langchainHistory() }, { configurable: { thread_id: "alice" } });
    expect(String(result.messages.at(-1)?.content)).toBe("Refund planned.");
    const calls = model.calls.map((call) => JSON.stringify(call.messages));
    expect(calls).toHaveLength(3);
    expect(instructions).toEqual([expect.stringContaining(NOTE)]);
    expect(calls[1]).toContain(`Kept as asked: ${NOTE}.`);
    expect(calls[1]).not.toContain("W1TRK");
    expect(calls[2]).toMatch(requested);
    // Another thread on the same middleware was never asked for.
    const other = await createAgent({
      model: fakeModel().respond(new AIMessage("Fine.")),
      tools: [],
      middleware: [middleware],
    }).invoke({ messages: langchainHistory() }, { configurable: { thread_id: "bob" } });
    expect(JSON.stringify(other.messages)).not.toContain(`Kept as asked`);
    expect(instructions).toHaveLength(1);
  });
});
