// After a compaction the agent can still see the facts it will need: the identifier scanner, cuts
// that name what they removed, and a model-free summary that ranks facts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SUMMARY_PREFIX, findToolPairProblems } from "../src/expert.js";
import { compact, estimateTokens, extractiveSummary, type SummaryContext } from "../src/index.js";
import { renderTranscript } from "../src/summary-kit.js";
import { truncateToolPayloads } from "../src/plan/truncate-tool-payloads.js";
import { identifiersOf } from "../src/text/scan-identifiers.js";
import { countWordPieces } from "../src/counting/word-pieces.js";
import { dialects, transcriptArbitrary } from "./support/transcripts.js";
import { builders } from "./support/builders.js";

const textTokens = (text: string) => Math.ceil(new TextEncoder().encode(JSON.stringify(text)).length / 4);
const { toolResult: result } = builders["openai-chat"];
const call = (id: string, name: string, args: unknown) =>
  builders["openai-chat"].toolCall(id, name, JSON.stringify(args));

describe("the identifier scanner", () => {
  it.each([
    ["an order id", "Order #W2378156 shipped.", "#W2378156"],
    ["a flight number", "Flight HAT106 leaves at 10:30.", "HAT106"],
    ["a snake_case id with digits", "use gift_card_7480005 first", "gift_card_7480005"],
    ["a path", "see src/app/main.ts, line 4", "src/app/main.ts"],
    ["a file name", "edit models.py now", "models.py"],
    ["an amount", "refund of 250.00 dollars", "250.00"],
    ["a date", "on 2024-05-01.", "2024-05-01"],
    ["an email", "mail ada@example.com today", "ada@example.com"],
    ["a URL", "open https://example.com/a?b=1&c=2 please", "https://example.com/a?b=1&c=2"],
    ["a camelCase name", "call getUserName()", "getUserName"],
    ["a PascalCase class", "raise HttpResponseError", "HttpResponseError"],
    ["a dotted method", "obj.query.add_distinct_fields(x)", "obj.query.add_distinct_fields"],
  ])("finds %s", (_, text, identifier) => {
    expect(identifiersOf(text)).toContain(identifier);
  });

  it("leaves plain words and punctuation alone", () => {
    expect(identifiersOf("Hello, the user is happy. Thanks! e.g. i.e. -- ... ///")).toEqual([]);
  });

  it("never throws and returns only substrings of its input", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), (text) => {
        for (const identifier of identifiersOf(text)) expect(text).toContain(identifier);
      }),
      { numRuns: 500 },
    );
  });
});

describe("cuts say what they removed", () => {
  const middle = "order_id #W5555555 and tracking 982350112 and sk-live-0123456789abcdefABCDEF";
  const long = `${"head ".repeat(500)}${middle}${" tail".repeat(500)}`;

  it("the renderer's marker lists the identifiers of the cut part, secrets left out", () => {
    const text = renderTranscript([call("c1", "lookup", {}), result("c1", long)], { maxResultChars: 200 });
    expect(text).toMatch(/characters left out; it named [^\n]*#W5555555/);
    expect(text).toContain("982350112");
    expect(text).not.toContain("sk-live-0123456789abcdefABCDEF");
  });

  it("the truncation marker lists them too, and a second pass changes nothing", () => {
    const messages = [{ role: "user", content: "go" }, call("c1", "lookup", {}), result("c1", long)];
    const truncation = truncateToolPayloads(messages, 300, undefined)!;
    expect(truncation).toBeDefined();
    const cut = truncation.messages[2] as { content: string };
    expect(cut.content).toMatch(/characters cut to fit the context window; it named [^\n]*#W5555555/);
    expect(cut.content).not.toContain("sk-live-0123456789abcdefABCDEF");
    expect(truncateToolPayloads(truncation.messages, 300, undefined)).toBeUndefined();
  });

  it.each(dialects.filter((dialect) => dialect !== "langchain"))(
    "%s: truncation with markers keeps every pair and is idempotent",
    (dialect) => {
      fc.assert(
        fc.property(transcriptArbitrary(dialect), fc.integer({ min: 20, max: 400 }), (messages, budget) => {
          const truncation = truncateToolPayloads(messages, budget, undefined);
          if (truncation === undefined) return;
          expect(findToolPairProblems(truncation.messages)).toEqual(findToolPairProblems(messages));
          if (truncation.tokens <= budget)
            expect(truncateToolPayloads(truncation.messages, budget, undefined)).toBeUndefined();
        }),
        { numRuns: 60 },
      );
    },
  );
});

describe("JSON is shortened by its structure", () => {
  const orders = JSON.stringify({
    user_id: "ada_4217",
    orders: Array.from({ length: 60 }, (_, i) => ({
      order_id: `#W${1_000_000 + i}`,
      status: "delivered",
      price: 10 + i,
    })),
  });

  it("the renderer keeps every key and the ends of a long array, and says how many items it left out and what they named", () => {
    const text = renderTranscript([call("c1", "list_orders", {}), result("c1", orders)], { maxResultChars: 600 });
    const shown = text.slice(text.indexOf(": ") + 2);
    const value = JSON.parse(shown) as { user_id: string; orders: unknown[] };
    expect(value.user_id).toBe("ada_4217");
    expect(value.orders[0]).toEqual({ order_id: "#W1000000", status: "delivered", price: 10 });
    expect(value.orders.at(-1)).toEqual({ order_id: "#W1000059", status: "delivered", price: 69 });
    // The marker names ids of the items it left out, none of those it kept.
    const marker = /"… (\d+) more items; they named ([^"]*)"/.exec(shown)!;
    const kept = value.orders
      .filter((item): item is { order_id: string } => typeof item === "object")
      .map((item) => item.order_id);
    const named = marker[2]!.split(", ").filter((name) => name.startsWith("#W"));
    expect(named.length).toBeGreaterThan(5);
    for (const id of named) expect(kept).not.toContain(id);
    expect(kept.length + Number(marker[1])).toBe(60);
  });

  it("truncation does the same when it fits, and stays valid JSON", () => {
    const messages = [{ role: "user", content: "go" }, call("c1", "list_orders", {}), result("c1", orders)];
    const truncation = truncateToolPayloads(messages, 500, undefined)!;
    const content = (truncation.messages[2] as { content: string }).content;
    expect(() => JSON.parse(content)).not.toThrow();
    expect(content).toContain("more items");
    expect(truncation.tokens).toBeLessThanOrEqual(500);
  });
});

describe("extractiveSummary ranks facts", () => {
  const order = JSON.stringify({
    order_id: "#W2378156",
    items: [{ item_id: "6469567736", price: 47.84 }],
    payment: { certificate_7480005: { amount: 250 } },
  });
  const older = [
    { role: "user", content: "Please return order #W2378156 to gift_card_7480005." },
    call("c1", "get_order_details", { order_id: "#W2378156" }),
    result("c1", order),
    { role: "assistant", content: "Item 6469567736 can be returned." },
  ];

  it("gives each fact the few words that say what it is", () => {
    const summary = extractiveSummary(older, { maxTokens: 1_000 });
    expect(summary).toContain("order_id #W2378156");
    // A number says what it is by its field, written as one: `price: 47.84`, not any 47.84.
    expect(summary).toContain("price: 47.84");
    expect(summary).toContain("certificate_7480005");
    expect(summary).toContain("amount: 250");
  });

  it("keeps what the user and the agent wrote before what a result merely held, when the budget is short", () => {
    const results = Array.from({ length: 40 }, (_, i) => [
      call(`c${i}`, "search", { q: `q${i}` }),
      result(`c${i}`, JSON.stringify({ noise_id: `N${1000 + i}X` })),
    ]).flat();
    const summary = extractiveSummary([{ role: "user", content: "My order is #W9999999." }, ...results], {
      maxTokens: 150,
    });
    expect(summary).toContain("#W9999999");
    expect(textTokens(summary)).toBeLessThanOrEqual(150);
  });

  it("uses its budget", () => {
    const many = Array.from({ length: 200 }, (_, i) => ({ role: "user", content: `Order #W${1_000_000 + i} please.` }));
    // Ids and numbers count by their word pieces, more than bytes / 4 says: most of the budget by
    // the summary's own count (the larger of the two), not by bytes alone.
    const summary = extractiveSummary(many, { maxTokens: 400 });
    expect(Math.max(textTokens(summary), countWordPieces(summary))).toBeGreaterThan(340);
  });

  it("merges a rolled summary of its own section by section instead of nesting it", () => {
    const first = extractiveSummary(older, { maxTokens: 1_000 });
    const second = extractiveSummary([{ role: "user", content: "Also cancel #W1111111." }], {
      maxTokens: 1_000,
      previousSummary: first,
    });
    expect(second).not.toContain("Earlier summary");
    expect(second.split("(A summary made without a model").length - 1).toBe(1);
    expect(second).toContain("#W2378156");
    expect(second).toContain("#W1111111");
    // A summary written elsewhere is kept as one block.
    expect(extractiveSummary(older, { maxTokens: 1_000, previousSummary: "The user is Ada." })).toContain(
      "Earlier summary:\nThe user is Ada.",
    );
  });

  it("ranks a result's values by whether the agent used them, an amount the agent wrote as $1,859 included", () => {
    const fare = JSON.stringify({
      reservation: {
        origin: "MCO",
        destination: "CLT",
        first_name: "Omar",
        price: 1859,
        flights: Array.from({ length: 12 }, (_, i) => ({ flight_number: `HAT${100 + i}`, seats: 10 + i })),
      },
    });
    const passedOver = Array.from({ length: 20 }, (_, i) => [
      call(`s${i}`, "search", { q: "x" }),
      result(`s${i}`, JSON.stringify({ hit_id: `Q${5000 + i}Z`, score: 50 + i })),
      { role: "assistant", content: "Nothing useful." },
    ]).flat();
    const older = [
      call("c1", "get_reservation", { id: "r1" }),
      result("c1", fare),
      { role: "assistant", content: "The fare is $1,859 from MCO." },
      ...passedOver,
    ];
    const summary = extractiveSummary(older, { maxTokens: 120 });
    expect(summary).toContain("price: 1859");
    expect(summary).toContain("MCO");
    // A key without a digit is the result's schema, not a fact.
    expect(summary).not.toMatch(/[:;] first_name[;\n]/);
  });

  it("carries a rolled summary's facts forward, ranked with the new ones", () => {
    const first = extractiveSummary([{ role: "user", content: "My user id is omar_davis_3817." }], { maxTokens: 400 });
    const newer = Array.from({ length: 30 }, (_, i) => ({
      role: "assistant",
      content: `Checked reservation R${1000 + i}X.`,
    }));
    const second = extractiveSummary(newer, { maxTokens: 90, previousSummary: first });
    expect(second).toContain("omar_davis_3817");
  });

  it("rounds a fractional budget down, and at a budget of a few tokens keeps facts rather than headings", () => {
    const older = [{ role: "user", content: "Please change reservation XEWRD9 to flight HAT030." }];
    expect(extractiveSummary(older, { maxTokens: 15.697 })).toBe(extractiveSummary(older, { maxTokens: 15 }));
    expect(extractiveSummary(older, { maxTokens: 15 })).toContain("XEWRD9");
    expect(textTokens(extractiveSummary(older, { maxTokens: 15 }))).toBeLessThanOrEqual(15);
    // With nothing to rank, the newest words said stand in: never an empty summary.
    expect(
      extractiveSummary([{ role: "assistant", content: "Hi! How can I help you today?" }], { maxTokens: 12 }).trim(),
    ).not.toBe("");
    for (const bad of [0.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => extractiveSummary(older, { maxTokens: bad })).toThrow(RangeError);
  });

  it("is deterministic, within budget and total on any transcript", () => {
    fc.assert(
      fc.property(transcriptArbitrary("openai-chat"), fc.integer({ min: 1, max: 600 }), (messages, maxTokens) => {
        const summary = extractiveSummary(messages, { maxTokens });
        expect(extractiveSummary(messages, { maxTokens })).toBe(summary);
        expect(textTokens(summary)).toBeLessThanOrEqual(maxTokens);
      }),
      { numRuns: 100 },
    );
  });
});

describe("context.maxSummaryTokens is the budget of the summary's text", () => {
  it("is a whole number with a calibrated count, and extractiveSummary given exactly it is never refused", async () => {
    const messages = [
      { role: "system", content: "sys" },
      ...Array.from({ length: 12 }, (_, i) => [
        { role: "user", content: `order #W${2_000_000 + i} ${"x ".repeat(60)}` },
        { role: "assistant", content: `a${i} HAT${100 + i}` },
      ]).flat(),
    ];
    for (const ratio of [1.37, 0.83]) {
      const budgets: number[] = [];
      const refused: unknown[] = [];
      // The provider counted the first messages as a fraction more (or less) than the estimate.
      const usage = { inputTokens: Math.round(estimateTokens(messages.slice(0, 20)) * ratio) + 0.5, messageCount: 20 };
      const output = await compact(messages, {
        maxTokens: 400,
        usage,
        onError: "skip",
        events: { onSkipped: (event: unknown) => refused.push(event) },
        summarize: (older: readonly object[], context: SummaryContext) => {
          budgets.push(context.maxSummaryTokens);
          return extractiveSummary(older, {
            maxTokens: context.maxSummaryTokens,
            previousSummary: context.previousSummary,
          });
        },
      } as never);
      expect(refused).toEqual([]);
      expect(output).not.toBeNull();
      for (const budget of budgets) expect(Number.isInteger(budget)).toBe(true);
    }
  });

  it("a summary that fills it exactly is accepted, in every dialect's own message", async () => {
    for (const summaryRole of ["system", "user"] as const) {
      const messages = [
        { role: "system", content: "sys" },
        ...Array.from({ length: 8 }, (_, i) => [
          { role: "user", content: `q${i} ${"x ".repeat(60)}` },
          { role: "assistant", content: `a${i}` },
        ]).flat(),
      ];
      let limit = 0;
      const output = await compact(messages, {
        maxTokens: 200,
        summary: { role: summaryRole },
        summarize: (_older, context) => {
          limit = context.maxSummaryTokens;
          return "w".repeat(limit * 4 - 2);
        },
      });
      expect(output).not.toBeNull();
      expect(textTokens("w".repeat(limit * 4 - 2))).toBe(limit);
      expect(JSON.stringify(output!.messages)).toContain(SUMMARY_PREFIX.trim());
    }
  });
});
