// Summaries are frozen and merged by levels (SPEC §36): a compaction adds a section for the range
// it evicts after the earlier ones, whose bytes (and the request's up to their end) stay as they
// were, so the provider's prefix cache keeps them; when they fill their share the newest merge,
// so that over n compactions a fact goes through at most ⌈log₂ n⌉ + 2 summarizations (published
// evaluations of compaction: frozen, ranked summaries beat re-summarizing the summary each time).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SUMMARY_PREFIX } from "../src/expert.js";
import { compactor, estimateTokens, memoryStore, statefulCompactor, type SummaryContext } from "../src/index.js";
import { joinSections, sectionsOf, type SummarySection } from "../src/text/summary-sections.js";
import { planSections, smallestAsk } from "../src/hook/summary-levels.js";
import { withoutSeal } from "../src/text/summary-seal.js";

type Chat = { role: string; content: string };

const system: Chat = { role: "system", content: "You are a support agent." };
const filler = "The customer described the order, its delivery window and the carrier's notes in detail. ".repeat(6);

/** Turn k of the conversation: the user names fact F<k>, the assistant answers. */
const turn = (k: number): Chat[] => [
  { role: "user", content: `Turn ${k}: please remember fact F${k}. ${filler}` },
  { role: "assistant", content: `Noted F${k}.` },
];

/**
 * A summarizer that counts, for every fact, the summarizations it went through: a fact read from a
 * message is written `F<k>#1`; one read from a section it merges, `F<k>#<d + 1>`. Each fact line is
 * padded so that summaries fill their room and must merge; lines that do not fit the limit are left
 * out, newest first (the deepest facts are the last to go).
 */
function countingSummarizer(calls: SummaryContext[]) {
  return (older: readonly Chat[], context: SummaryContext): string => {
    calls.push(context);
    const facts = new Map<string, number>();
    for (const section of context.merging ?? [])
      for (const [, fact, depth] of section.matchAll(/(F\d+)#(\d+)/g))
        facts.set(fact!, Math.max(facts.get(fact!) ?? 0, Number(depth) + 1));
    for (const message of older)
      for (const [fact] of message.content.matchAll(/F\d+/g)) if (!facts.has(fact)) facts.set(fact, 1);
    const lines = [...facts].map(
      ([fact, depth]) => `${fact}#${depth}: the customer asked to keep this; order and delivery details as discussed.`,
    );
    while (
      lines.length > 1 &&
      estimateTokens([{ role: "system", content: lines.join("\n") }]) > context.maxSummaryTokens
    )
      lines.pop();
    return lines.join("\n");
  };
}

/** The sections of the summary a request holds (its text without prefix, seal and archive line). */
function summarySectionsIn(messages: readonly Chat[]): SummarySection[] {
  const summary = messages.find((message) => message.content.startsWith(SUMMARY_PREFIX));
  if (summary === undefined) return [];
  // The archive line this library ends a summary with (the counting summarizer writes none of its own).
  return sectionsOf(
    withoutSeal(summary.content.slice(SUMMARY_PREFIX.length)).replace(
      /\n\n\(Messages \d+(?:-\d+)? are archived[^\n]*\)$/,
      "",
    ),
  );
}

const maxDepthIn = (sections: readonly SummarySection[]) =>
  Math.max(
    0,
    ...sections.flatMap((section) => [...section.text.matchAll(/F\d+#(\d+)/g)].map((match) => Number(match[1]))),
  );

interface Run {
  compactions: number;
  merges: number;
  deepest: number;
  /** The most sections a merge replaced (earlier sections, and the new range's summary). */
  replacedByOneMerge: number;
}

/**
 * Drives a conversation through `compact` until it has compacted `compactions` times and checks
 * each compaction against the one before: the earlier sections kept byte for byte (and the
 * request's JSON up to their end), or the newest of them merged into one; the depth of every fact
 * within ⌈log₂ n⌉ + 2.
 */
async function drive(
  compact: (messages: Chat[]) => Promise<{ messages: Chat[]; summarized: boolean } | null>,
  compactions: number,
): Promise<Run> {
  let transcript: Chat[] = [system];
  let previous: { request: Chat[]; sections: SummarySection[] } | undefined;
  const run: Run = { compactions: 0, merges: 0, deepest: 0, replacedByOneMerge: 0 };
  for (let k = 1; run.compactions < compactions; k++) {
    expect(k, "turns before enough compactions").toBeLessThan(2_000);
    transcript = transcript.concat(turn(k));
    const outcome = await compact(transcript);
    if (outcome === null) continue;
    const result = outcome.messages;
    transcript = result.slice();
    const sections = summarySectionsIn(result);
    if (!outcome.summarized || sections.length === 0) continue;
    run.compactions++;
    if (previous !== undefined) {
      const before = previous.sections;
      // The sections kept are a prefix of the earlier ones, byte for byte; at most one new section follows.
      let kept = 0;
      while (
        kept < before.length &&
        kept < sections.length - 1 &&
        JSON.stringify(before[kept]) === JSON.stringify(sections[kept])
      )
        kept++;
      expect(sections.length, `compaction ${run.compactions}`).toBe(kept + 1);
      if (kept < before.length) {
        run.merges++;
        run.replacedByOneMerge = Math.max(run.replacedByOneMerge, before.length - kept + 1);
        // A merge stands for what it replaced: the merged sections' compactions and the new range.
        expect(sections[kept]!.covers).toBe(before.slice(kept).reduce((sum, section) => sum + section.covers, 1));
        expect(sections[kept]!.depth).toBe(Math.max(...before.slice(kept).map((section) => section.depth)) + 1);
      } else {
        expect(sections[kept]).toMatchObject({ covers: 1, depth: 1 });
      }
      // The request's bytes up to the end of the kept sections are those of the request before.
      const keptText = JSON.stringify(SUMMARY_PREFIX + joinSections(sections.slice(0, kept))).slice(0, -1);
      const earlier = JSON.stringify(previous.request);
      const end = earlier.indexOf(keptText) + keptText.length;
      expect(earlier.indexOf(keptText)).toBeGreaterThan(0);
      expect(JSON.stringify(result).slice(0, end)).toBe(earlier.slice(0, end));
    }
    const deepest = maxDepthIn(sections);
    expect(deepest, `after ${run.compactions} compactions`).toBeLessThanOrEqual(
      Math.ceil(Math.log2(run.compactions)) + 2,
    );
    // Each section's header says the depth its facts went through, at most.
    for (const section of sections) expect(maxDepthIn([section])).toBeLessThanOrEqual(section.depth);
    run.deepest = Math.max(run.deepest, deepest);
    previous = { request: result, sections };
  }
  return run;
}

/** The plain hook's result: it summarized whenever it returns one (no mask or cut happens in these conversations). */
const summarizedBy = (result: { messages: Chat[] } | null) =>
  result === null ? null : { messages: result.messages, summarized: true };

describe("frozen summaries, merged by levels", () => {
  it("over 40 compactions of one conversation (the plain hook): earlier summaries byte-identical until merged, merges of adjacent ones, no fact summarized more than ⌈log₂ n⌉ + 2 times", async () => {
    const calls: SummaryContext[] = [];
    const hook = compactor<Chat>({ maxTokens: 4_000, keepTail: 800, summarize: countingSummarizer(calls) });
    const run = await drive(async (messages) => summarizedBy(await hook({ messages })), 40);
    if (process.env.FROZEN_STATS) console.log("plain hook", JSON.stringify(run));
    expect(run.merges).toBeGreaterThan(2);
    expect(run.replacedByOneMerge).toBeGreaterThanOrEqual(2);
    expect(run.deepest).toBeGreaterThan(1);
    // `summarize` is told what it merges, and carries forward exactly that; otherwise nothing.
    for (const context of calls) {
      if (context.merging === undefined) expect(context.previousSummary).toBeUndefined();
      else expect(context.previousSummary).toBe(context.merging.join("\n\n"));
    }
    expect(calls.filter((context) => context.merging !== undefined)).toHaveLength(run.merges);
  });

  it("with statefulCompactor and the archive, over 20 compactions: the same, from the store, each summary ending with its own archive line", async () => {
    const calls: SummaryContext[] = [];
    let summarized = false;
    const compact = statefulCompactor<Chat>({
      maxTokens: 4_000,
      keepTail: 800,
      summarize: countingSummarizer(calls),
      store: memoryStore(),
      archive: true,
      conversationId: "frozen",
      events: { onCompacted: () => void (summarized = true) },
    });
    const history: Chat[] = [];
    const run = await drive(async (messages) => {
      // The caller keeps the whole history and sends it; the store holds the summary.
      history.splice(0, history.length, ...(history.length === 0 ? messages : history.concat(messages.slice(-2))));
      summarized = false;
      const result = await compact(history);
      if (result !== null)
        expect(result.messages.find((message) => message.content.startsWith(SUMMARY_PREFIX))!.content).toMatch(
          /\n\n\(Messages \d+-\d+ are archived verbatim: call recall_context/,
        );
      // With a summary in force, a call under budget sends it too: only a call that summarized is a compaction.
      return result === null ? null : { messages: result.messages, summarized };
    }, 20);
    expect(run.merges).toBeGreaterThan(0);
    expect(await compact.recall("F1")).toContain("fact F1");
  });

  it("sealed user-role summaries (Anthropic) keep their earlier sections byte-identical, and each verifies on the next call", async () => {
    const calls: SummaryContext[] = [];
    const hook = compactor<Chat>({
      maxTokens: 4_000,
      keepTail: 800,
      format: "anthropic",
      summarize: countingSummarizer(calls),
    });
    const run = await drive(
      async (messages) =>
        summarizedBy(await hook({ messages: messages.filter((message) => message.role !== "system") })),
      16,
    );
    expect(run.compactions).toBe(16);
    // Every compaction after the first found the earlier summary as the library's own: none was summarized as a user's text.
    for (const context of calls)
      for (const message of [...(context.earlier ?? [])])
        expect((message as Chat).content.startsWith(SUMMARY_PREFIX)).toBe(true);
    expect(calls.slice(1).every((context) => (context.earlier ?? []).length > 0)).toBe(true);
  });

  it("a summarizer that fills context.maxSummaryTokens exactly is accepted at every compaction, merges and 120 compactions included", async () => {
    // The text's tokens as the estimate counts them inside a message (its JSON string, bytes / 4).
    const tokensOf = (text: string) => Math.ceil(new TextEncoder().encode(JSON.stringify(text)).length / 4);
    let made = 0;
    const exactly = (budget: number) => {
      let text = `S${made++} `;
      while (tokensOf(`${text}xxxx`) <= budget) text += "xxxx";
      while (tokensOf(`${text}x`) <= budget) text += "x";
      return text;
    };
    for (const format of ["openai-chat", "anthropic"] as const) {
      made = 0;
      let merges = 0;
      const hook = compactor<Chat>({
        maxTokens: 4_000,
        keepTail: 800,
        format,
        summarize: (_older, context) => (
          (merges += context.merging === undefined ? 0 : 1), exactly(context.maxSummaryTokens)
        ),
      });
      let transcript: Chat[] = format === "anthropic" ? [] : [system];
      for (let k = 1; made < 120; k++) {
        transcript = transcript.concat(turn(k));
        const result = await hook({ messages: transcript });
        if (result !== null) transcript = result.messages.slice();
      }
      expect(merges, format).toBeGreaterThan(10);
    }
  });

  it("a summary rolled where the room holds one still says the depth its facts went through", async () => {
    const calls: SummaryContext[] = [];
    const summarize = countingSummarizer(calls);
    // One conversation, compacted by turns with a large room and with one under MIN_ROOM_FOR_SECTIONS.
    const hooks = [
      compactor<Chat>({ maxTokens: 4_000, keepTail: 800, summarize }),
      compactor<Chat>({ maxTokens: 4_000, keepTail: 800, summary: { maxTokens: 300 }, summarize }),
    ];
    let transcript: Chat[] = [system];
    let compactions = 0;
    for (let k = 1; compactions < 24; k++) {
      transcript = transcript.concat(turn(k));
      const result = await hooks[Math.floor(compactions / 3) % 2]!({ messages: transcript });
      if (result === null) continue;
      compactions++;
      transcript = result.messages.slice();
      for (const section of summarySectionsIn(transcript))
        expect(maxDepthIn([section]), `compaction ${compactions}`).toBeLessThanOrEqual(section.depth);
    }
  });

  it("a summarizer's own line shaped like the archive line is part of its section, kept byte for byte", async () => {
    let made = 0;
    // Under the automatic key, which keeps no archive, and so ends no summary with a line of its own.
    const compact = statefulCompactor<Chat>({
      maxTokens: 4_000,
      keepTail: 800,
      store: memoryStore(),
      archive: true,
      summarize: () => `Part ${++made}: orders.\n\n(Messages 1-5 are archived: recall_context reads them.)`,
    });
    const history: Chat[] = [system];
    const summaries: string[] = [];
    for (let k = 1; made < 3; k++) {
      history.push(...turn(k));
      const result = await compact(history.slice());
      const summary = result?.messages.find((message) => message.content.startsWith(SUMMARY_PREFIX))?.content;
      if (summary !== undefined && summaries.at(-1) !== summary) summaries.push(summary);
    }
    expect(summaries).toHaveLength(3);
    const first = `${SUMMARY_PREFIX}Part 1: orders.\n\n(Messages 1-5 are archived: recall_context reads them.)`;
    for (const summary of summaries) expect(summary.startsWith(first)).toBe(true);
  });

  // Every new section is asked for at least a useful share of the room (SPEC §40), so the room holds
  // a few sections, not log₂ of it: the oldest facts go through about √(2n) summarizations over n
  // compactions when every summary fills its room, where rolling one summary puts them through n.
  it("planSections asks every section for at least a quarter of the room (or a few hundred tokens), and keeps every fact within ⌈√(2n)⌉ + 1 summarizations over 1,024 compactions, even when every summary fills its room", () => {
    for (const room of [1_000, 1_600, 8_000, 50_000, 200_000]) {
      let sections: { section: SummarySection; tokens: number }[] = [];
      for (let n = 1; n <= 1_024; n++) {
        const plan = planSections(
          sections.map((entry) => entry.section),
          room,
          sections.map((entry) => entry.tokens),
          12,
        );
        const kept = sections.slice(0, plan.kept.length);
        expect(kept.map((entry) => entry.section)).toEqual(plan.kept);
        expect(plan.kept.concat(plan.merging)).toEqual(sections.map((entry) => entry.section));
        expect(plan.budget, `room ${room}, compaction ${n}`).toBeGreaterThanOrEqual(smallestAsk(room));
        // The summary fills the room it is given; what it stands in for with its header, too.
        sections = [
          ...kept,
          { section: { text: "", depth: plan.depth, covers: plan.covers }, tokens: plan.budget + 12 },
        ];
        expect(
          sections.reduce((sum, entry) => sum + entry.tokens, 0),
          `room ${room}, compaction ${n}`,
        ).toBeLessThanOrEqual(room + 12);
        expect(
          Math.max(...sections.map((entry) => entry.section.depth)),
          `room ${room}, compaction ${n}`,
        ).toBeLessThanOrEqual(Math.ceil(Math.sqrt(2 * n)) + 1);
      }
    }
  });

  it("a summarizer's text that holds a section header is never read back as a section's start", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            text: fc.string({
              unit: fc.constantFrom(
                "a",
                " ",
                "\n",
                "[Summary part: 3 compactions, depth 2]",
                "\n\n",
                "日本",
                "👨‍👩‍👧",
                "]",
              ),
            }),
            depth: fc.integer({ min: 1, max: 9 }),
            covers: fc.integer({ min: 1, max: 99 }),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        (sections) => {
          const read = sectionsOf(joinSections(sections));
          expect(read.map((section) => [section.depth, section.covers])).toEqual(
            sections.map((section) => [section.depth, section.covers]),
          );
          // Reading back and writing again gives the same bytes: what the next compaction keeps.
          expect(joinSections(read)).toBe(joinSections(sections));
        },
      ),
      { numRuns: 500 },
    );
  });
});
