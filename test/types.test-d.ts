import { describe, expectTypeOf, it } from "vitest";
import {
  chainHooks,
  compact,
  compactor,
  planCompaction,
  splitAtUserBoundary,
  type BeforeLlmHook,
  type CompactionPlan,
  type CompactorEvents,
  type CompactorOptions,
  type OverBudgetCause,
  type SummaryContext,
} from "../src/index.js";

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
    expectTypeOf(result).toEqualTypeOf<{ messages: ChatMessage[]; overBudget?: true; overBudgetCause?: OverBudgetCause } | null>();
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
    expectTypeOf(await compact(messages, { maxTokens: 1, summarize: () => "s", force: true })).toEqualTypeOf<{ messages: ChatMessage[]; overBudget?: true; overBudgetCause?: OverBudgetCause } | null>();
    expectTypeOf(planCompaction(messages, { maxTokens: 1 })).toEqualTypeOf<CompactionPlan<ChatMessage>>();
    expectTypeOf(splitAtUserBoundary(messages, { keepTail: 1 }).tail).toEqualTypeOf<ChatMessage[]>();
    const hook: BeforeLlmHook<ChatMessage> = chainHooks(compactor<ChatMessage>({ maxTokens: 1, summarize: () => "s" }));
    expectTypeOf(await hook({ messages })).toEqualTypeOf<{ messages: ChatMessage[]; overBudget?: true; overBudgetCause?: OverBudgetCause } | null>();
  });
});
