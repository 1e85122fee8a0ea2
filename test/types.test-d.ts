import type { BaseMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { createMiddleware } from "langchain";
import { describe, expectTypeOf, it } from "vitest";
import { toAgentMiddleware, compactTool, recallTool, type RecallToolConfig } from "../src/adapters/langchain.js";
import { chainHooks, planCompaction, splitAtUserBoundary, type CompactionPlan } from "../src/expert.js";
import {
  compact,
  compactor,
  type BeforeLlmHook,
  type CompactorEvents,
  type CompactorOptions,
  type OverBudgetCause,
  type SummaryContext,
} from "../src/index.js";
import { compactToolDefinition, recallToolDefinition } from "../src/tools.js";

interface ChatMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string | null;
  tool_call_id?: string;
}
declare const messages: ChatMessage[];

describe("types", () => {
  it("the hook returns the message type it is given", async () => {
    const hook = compactor({ maxTokens: 10, summarize: () => "s" });
    const result = await hook({ messages });
    expectTypeOf(result).toEqualTypeOf<{
      messages: ChatMessage[];
      overBudget?: true;
      overBudgetCause?: OverBudgetCause;
    } | null>();
  });

  it("a typed compactor gives summarize typed messages and a context", () => {
    compactor<ChatMessage>({
      maxTokens: 10,
      summarize: (older, context) => {
        expectTypeOf(older).toEqualTypeOf<ChatMessage[]>();
        expectTypeOf(context).toEqualTypeOf<SummaryContext>();
        expectTypeOf(context.signal).toEqualTypeOf<AbortSignal>();
        return "s";
      },
      ladder: { isBoundary: (message) => message.role === "user" },
      countTokens: (list) => list.length,
    });
  });

  it("summarize may be async or one-argument", () => {
    compactor({ maxTokens: 10, summarize: async (older: ChatMessage[]) => `${older.length}` });
    // @ts-expect-error a summarize must return text
    compactor({ maxTokens: 10, summarize: () => 42 });
  });

  it("options are checked", () => {
    // @ts-expect-error maxTokens is required
    compactor({ summarize: () => "s" });
    // @ts-expect-error summary.role is auto, system or user
    compactor({ maxTokens: 10, summarize: () => "s", summary: { role: "assistant" } });
    // @ts-expect-error a grouped option is not taken at the top level
    compactor({ maxTokens: 10, summarize: () => "s", maskToolResults: true });
    // @ts-expect-error minFreedTokens belongs inside ladder.maskToolResults
    compactor({ maxTokens: 10, summarize: () => "s", ladder: { minFreedTokens: 5 } });
    expectTypeOf<CompactorOptions<ChatMessage>["events"]>().toEqualTypeOf<CompactorEvents | undefined>();
  });

  it("compact, planCompaction, splitAtUserBoundary and chainHooks keep the type", async () => {
    expectTypeOf(await compact(messages, { maxTokens: 1, summarize: () => "s", force: true })).toEqualTypeOf<{
      messages: ChatMessage[];
      overBudget?: true;
      overBudgetCause?: OverBudgetCause;
    } | null>();
    expectTypeOf(planCompaction(messages, { maxTokens: 1 })).toEqualTypeOf<CompactionPlan<ChatMessage>>();
    expectTypeOf(splitAtUserBoundary(messages, { keepTail: 1 }).tail).toEqualTypeOf<ChatMessage[]>();
    const hook: BeforeLlmHook<ChatMessage> = chainHooks(compactor<ChatMessage>({ maxTokens: 1, summarize: () => "s" }));
    expectTypeOf(await hook({ messages })).toEqualTypeOf<{
      messages: ChatMessage[];
      overBudget?: true;
      overBudgetCause?: OverBudgetCause;
    } | null>();
  });

  it("the LangChain entry returns what LangChain's own functions return", () => {
    // The entry writes these return types out, so that its declarations, emitted without the
    // LangChain packages (build.mjs), name them. Each must be the type LangChain's function gives
    // for the same arguments: `tool` of @langchain/core/tools (its JSON-schema overload,
    // node_modules/@langchain/core/dist/tools/index.d.ts) and `createMiddleware` of langchain
    // (node_modules/langchain/dist/agents/middleware.d.ts).
    const config = (input: unknown, _config: RecallToolConfig) => `${String(input)}`;
    const recall = tool(config, {
      name: "recall_context" as string,
      description: "",
      schema: { ...recallToolDefinition.inputSchema, properties: { ...recallToolDefinition.inputSchema.properties } },
    });
    expectTypeOf(recallTool).returns.toEqualTypeOf<typeof recall>();
    const compactTools = tool(config, {
      name: compactToolDefinition.name,
      description: "",
      schema: { ...compactToolDefinition.inputSchema, properties: { ...compactToolDefinition.inputSchema.properties } },
    });
    expectTypeOf(compactTool).returns.toEqualTypeOf<typeof compactTools>();
    const middleware = createMiddleware({
      name: "ContextCompactorMiddleware",
      beforeModel: async (state: { messages: BaseMessage[] }, _runtime: { configurable?: { thread_id?: unknown } }) =>
        state.messages.length > 0 ? undefined : { messages: state.messages },
    });
    expectTypeOf(toAgentMiddleware).returns.toEqualTypeOf<typeof middleware>();
  });
});
