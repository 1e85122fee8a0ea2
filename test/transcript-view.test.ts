// A plan reads its transcript once: the stages ask about messages by index through one view, so a
// caller's isBoundary is asked about each message at most once per plan, and the default rule
// (a user message that carries no tool result) gives the same plans as when it is passed in.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compactor, estimateTokens, statefulCompactor } from "../src/index.js";
import { planCompaction } from "../src/expert.js";
import { formatReads } from "../src/dialects/format-claims.js";
import { isUserBoundary } from "../src/dialects/messages.js";
import { anyTranscriptArbitrary } from "./support/transcripts.js";
import { builders } from "./support/builders.js";

describe("one reading of the transcript per plan", () => {
  it("a caller's isBoundary is asked about each message at most once per plan, in every dialect", () => {
    fc.assert(
      fc.property(
        anyTranscriptArbitrary(),
        fc.double({ min: 0.1, max: 0.9, noNaN: true }),
        ({ messages }, fraction) => {
          const asked = new Map<object, number>();
          const isBoundary = (message: object) => {
            asked.set(message, (asked.get(message) ?? 0) + 1);
            return isUserBoundary(message);
          };
          const maxTokens = Math.max(1, Math.floor(estimateTokens(messages) * fraction));
          planCompaction(messages, { maxTokens, ladder: { isBoundary, maskToolResults: true } });
          // The same object may stand at two indices (a transcript may repeat one), so count by index.
          const times = [...asked.values()];
          const repeats = messages.length - new Set(messages).size;
          expect(times.every((n) => n <= 1 + repeats)).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("the default boundary rule, read through the view, plans exactly as isUserBoundary passed in", () => {
    fc.assert(
      fc.property(
        anyTranscriptArbitrary(),
        fc.double({ min: 0.1, max: 0.9, noNaN: true }),
        ({ messages }, fraction) => {
          const maxTokens = Math.max(1, Math.floor(estimateTokens(messages) * fraction));
          const byDefault = planCompaction(messages, { maxTokens });
          const passedIn = planCompaction(messages, { maxTokens, ladder: { isBoundary: isUserBoundary } });
          expect(passedIn.action).toBe(byDefault.action);
          expect(passedIn.older).toEqual(byDefault.older);
          expect(passedIn.tail).toEqual(byDefault.tail);
        },
      ),
      { numRuns: 150 },
    );
  });
});

// The count reads plain text messages through the view's reading of their format, skipping the
// checks that reading already made (and so do OpenAI chat messages whose content is no list): the
// total must stay `estimateTokens`'s, message by message, for such a message that still carries
// what the estimate treats apart (a Mastra stamp, which the provider never receives; a Responses
// `output` list of images, billed as images; LangChain's serialization wrapper).
describe("the count read through the view", () => {
  const stamp = { mastra: { createdAt: 1_760_000_000_000 } };
  const plainOddities = fc.constantFrom<object>(
    { role: "user", content: "hi", providerOptions: stamp },
    { role: "assistant", content: "done", providerOptions: { ...stamp, openai: { store: false } } },
    {
      role: "user",
      content: "see the screenshot",
      output: [{ type: "input_image", image_url: `data:image/png;base64,${"iVBO".repeat(4_000)}` }],
    },
    { role: "user", content: "日本語のテキスト 🎉 and an emoji" },
    // OpenAI chat messages whose content is text or null, read the same way.
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_9", type: "function", function: { name: "lookup", arguments: "{}" } }],
      providerOptions: stamp,
    },
    {
      role: "tool",
      tool_call_id: "call_9",
      content: "a screenshot follows",
      output: [{ type: "input_image", image_url: `data:image/png;base64,${"iVBO".repeat(4_000)}` }],
    },
    // LangChain's wrapper on a message that has no `type` field: the estimate counts its content, not the wrapper.
    {
      role: "user",
      lc_serializable: true,
      lc_kwargs: { content: "from an older LangChain" },
      lc_namespace: ["langchain_core", "messages"],
      content: "from an older LangChain",
      additional_kwargs: {},
    },
  );

  it("is estimateTokens's for every transcript, plain text messages with a stamp or an output list included", () => {
    fc.assert(
      fc.property(
        anyTranscriptArbitrary(),
        fc.array(fc.tuple(plainOddities, fc.nat()), { maxLength: 4 }),
        ({ messages }, inserts) => {
          const list: object[] = [...messages];
          for (const [message, at] of inserts) list.splice(at % (list.length + 1), 0, message);
          const plan = planCompaction(list, { maxTokens: 10_000_000 });
          expect(plan.tokensBefore).toBe(estimateTokens(list));
        },
      ),
      { numRuns: 200 },
    );
  });
});

/** How often each object's format was told while `run` ran. */
async function readsDuring(run: () => Promise<unknown>): Promise<Map<object, number>> {
  const reads = new Map<object, number>();
  formatReads.observe = (message) => reads.set(message, (reads.get(message) ?? 0) + 1);
  try {
    await run();
  } finally {
    formatReads.observe = undefined;
  }
  return reads;
}

/** Each input message told exactly once; anything else the call met (a summary it wrote or read back from the store, a copy it cut) at most once. */
function expectOncePerMessage(messages: readonly object[], reads: Map<object, number>): void {
  expect(messages.map((message) => reads.get(message) ?? 0)).toEqual(messages.map(() => 1));
  const others = [...reads].filter(([message]) => !messages.includes(message)).map(([, times]) => times);
  expect(others.every((times) => times === 1)).toBe(true);
}

// A call tells each message's format once. Every way the library has of telling which format a
// message is in (`dialectOf`, a dialect's media reader, the detection of the transcript's format,
// the check that each message reads as it) goes through `claimIndexOf`, and the counter hears
// each of its calls, whoever makes it and whether or not the answer was remembered from an
// earlier call. The transcripts are built by `test/support/builders.ts`, each message shaped as
// its provider's SDK types declare it.
describe("one call tells each message's format once", () => {
  const dialectNames = Object.keys(builders) as (keyof typeof builders)[];

  /** A system prompt where the format holds one, then turns with a tool call and its result each. */
  function transcriptOf(name: keyof typeof builders): object[] {
    const build = builders[name] as unknown as Record<string, (...args: unknown[]) => object>;
    // Gemini and Genkit pair calls and results in order, without ids.
    const idOf = (turn: number) => (name === "google-genai" || name === "genkit" ? undefined : `call_${turn}`);
    const messages: object[] = build["system"] ? [build["system"]("You track orders.")] : [];
    for (let turn = 0; turn < 6; turn++) {
      messages.push(
        build["user"]!(
          `Question ${turn}: where is order ${1000 + turn}? ${"Please check the carrier too. ".repeat(12)}`,
        ),
      );
      messages.push(build["toolCall"]!(idOf(turn), "lookup", { order: 1000 + turn }));
      messages.push(
        build["toolResult"]!(idOf(turn), `order ${1000 + turn}: ${"shipped to 12 Elm St, tracking 1Z999 ".repeat(40)}`),
      );
      messages.push(build["assistant"]!(`Order ${1000 + turn} is on its way.`));
    }
    messages.push(build["user"]!("And the last one?"));
    return messages;
  }

  const summarize = () => "Orders 1000 to 1004 shipped.";

  it.each(dialectNames)("%s: under budget", async (name) => {
    const messages = transcriptOf(name);
    const hook = compactor({ maxTokens: estimateTokens(messages) * 2, summarize });
    let result: unknown;
    const reads = await readsDuring(async () => (result = await hook({ messages })));
    expect(result).toBeNull();
    expectOncePerMessage(messages, reads);
  });

  it.each(dialectNames)("%s: under budget with the provider's usage", async (name) => {
    const messages = transcriptOf(name);
    const usage = { inputTokens: estimateTokens(messages.slice(0, -2)), messageCount: messages.length - 2 };
    const hook = compactor({ maxTokens: estimateTokens(messages) * 2, summarize });
    let result: unknown;
    const reads = await readsDuring(async () => (result = await hook({ messages, usage })));
    expect(result).toBeNull();
    expectOncePerMessage(messages, reads);
  });

  it.each(dialectNames)(
    "%s: a compaction, the format detected and pinned, with and without usage, and by masking",
    async (name) => {
      const messages = transcriptOf(name);
      const usage = { inputTokens: estimateTokens(messages.slice(0, -2)), messageCount: messages.length - 2 };
      for (const options of [{}, { format: name }, { ladder: { maskToolResults: { keepRecent: 1 } } }] as const) {
        const strategies: string[] = [];
        const hook = compactor({
          maxTokens: Math.floor(estimateTokens(messages) / 2),
          summarize,
          ...options,
          events: { onCompacted: ({ strategy }) => strategies.push(strategy) },
        });
        expectOncePerMessage(messages, await readsDuring(() => hook({ messages })));
        expectOncePerMessage(messages, await readsDuring(() => hook({ messages, usage })));
        // Masking alone brings this transcript within budget; without it, a summary does.
        expect(strategies).toEqual("ladder" in options ? ["mask", "mask"] : ["summarize", "summarize"]);
      }
    },
  );

  it.each(dialectNames)("%s: a tail whose tool payload is cut to fit", async (name) => {
    const build = builders[name] as unknown as Record<string, (...args: unknown[]) => object>;
    const id = name === "google-genai" || name === "genkit" ? undefined : "call_big";
    const messages = [
      ...transcriptOf(name),
      build["toolCall"]!(id, "lookup", { order: 1 }),
      build["toolResult"]!(id, "x ".repeat(20_000)),
    ];
    const strategies: string[] = [];
    const hook = compactor({
      maxTokens: 4_000,
      summarize,
      events: { onCompacted: ({ strategy }) => strategies.push(strategy) },
    });
    let result: { messages: object[] } | null = null;
    expectOncePerMessage(messages, await readsDuring(async () => (result = await hook({ messages }))));
    expect(strategies).toEqual(["summarize"]);
    expect(JSON.stringify(result)).toContain("characters cut to fit the context window");
  });
});

describe("one stateful call tells each message's format once", () => {
  const dialectNames = Object.keys(builders) as (keyof typeof builders)[];

  function turnsOf(name: keyof typeof builders, from: number, to: number): object[] {
    const build = builders[name] as unknown as Record<string, (...args: unknown[]) => object>;
    const idOf = (turn: number) => (name === "google-genai" || name === "genkit" ? undefined : `call_${turn}`);
    const messages: object[] = [];
    for (let turn = from; turn < to; turn++) {
      messages.push(
        build["user"]!(
          `Question ${turn}: where is order ${1000 + turn}? ${"Please check the carrier too. ".repeat(12)}`,
        ),
      );
      messages.push(build["toolCall"]!(idOf(turn), "lookup", { order: 1000 + turn }));
      messages.push(
        build["toolResult"]!(idOf(turn), `order ${1000 + turn}: ${"shipped to 12 Elm St, tracking 1Z999 ".repeat(40)}`),
      );
      messages.push(build["assistant"]!(`Order ${1000 + turn} is on its way.`));
    }
    return messages;
  }

  it.each(dialectNames)(
    "%s: the first compaction, a call that continues from the state, and one that compacts again, by id and by the automatic key",
    async (name) => {
      const build = builders[name] as unknown as Record<string, (...args: unknown[]) => object>;
      const first = [
        ...(build["system"] ? [build["system"]("You track orders.")] : []),
        ...turnsOf(name, 0, 6),
        build["user"]!("And the last one?"),
      ];
      const grown = [
        ...first,
        build["assistant"]!("All on their way."),
        ...turnsOf(name, 6, 12),
        build["user"]!("Anything else?"),
      ];
      const maxTokens = Math.floor(estimateTokens(first) / 2);
      for (const [id, options] of [
        ["orders", { archive: true }],
        [undefined, {}],
      ] as const) {
        const strategies: string[] = [];
        const stateful = statefulCompactor({
          maxTokens,
          summarize: () => "Orders shipped.",
          ...options,
          events: { onCompacted: ({ strategy }) => strategies.push(strategy) },
        });
        const call = (messages: object[]) => stateful(messages, id === undefined ? {} : { conversationId: id });
        expectOncePerMessage(first, await readsDuring(() => call(first)));
        let continued: { messages: object[] } | null = null;
        expectOncePerMessage(first, await readsDuring(async () => (continued = await call(first))));
        expect(continued!.messages.length).toBeLessThan(first.length);
        expectOncePerMessage(grown, await readsDuring(() => call(grown)));
        expect(strategies).toEqual(["summarize", "summarize"]);
      }
    },
  );
});
