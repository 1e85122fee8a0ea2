// The plain hook keeps nothing between calls (SPEC §39): one hook (or adapter) serving two
// conversations interleaved, with no ids, carries nothing of one into the other's summarize,
// verdicts or request; the same event gives the same result whatever came before it; and a
// finished conversation leaves nothing on the heap.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { readCompactContext } from "../src/tools.js";
import { describe, expect, it } from "vitest";
import { toModelMiddleware } from "../src/adapters/genkit.js";
import { compactor, type ProviderVerdict, type SummaryContext } from "../src/index.js";
import { readProviderVerdicts } from "../src/expert.js";
import { builders } from "./support/builders.js";
import { anthropicReply } from "./support/anthropic-reply.js";

const { user, assistant, toolCall, toolResult } = builders.anthropic;

const conversation = (tag: string) => [
  user(`${tag}: fix the build.`),
  toolCall(`${tag}1`, "read_file", { path: `src/${tag}.ts` }),
  toolResult(`${tag}1`, `export const ${tag} = 1;`),
  assistant(`${tag}: it is fixed.`),
  user(`${tag}: now the tests.`),
];

describe("one plain hook, two conversations, no ids", () => {
  it("maps a response's verdict onto the transcript it came with, never the other conversation's last request", async () => {
    const verdicts: ProviderVerdict[] = [];
    const hook = compactor({
      maxTokens: 100_000,
      format: "anthropic",
      summarize: () => "s",
      verdicts: readProviderVerdicts(),
      events: { onProviderVerdict: (verdict) => verdicts.push(verdict) },
    });
    const alice = conversation("alice");
    const bob = conversation("bob");
    await hook({ messages: alice });
    await hook({ messages: bob });
    const response = anthropicReply({
      input_transformations: [
        { type: "thinking_dropped", path: "messages.1.content.0", reason: "prefix_binding_mismatch" },
      ],
    } as never);
    await hook({ messages: [...alice, assistant("alice: running them.")], response });
    expect(verdicts).toHaveLength(1);
    expect(verdicts[0]!.kind === "thinking-dropped" && verdicts[0]!.message).toBe(alice[1]);
  });

  it("a stop at the context window compacts the conversation it came with, and not the next one", async () => {
    const summarized: string[] = [];
    const summarize = (older: object[]) => {
      summarized.push(JSON.stringify(older));
      return "summary";
    };
    const hook = compactor({ maxTokens: 100_000, format: "anthropic", summarize });
    const alice = [...conversation("alice"), assistant("alice: ran them."), user("alice: and the lint?")];
    expect(
      await hook({ messages: alice, response: anthropicReply({ stop_reason: "model_context_window_exceeded" }) }),
    ).not.toBeNull();
    expect(
      await hook({ messages: [...conversation("bob"), assistant("bob: ran them."), user("bob: and the lint?")] }),
    ).toBeNull();
    expect(summarized).toHaveLength(1);
    expect(summarized[0]).toContain("alice");
  });

  it("the same event gives the same result whatever the hook did before", async () => {
    const summarize = (older: object[], context: SummaryContext) =>
      `${older.length} messages, room ${context.maxSummaryTokens}, ${context.instructions ?? "no note"}`;
    const hook = compactor({ maxTokens: 400, format: "anthropic", summarize });
    const long = (tag: string) =>
      Array.from({ length: 8 }, (_, turn) => [
        user(`${tag} ${turn}: ${"detail ".repeat(30)}`),
        assistant(`${tag} ${turn}: ${"answer ".repeat(30)}`),
      ])
        .flat()
        .concat(user(`${tag}: last`));
    const alice = long("alice");
    const usage = { inputTokens: 700, messageCount: 9 };
    const first = await hook({ messages: alice, usage });
    await hook({ messages: long("bob") });
    // Reports of another conversation, far apart: a hook that learnt from them would count alice's differently.
    await hook({ messages: [...long("carol"), ...long("carol")], usage: { inputTokens: 200, messageCount: 2 } });
    await hook({ messages: [...long("carol"), ...long("carol")], usage: { inputTokens: 6_000, messageCount: 30 } });
    const again = await hook({ messages: alice, usage });
    expect(again).toEqual(first);
  });
});

describe("one Genkit middleware, two conversations, no ids", () => {
  it("a context-window stop of one conversation's model call forces no summary of the other's", async () => {
    const summarized: string[] = [];
    const middleware = toModelMiddleware({
      maxTokens: 100_000,
      summarize: (older) => (summarized.push(JSON.stringify(older)), "summary"),
    });
    const messages = (tag: string) =>
      Array.from({ length: 4 }, (_, turn) => [
        { role: "user", content: [{ text: `${tag} ${turn}: ${"context ".repeat(30)}` }] },
        { role: "model", content: [{ text: `${tag} ${turn}: ok` }] },
      ])
        .flat()
        .concat({ role: "user", content: [{ text: `${tag}: next` }] });
    await middleware({ messages: messages("alice") }, async () => ({
      raw: anthropicReply({ stop_reason: "model_context_window_exceeded" }),
    }));
    await middleware({ messages: messages("bob") }, async () => ({}));
    expect(summarized).toEqual([]);
  });
});

describe("memory", () => {
  it("120 finished conversations with a 1 MB tool output each leave nothing of them on the heap", () => {
    // A fresh process with the collector at hand: the built package, as a user runs it.
    const entry = fileURLToPath(new URL("../dist/index.js", import.meta.url));
    const script = `
      const { compactor } = await import(${JSON.stringify(entry)});
      const hook = compactor({ maxTokens: 1_000_000, summarize: () => "s" });
      globalThis.gc(); const before = process.memoryUsage().heapUsed;
      for (let index = 0; index < 120; index++) {
        const output = "x".repeat(1_000_000) + index;
        const messages = [{ role: "user", content: "read it" }, { role: "assistant", content: null, tool_calls: [{ id: "c" + index, type: "function", function: { name: "read", arguments: "{}" } }] }, { role: "tool", tool_call_id: "c" + index, content: output }, { role: "user", content: "thanks" }];
        await hook({ messages, conversationId: "c" + index, response: { usage: { prompt_tokens: 260000 } } });
      }
      globalThis.gc(); await new Promise((resolve) => setTimeout(resolve, 10)); globalThis.gc();
      process.stdout.write(String(Math.round((process.memoryUsage().heapUsed - before) / 1e6)));
    `;
    const grownMb = Number(
      execFileSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], { encoding: "utf8" }),
    );
    // 120 MB when each conversation's last request was kept (300 MB for 300); a few MB of code and caches now.
    expect(grownMb).toBeLessThan(30);
  });
});

describe("one LangChain middleware, two threads, no thread_id", () => {
  it("one user's compact_context note never reaches the other's summarize", async () => {
    const { AIMessage, HumanMessage, ToolMessage } = await import("@langchain/core/messages");
    const { toAgentMiddleware } = await import("../src/adapters/langchain.js");
    const notes: (string | undefined)[] = [];
    const middleware = toAgentMiddleware({
      maxTokens: 100_000,
      compactTool: readCompactContext({ minTokens: 500 }),
      summarize: (_older, context) => (notes.push(context.instructions), "summary"),
    });
    const beforeModel = (
      middleware as unknown as { beforeModel: (state: { messages: unknown[] }, runtime: unknown) => Promise<unknown> }
    ).beforeModel;
    const work = (tag: string) =>
      Array.from({ length: 8 }, (_, step) => [
        new AIMessage({
          content: "",
          tool_calls: [{ id: `${tag}${step}`, name: "lookup", args: {}, type: "tool_call" }],
        }),
        new ToolMessage({ tool_call_id: `${tag}${step}`, content: `${tag} ${"record ".repeat(200)}` }),
      ]).flat();
    const alice = [
      new HumanMessage("alice: check my card"),
      ...work("a"),
      new AIMessage({
        content: "",
        tool_calls: [
          {
            id: "k",
            name: "compact_context",
            args: { keep: "the customer's card 4111 1111 1111 1111, exp 09/29" },
            type: "tool_call",
          },
        ],
      }),
      new ToolMessage({ tool_call_id: "k", content: "ok" }),
    ];
    const bob = [
      new HumanMessage("bob: long question"),
      ...work("b"),
      new AIMessage("done"),
      new HumanMessage("bob: and then?"),
    ];
    await beforeModel({ messages: alice }, {});
    await beforeModel({ messages: bob }, {});
    expect(notes).toEqual([expect.stringContaining("4111 1111 1111 1111")]);
  });
});
