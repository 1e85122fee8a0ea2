// The `recall_context` tools in the real frameworks, with stub models: the model calls the tool,
// and the next model request holds what it returned.
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
import { describe, expect, it } from "vitest";
import { recallTool as aiSdkRecallTool, toPrepareStep } from "../../src/adapters/ai-sdk.js";
import { recallTool as agentsRecallTool, toCallModelInputFilter } from "../../src/adapters/openai-agents.js";
import { SUMMARY_PREFIX } from "../../src/expert.js";
import { memoryStore } from "../../src/index.js";
import { recallToolDefinition } from "../../src/tools.js";
import { builders } from "../support/builders.js";

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** An AI SDK conversation whose early tool result holds the fact the agent needs later. */
function aiSdkHistory(tag: string): ModelMessage[] {
  const { user, assistant, toolCall, toolResult } = builders["ai-sdk"];
  const messages: ModelMessage[] = [];
  for (let turn = 1; turn <= 8; turn++) {
    messages.push(user(`Check order ${tag}-${turn}. ${"context ".repeat(30)}`));
    messages.push(toolCall(`c${turn}`, "lookup", { order: `${tag}-${turn}` }));
    messages.push(
      toolResult(`c${turn}`, `Order ${tag}-${turn} ships with tracking ${tag}TRK${turn}99. ${"notes ".repeat(60)}`, {
        name: "lookup",
      }),
    );
    messages.push(assistant(`Order ${tag}-${turn} checked.`));
  }
  messages.push(user(`What was the tracking number of order ${tag}-1?`));
  return messages;
}

describe("recall_context with the AI SDK", () => {
  it("generateText: the model calls recall_context, and its next request holds the archived fact, of its own conversation only", async () => {
    const store = memoryStore();
    // Another conversation, in the same store, compacted with the same fact's shape.
    const other = toPrepareStep({
      maxTokens: 1500,
      summarize: () => "Orders were checked.",
      store,
      archive: true,
      conversationId: "bob",
    });
    await other({ messages: aiSdkHistory("BOB") });

    const prepareStep = toPrepareStep({
      maxTokens: 1500,
      summarize: () => "Orders were checked.",
      store,
      archive: true,
      conversationId: "alice",
    });
    const prompts: unknown[] = [];
    const model = new MockLanguageModelV3({
      doGenerate: async ({ prompt }) => {
        prompts.push(prompt);
        // The model names another conversation in its input: the tool ignores it.
        if (prompts.length === 1)
          return {
            content: [
              {
                type: "tool-call",
                toolCallId: "r1",
                toolName: "recall_context",
                input: JSON.stringify({ query: "TRK1", conversationId: "bob" }),
              },
            ],
            finishReason: { unified: "tool-calls", raw: undefined },
            usage,
            warnings: [],
          };
        return {
          content: [{ type: "text", text: "It was ALICETRK199." }],
          finishReason: { unified: "stop", raw: undefined },
          usage,
          warnings: [],
        };
      },
    });
    const result = await generateText({
      model,
      messages: aiSdkHistory("ALICE"),
      prepareStep,
      tools: { recall_context: aiSdkRecallTool(prepareStep, { conversationId: "alice" }) },
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe("It was ALICETRK199.");
    expect(prompts).toHaveLength(2);
    const first = JSON.stringify(prompts[0]);
    // The first request was compacted: the fact is out of view, and the summary says how to recall it.
    expect(first).not.toContain("ALICETRK199");
    expect(first).toContain(SUMMARY_PREFIX.trim().replace(/[[\]]/g, ""));
    expect(first).toContain("recall_context");
    const second = JSON.stringify(prompts[1]);
    expect(second).toContain("ALICETRK199");
    expect(second).toContain("<transcript>");
    expect(second).not.toContain("BOBTRK");
    // The tool is declared with the one shared name, description and JSON schema.
    const declared = (model.doGenerateCalls[0]!.tools ?? []).find((tool) => tool.name === "recall_context") as {
      description?: string;
      inputSchema?: unknown;
    };
    expect(declared.description).toBe(recallToolDefinition.description);
    expect(declared.inputSchema).toMatchObject(recallToolDefinition.inputSchema);
  });
});

/** A Responses-items conversation for `@openai/agents`, as `aiSdkHistory`. */
// @openai/agents' own spellings, kept as written: easy user items, assistant items without a
// `type`, and structured `{ type: "text" }` outputs.
function agentsHistory(tag: string): AgentInputItem[] {
  const items: AgentInputItem[] = [];
  for (let turn = 1; turn <= 8; turn++) {
    items.push({ role: "user", content: `Check order ${tag}-${turn}. ${"context ".repeat(30)}` });
    items.push({
      type: "function_call",
      callId: `c${turn}`,
      name: "lookup",
      arguments: JSON.stringify({ order: `${tag}-${turn}` }),
      status: "completed",
    });
    items.push({
      type: "function_call_result",
      callId: `c${turn}`,
      name: "lookup",
      status: "completed",
      output: {
        type: "text",
        text: `Order ${tag}-${turn} ships with tracking ${tag}TRK${turn}99. ${"notes ".repeat(60)}`,
      },
    });
    items.push({
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: `Order ${tag}-${turn} checked.` }],
    });
  }
  items.push({ role: "user", content: `What was the tracking number of order ${tag}-1?` });
  return items;
}

describe("recall_context with the OpenAI Agents SDK", () => {
  it("run: the model calls recall_context, and its next request holds the archived fact, of its own conversation only", async () => {
    setTracingDisabled(true);
    const store = memoryStore();
    const conversationId = ({ context }: { context?: unknown }) => (context as { chatId: string }).chatId;
    const callModelInputFilter = toCallModelInputFilter({
      maxTokens: 1500,
      summarize: () => "Orders were checked.",
      store,
      archive: true,
      conversationId,
    });
    await callModelInputFilter({ modelData: { input: agentsHistory("BOB") }, context: { chatId: "bob" } } as never);

    const requests: ModelRequest[] = [];
    const model: Model = {
      async getResponse(request) {
        requests.push(request);
        const output =
          requests.length === 1
            ? [
                {
                  type: "function_call" as const,
                  callId: "r1",
                  name: "recall_context",
                  arguments: JSON.stringify({ query: "TRK1", conversationId: "bob" }),
                  status: "completed" as const,
                },
              ]
            : [
                {
                  type: "message" as const,
                  role: "assistant" as const,
                  status: "completed" as const,
                  content: [{ type: "output_text" as const, text: "It was ALICETRK199." }],
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
      instructions: "Answer from the orders.",
      model,
      tools: [agentsRecallTool(callModelInputFilter, { conversationId })],
    });
    const result = await run(agent, agentsHistory("ALICE"), {
      callModelInputFilter,
      context: { chatId: "alice" },
      maxTurns: 3,
    });
    expect(result.finalOutput).toBe("It was ALICETRK199.");
    expect(requests).toHaveLength(2);
    expect(JSON.stringify(requests[0]!.input)).not.toContain("ALICETRK199");
    const declared = requests[0]!.tools.find((tool) => tool.type === "function" && tool.name === "recall_context") as {
      description?: string;
      parameters?: unknown;
      strict?: boolean;
    };
    expect(declared).toMatchObject({
      description: recallToolDefinition.description,
      parameters: recallToolDefinition.inputSchema,
      strict: true,
    });
    const second = JSON.stringify(requests[1]!.input);
    expect(second).toContain("ALICETRK199");
    expect(second).not.toContain("BOBTRK");
  });
});

describe("the recall tool's name is one name", () => {
  it("archive.toolName names the tool in the summary's line, and the tools made from the compactor take it", async () => {
    const store = memoryStore();
    const prepareStep = toPrepareStep({
      maxTokens: 1500,
      summarize: () => "Orders were checked.",
      store,
      archive: { toolName: "recall" },
      conversationId: "alice",
    });
    expect(prepareStep.recallToolName).toBe("recall");
    const compacted = (await prepareStep({ messages: aiSdkHistory("ALICE") })) as { messages?: unknown[] };
    const sent = JSON.stringify(compacted.messages);
    // The line tells the model to call the tool by the name it is registered under.
    expect(sent).toContain("call recall with an identifier");
    expect(sent).not.toContain("recall_context");
    // The AI SDK tool is listed under that key; a different name is refused, saying how to agree.
    expect(() => aiSdkRecallTool(prepareStep, { name: "recall" })).not.toThrow();
    expect(() => aiSdkRecallTool(prepareStep, { name: "lookup_archive" })).toThrow(
      /`recall`, the name the compactor's summaries tell the model to call, got `lookup_archive`: make the compactor with `archive: \{ toolName: "lookup_archive" \}`/,
    );
    const filter = toCallModelInputFilter({
      maxTokens: 1500,
      summarize: () => "s",
      store,
      archive: { toolName: "recall" },
    });
    expect(agentsRecallTool(filter).name).toBe("recall");
    // A compactor that keeps the default name refuses a tool registered under another one.
    const plain = toCallModelInputFilter({ maxTokens: 1500, summarize: () => "s", store, archive: true });
    expect(agentsRecallTool(plain).name).toBe("recall_context");
    expect(() => agentsRecallTool(plain, { name: "recall" })).toThrow(TypeError);
    expect(() =>
      toPrepareStep({ maxTokens: 1500, summarize: () => "s", archive: { toolName: "recall context" } }),
    ).toThrow(/archive\.toolName/);
  });
});
