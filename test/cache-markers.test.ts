// Frozen sections as the provider caches them (SPEC §43). A compaction keeps the summary's earlier
// sections byte for byte and adds one after them (§36); Anthropic, Bedrock and Gemini cache at
// content-block boundaries, so with `cacheMarker: markFrozenSections()` each section is a block of
// its own and the provider's marker sits after the last section (Anthropic and Bedrock write their
// cache only where a marker is: a block boundary with none after it is never read again). The
// rules, each beside the provider's words:
//
// - Anthropic: "Prompt caching references the entire prompt - tools, system, and messages (in that
//   order) up to and including the block designated with cache_control"; a fifth marker is refused:
//   "A maximum of 4 blocks with cache_control may be provided. Found 5."
//   (https://platform.claude.com/docs/en/build-with-claude/prompt-caching; the error as the API returns it).
// - Bedrock Converse: a `cachePoint` block (CachePointBlock, `type: "default"`) caches what comes
//   before it; "Max checkpoints per request: 4" (https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html).
// - OpenAI, GPT-5.6 and later: `prompt_cache_breakpoint: { mode: "explicit" }` on a content part
//   "Marks the exact end of a reusable prompt prefix"; "Each request can write up to four
//   breakpoints" (API reference, `prompt_cache_options`; https://developers.openai.com/api/docs/guides/prompt-caching).
//
// What a marker is not: part of the prefix the provider compares. A breakpoint that moves to the
// newest message at every turn still reads what the one before wrote (the docs' multi-turn
// pattern), so the bytes compared here leave markers aside.
import { describe, expect, it } from "vitest";
import { markFrozenSections } from "../src/cache.js";
import { leadingText } from "../src/dialects/messages.js";
import { SUMMARY_PREFIX } from "../src/expert.js";
import {
  compactor,
  estimateTokens,
  memoryStore,
  statefulCompactor,
  type DialectName,
  type SummaryContext,
} from "../src/index.js";
import { sectionsOf, type SummarySection } from "../src/text/summary-sections.js";
import { withoutSeal } from "../src/text/summary-seal.js";
import { requestViolations } from "./support/provider-request.js";

type Message = Record<string, unknown>;
type Format = Extract<
  DialectName,
  "anthropic" | "bedrock-converse" | "google-genai" | "genkit" | "openai-chat" | "openai-responses"
>;

const filler = "The customer described the order, its delivery window and the carrier's notes in detail. ".repeat(6);

/** A text message of `role` in `format`, as its SDK writes it. */
function message(format: Format, role: "user" | "assistant", text: string): Message {
  if (format === "bedrock-converse") return { role, content: [{ text }] };
  if (format === "google-genai") return { role: role === "assistant" ? "model" : "user", parts: [{ text }] };
  if (format === "genkit") return { role: role === "assistant" ? "model" : "user", content: [{ text }] };
  return { role, content: text };
}

/** Turn k: the user names fact F<k>, the assistant answers. */
const turn = (format: Format, k: number): Message[] => [
  message(format, "user", `Turn ${k}: please remember fact F${k}. ${filler}`),
  message(format, "assistant", `Noted F${k}.`),
];

/** A summarizer that lists the facts it was shown (its own and those of the sections it merges), within its room. */
function factLister(calls: SummaryContext[]) {
  return (older: readonly object[], context: SummaryContext): string => {
    calls.push(context);
    const facts = new Set<string>();
    for (const section of context.merging ?? []) for (const [fact] of section.matchAll(/F\d+/g)) facts.add(fact);
    for (const [fact] of JSON.stringify(older).matchAll(/F\d+/g)) facts.add(fact);
    const lines = [...facts].map(
      (fact) => `${fact}: the customer asked to keep this; order and delivery details as discussed.`,
    );
    while (lines.length > 1 && estimateTokens([{ role: "user", content: lines.join("\n") }]) > context.maxSummaryTokens)
      lines.pop();
    return lines.join("\n");
  };
}

const markerKeys = new Set(["cache_control", "prompt_cache_breakpoint"]);

/** The value without the providers' markers: a `cache_control` or `prompt_cache_breakpoint` field, a `cachePoint` block. */
function withoutMarkers(value: unknown): unknown {
  if (Array.isArray(value))
    return value
      .filter((item) => !(typeof item === "object" && item !== null && "cachePoint" in item))
      .map(withoutMarkers);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !markerKeys.has(key))
      .map(([key, field]) => [key, withoutMarkers(field)]),
  );
}

/** Markers in a request, counted as the providers count them: blocks with `cache_control` or `prompt_cache_breakpoint`, `cachePoint` blocks. */
function markersIn(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  let count =
    !Array.isArray(value) && ("cache_control" in value || "prompt_cache_breakpoint" in value || "cachePoint" in value)
      ? 1
      : 0;
  for (const field of Object.values(value)) count += markersIn(field);
  return count;
}

const summaryIndex = (request: readonly Message[]) =>
  request.findIndex((m) => leadingText(m)?.startsWith(SUMMARY_PREFIX));

/** The summary's sections as the library reads them back (its blocks joined; seal and archive line off). */
function sectionsIn(request: readonly Message[]): SummarySection[] {
  const text = leadingText(request[summaryIndex(request)]!)!;
  return sectionsOf(
    withoutSeal(text.slice(SUMMARY_PREFIX.length)).replace(/\n\n\(Messages \d+(?:-\d+)? are archived[^\n]*\)$/, ""),
  );
}

/** The summary's content blocks (Gemini's parts), markers left out. */
const blocksOf = (summary: Message): Message[] =>
  ((summary["content"] ?? summary["parts"]) as Message[]).filter((block) => !("cachePoint" in block));

/**
 * What the caller sends, as the docs show it: Anthropic's and Bedrock's system prompt apart with a
 * marker of its own, and a marker on the last message; OpenAI's implicit breakpoint. Two markers
 * the hook does not see: `markFrozenSections()`'s default `outside`.
 */
function sent(format: Format, request: readonly Message[]): { messages: Message[]; outside: number } {
  const messages = request.slice();
  const last = messages.at(-1)!;
  if (format === "anthropic") {
    const content =
      typeof last["content"] === "string" ? [{ type: "text", text: last["content"] }] : (last["content"] as Message[]);
    messages[messages.length - 1] = {
      ...last,
      content: [...content.slice(0, -1), { ...content.at(-1)!, cache_control: { type: "ephemeral" } }],
    };
    return { messages, outside: 1 };
  }
  if (format === "bedrock-converse") {
    messages[messages.length - 1] = {
      ...last,
      content: [...(last["content"] as Message[]), { cachePoint: { type: "default" } }],
    };
    return { messages, outside: 1 };
  }
  return { messages, outside: format === "google-genai" || format === "genkit" ? 0 : 1 };
}

interface Run {
  compactions: number;
  /** Compactions that kept at least one earlier section (whose bytes were compared). */
  compared: number;
  merges: number;
  markers: number;
}

/**
 * Drives a conversation in `format` through `compactions` compactions of `compact` and checks each:
 * every section a block of its own where the format has blocks; the request's bytes up to the end
 * of the last kept section's block those of the request before (markers aside); the marker, when
 * asked, right after the last section; no request over the provider's markers; every request one
 * the provider accepts.
 */
async function drive(
  format: Format,
  compact: (messages: Message[]) => Promise<Message[] | null>,
  compactions: number,
  { marked }: { marked: boolean },
): Promise<Run> {
  let transcript: Message[] =
    format === "openai-chat" || format === "openai-responses"
      ? [{ role: "system", content: "You are a support agent." }]
      : [];
  let previous: { request: Message[]; sections: SummarySection[] } | undefined;
  const run: Run = { compactions: 0, compared: 0, merges: 0, markers: 0 };
  for (let k = 1; run.compactions < compactions; k++) {
    expect(k, "turns before enough compactions").toBeLessThan(2_000);
    transcript = transcript.concat(turn(format, k));
    const result = await compact(transcript);
    // The provider sees every request, compacted or not.
    const request = result ?? transcript;
    const { messages, outside } = sent(format, request);
    expect(requestViolations(format, messages), `turn ${k}`).toEqual([]);
    expect(markersIn(messages) + outside, `turn ${k}: markers`).toBeLessThanOrEqual(4);
    if (result === null) continue;
    transcript = result.slice();
    const at = summaryIndex(result);
    if (at < 0) continue;
    const summary = result[at]!;
    const sections = sectionsIn(result);
    if (previous !== undefined && JSON.stringify(sections) === JSON.stringify(previous.sections)) continue;
    run.compactions++;

    // With the marker asked, each section a text block of its own, in order, then the seal (or the archive line and no seal).
    const blocked =
      format === "anthropic" || format === "bedrock-converse" || format === "google-genai" || format === "genkit";
    // Without it, the summary is one text, as before.
    if (!marked) expect(typeof summary["content"] === "string" || blocksOf(summary).length === 1).toBe(true);
    if (marked && blocked) {
      const texts = blocksOf(summary).map((block) => block["text"] as string);
      expect(texts.slice(0, sections.length).join("")).toBe(
        SUMMARY_PREFIX + texts.slice(0, sections.length).join("").slice(SUMMARY_PREFIX.length),
      );
      for (const [index, text] of texts.slice(1, sections.length).entries())
        expect(text.startsWith("\n\n[Summary part: "), `block ${index + 1}`).toBe(true);
      expect(texts.length - sections.length).toBeLessThanOrEqual(1);
      for (const text of texts.slice(sections.length))
        expect(text).toMatch(/^\n\n(?:\[seal [0-9a-f]{24}\]$|\(Messages )/);
    }

    // The marker, when asked, right after the last section: Anthropic's on its block, Bedrock's the block after it, OpenAI's on the part that ends with it.
    if (marked && format !== "google-genai" && format !== "genkit") {
      run.markers++;
      expect(markersIn(summary), `compaction ${run.compactions}`).toBe(1);
      const content = summary["content"] as Message[];
      if (format === "anthropic") expect(content[sections.length - 1]!["cache_control"]).toEqual({ type: "ephemeral" });
      if (format === "bedrock-converse") expect(content[sections.length]).toEqual({ cachePoint: { type: "default" } });
      if (format === "openai-chat" || format === "openai-responses") {
        expect(content[0]!["prompt_cache_breakpoint"]).toEqual({ mode: "explicit" });
        expect(sectionsOf(withoutSeal((content[0]!["text"] as string).slice(SUMMARY_PREFIX.length)))).toEqual(sections);
      }
    } else expect(markersIn(summary)).toBe(0);

    if (previous !== undefined) {
      let kept = 0;
      while (
        kept < previous.sections.length &&
        kept < sections.length - 1 &&
        JSON.stringify(previous.sections[kept]) === JSON.stringify(sections[kept])
      )
        kept++;
      if (kept < previous.sections.length) run.merges++;
      if (kept > 0) {
        run.compared++;
        // The request's bytes up to the end of the last kept section's block, markers aside, are those of the request before.
        const before = JSON.stringify(withoutMarkers(previous.request));
        const now = JSON.stringify(withoutMarkers(result));
        const blocks =
          !marked || format === "openai-chat" || format === "openai-responses"
            ? undefined
            : blocksOf(withoutMarkers(summary) as Message);
        const end =
          blocks === undefined
            ? before.indexOf(JSON.stringify(SUMMARY_PREFIX + sectionsText(sections.slice(0, kept))).slice(0, -1))
            : before.indexOf(JSON.stringify(blocks[kept - 1]));
        expect(end, `compaction ${run.compactions}: the kept sections in the request before`).toBeGreaterThan(0);
        const through =
          end +
          (blocks === undefined
            ? JSON.stringify(SUMMARY_PREFIX + sectionsText(sections.slice(0, kept))).length - 1
            : JSON.stringify(blocks[kept - 1]).length);
        expect(now.slice(0, through), `compaction ${run.compactions}`).toBe(before.slice(0, through));
      }
    }
    previous = { request: result, sections };
  }
  return run;
}

/** The kept sections as the summary's text holds them (see `joinSections`). */
function sectionsText(sections: readonly SummarySection[]): string {
  return sections
    .map((section, index) =>
      index === 0 && section.covers === 1 && section.depth === 1
        ? section.text
        : `${index === 0 ? "" : "\n\n"}[Summary part: ${section.covers} ${section.covers === 1 ? "compaction" : "compactions"}, depth ${section.depth}]\n${section.text}`,
    )
    .join("");
}

const formats: Format[] = [
  "anthropic",
  "bedrock-converse",
  "google-genai",
  "genkit",
  "openai-chat",
  "openai-responses",
];

describe("frozen sections as the provider caches them", () => {
  it.each(formats)(
    "%s without a marker: the summary one text as before, its kept sections' bytes unchanged, every request accepted",
    async (format) => {
      const calls: SummaryContext[] = [];
      const hook = compactor<Message>({ maxTokens: 4_000, keepTail: 800, format, summarize: factLister(calls) });
      const run = await drive(format, async (messages) => (await hook({ messages }))?.messages ?? null, 12, {
        marked: false,
      });
      expect(run.compared).toBeGreaterThan(6);
      expect(calls.slice(1).every((context) => (context.earlier ?? []).length > 0)).toBe(true);
    },
  );

  it.each(formats)(
    "%s with markFrozenSections(): each section its own block, the marker right after the last one, within the provider's 4 with the caller's own",
    async (format) => {
      const calls: SummaryContext[] = [];
      const hook = compactor<Message>({
        maxTokens: 4_000,
        keepTail: 800,
        format,
        summarize: factLister(calls),
        cacheMarker: markFrozenSections(),
      });
      const run = await drive(format, async (messages) => (await hook({ messages }))?.messages ?? null, 16, {
        marked: true,
      });
      expect(run.compared).toBeGreaterThan(8);
      expect(run.merges).toBeGreaterThan(0);
      if (format !== "google-genai" && format !== "genkit") expect(run.markers).toBe(16);
      // Each compaction after the first read the summary back as the library's own (its seal verified).
      expect(calls.slice(1).every((context) => (context.earlier ?? []).length > 0)).toBe(true);
    },
  );

  it.each(["anthropic", "bedrock-converse"] as const)(
    "%s with statefulCompactor and the archive: the archive line after the marker, the sections read back from the store",
    async (format) => {
      const calls: SummaryContext[] = [];
      const compact = statefulCompactor<Message>({
        maxTokens: 4_000,
        keepTail: 800,
        format,
        summarize: factLister(calls),
        store: memoryStore(),
        archive: true,
        conversationId: "c",
        cacheMarker: markFrozenSections(),
      });
      const history: Message[] = [];
      const run = await drive(
        format,
        async (messages) => {
          history.splice(0, history.length, ...(history.length === 0 ? messages : history.concat(messages.slice(-2))));
          const result = await compact(history);
          if (result === null) return null;
          const summary = result.messages[summaryIndex(result.messages)]!;
          const texts = blocksOf(summary).map((block) => block["text"] as string);
          expect(texts.at(-1)).toMatch(/^\n\n\(Messages \d+-\d+ are archived verbatim: call recall_context/);
          return result.messages;
        },
        10,
        { marked: true },
      );
      expect(run.compared).toBeGreaterThan(4);
    },
  );
});

describe("the provider's limit on markers", () => {
  /** An Anthropic transcript whose tail holds `existing` blocks with their own markers. */
  function markedTranscript(existing: number): Message[] {
    const transcript: Message[] = [];
    for (let k = 1; k <= 12; k++) {
      const [user, assistant] = turn("anthropic", k);
      const marked = k > 12 - existing;
      transcript.push(
        marked
          ? { ...user, content: [{ type: "text", text: user!["content"], cache_control: { type: "ephemeral" } }] }
          : user!,
        assistant!,
      );
    }
    return transcript;
  }

  it.each([
    { existing: 0, outside: 2, placed: true },
    { existing: 1, outside: 2, placed: true },
    { existing: 2, outside: 2, placed: false },
    { existing: 3, outside: 0, placed: true },
    { existing: 4, outside: 0, placed: false },
    { existing: 1, outside: 3, placed: false },
  ])(
    "with $existing markers in the kept tail and $outside outside the messages, the marker is placed: $placed",
    async ({ existing, outside, placed }) => {
      const hook = compactor<Message>({
        maxTokens: 1_500,
        keepTail: 1_000,
        format: "anthropic",
        summarize: () => "F1: kept.",
        cacheMarker: markFrozenSections({ outside }),
      });
      const result = await hook({ messages: markedTranscript(existing) });
      expect(result).not.toBeNull();
      const summary = result!.messages[summaryIndex(result!.messages)]!;
      expect(markersIn(summary)).toBe(placed ? 1 : 0);
      expect(markersIn(result!.messages)).toBe(
        Math.min(existing, markersIn(markedTranscript(existing).slice(-result!.messages.length))) + (placed ? 1 : 0),
      );
      expect(markersIn(result!.messages) + outside).toBeLessThanOrEqual(4);
      expect(requestViolations("anthropic", result!.messages)).toEqual([]);
    },
  );

  it("markFrozenSections checks its options once, as the factory's options are checked", () => {
    expect(() => markFrozenSections({ outside: 4 })).toThrow(RangeError);
    expect(() => markFrozenSections({ outside: -1 })).toThrow(RangeError);
    expect(() => markFrozenSections({ outside: 1.5 } as never)).toThrow(/outside/);
    expect(() => markFrozenSections({ ouside: 1 } as never)).toThrow(/ouside/);
    expect(() => compactor({ maxTokens: 100, summarize: () => "", cacheMarker: "anthropic" as never })).toThrow(
      TypeError,
    );
  });
});
