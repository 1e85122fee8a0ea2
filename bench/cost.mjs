// `npm run bench:cost`: what a conversation's input costs under each compaction policy, with the
// providers' prompt caches. Replays every transcript of 8,000 o200k tokens or more as an agent loop
// (a request before each assistant message) at windows of 40% and 25% of its size; then, per
// dataset, one long session (its runs back to back, 512,000 tokens) at windows of 128,000 and
// 200,000, the sizes of today's models, where a compaction's older part is tens of thousands
// of tokens. The datasets: the benchmark transcripts (tau-bench, tau2-bench, coding) and real
// agent sessions (`../shared/data/sessions`: Claude Code and pi, as `bench/sessions.mjs` reads them,
// in chat form, each behind a system message the size of what it sent beside its messages).
// What a request reads from the cache, writes to it and sends plain is modelled per provider as its
// docs describe its cache (bench/provider-caches.mjs, each rule quoted beside its code): Anthropic
// and Bedrock at content-block granularity, from the markers a request carries (the system prompt's,
// the last message's, and, where the summary is written as `markFrozenSections()` writes it, the
// frozen sections'), each reading the entries within 20 blocks before it; Gemini's implicit prefix
// cache; OpenAI's (GPT-4.1) token prefix in steps of 128 from 1,024. Every library policy is billed
// twice on the one replay: with the summary as one text block, and as a block a section with the
// marker after the last, which is what frozen sections save. The model the bench used before (the
// longest run of leading messages shared with one of the last 8 requests, from 1,024 tokens, at
// Anthropic's prices) is kept beside it as a column. A main request is marked at its last message;
// see `breakpoints` for the summarizer's requests. The cache's lifetime is 8 requests.
// The library's hook is given the provider's count of the previous request (`usage`), as an agent
// loop passes it. Summaries are written without a model (`extractiveSummary`), so every policy
// gets the same text; what differs is what each policy sends, to the main model and to the
// summarizer. Beside the cost, the recall of each request: of the facts the conversation so far
// holds (as `bench/facts.mjs` finds them) that the agent writes again later, the share the request
// shows; a request over the window shows nothing (the provider rejects it), so all its needed
// facts count as missed. With the archive on, also the share visible or returned by one
// `recall` with the fact's value as the query. And what compactions cost in cache writes: see
// `compactionLedger`. Prints a table and the cost–recall frontier per dataset and window, writes
// bench/cost.json and the plot docs/cost-frontier.svg. `BENCH_SAMPLE=n` replays every n-th
// transcript of each dataset; `BENCH_WINDOWS="40%;128,000"` and `BENCH_POLICIES="large;LangChain"`
// (window labels, and parts of policy names, separated by `;`) run a part of it, for a quick look;
// with `BENCH_OUT=file` a part writes its rows there, and `BENCH_FROM="a.json;b.json"` joins parts
// run side by side (one per core) into bench/cost.json and the plot, as a full run writes them. A
// whole run on two cores or more runs so by itself, in two parts (`BENCH_SERIAL=1`: in one process).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { factValue, factsOf, messageFacts, writtenFacts } from "./facts.mjs";
import { billed, billedList, o200k } from "./billed.mjs";
import { anthropicRules, bedrockRules, geminiRules, openaiRules, providerCaches } from "./provider-caches.mjs";
import { pruneMessages } from "ai";
import { compactor, extractiveSummary, statefulCompactor, summarizeWith } from "../dist/index.js";
import { renderTranscript, summarizeInPlace } from "../dist/summary-kit.js";
import { markFrozenSections } from "../dist/cache.js";
import { SUMMARY_PREFIX } from "../dist/expert.js";
import { firstTokens, loadTranscripts, longSession, sample, toAiSdk } from "./data.mjs";
import { anthropicToChat, fixedPart, loadSessions, piToAnthropic } from "./sessions.mjs";

// Each provider's prices and cache rules, quoted from its docs: bench/provider-caches.mjs.
const prices = Object.fromEntries(
  [anthropicRules, bedrockRules, geminiRules, openaiRules].map((rules) => [rules.name.toLowerCase(), rules.prices]),
);
const MINIMUM_CACHED = anthropicRules.minimum;
// The production-sized cases: windows of current models, on sessions of 512,000 tokens (four times
// the smaller window; longer ones would keep the bench from running within minutes).
const LONG_WINDOWS = [128_000, 200_000];
const SESSION_TOKENS = 512_000;
const SHARES = [0.4, 0.25];
const onlyWindows = process.env.BENCH_WINDOWS?.split(";");
const onlyPolicies = process.env.BENCH_POLICIES?.split(";");
// `BENCH_DATASETS=real sessions`: a part of the bench, to try a setting on one dataset.
const onlyDatasets = process.env.BENCH_DATASETS?.split(";");

const startedAll = performance.now();
// A whole run is two parts side by side, the windows of 40% and 25% in one and the long ones in the
// other (about the same time each), where the machine has two cores or more and `BENCH_SERIAL` is
// unset. They start here, before this process reads the data, which it needs only once their rows are in.
const partsRunning =
  !process.env.BENCH_FROM &&
  !onlyWindows &&
  !process.env.BENCH_OUT &&
  !process.env.BENCH_SERIAL &&
  availableParallelism() > 1
    ? runParts()
    : undefined;

/** Runs the two parts, each in a process of its own; their results, and the folder they were written to removed. */
async function runParts() {
  const folder = mkdtempSync(join(tmpdir(), "bench-cost-"));
  const halves = [SHARES.map((share) => `${share * 100}%`), LONG_WINDOWS.map((w) => w.toLocaleString("en-US"))];
  const parts = await Promise.all(
    halves.map(async (windows, index) => {
      const out = join(folder, `part-${index}.json`);
      const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], {
        env: { ...process.env, BENCH_WINDOWS: windows.join(";"), BENCH_OUT: out },
        stdio: ["ignore", "ignore", "inherit"],
      });
      const code = await new Promise((resolve) => child.on("exit", resolve));
      if (code !== 0) throw new Error(`bench:cost: the part at ${windows.join(", ")} exited with ${code}`);
      return JSON.parse(readFileSync(out, "utf8"));
    }),
  );
  rmSync(folder, { recursive: true, force: true });
  return parts;
}

const { transcripts, source } = loadTranscripts();

/** A message's JSON, once per message object (the replays send the same objects request after request). */
const jsonOf = new WeakMap();
const keyOf = (message) => {
  let key = jsonOf.get(message);
  if (key === undefined) jsonOf.set(message, (key = JSON.stringify(message)));
  return key;
};

/** The number of content blocks a message is in the provider's format: its parts, and a block a tool call. */
const blocksOf = (message) =>
  (Array.isArray(message.content) ? Math.max(1, message.content.length) : 1) + (message.tool_calls?.length ?? 0);

/**
 * The positions Anthropic's lookback counts in a message: a block each, but a run of tool calls (or
 * of tool results) one, and no block for empty text (Anthropic takes none). A `tool` message is one
 * result, which joins the run of results before it (`toolResults`, bench/provider-caches.mjs).
 */
const toolPart = (part) => {
  const type = part?.type;
  return type === "tool-call" || type === "tool_use"
    ? "calls"
    : type === "tool-result" || type === "tool_result"
      ? "results"
      : undefined;
};
function positionsOf(message) {
  if (message.role === "tool") return 1;
  const parts = Array.isArray(message.content) ? message.content : message.content ? [message.content] : [];
  let positions = 0;
  let run;
  for (const part of parts) {
    const kind = toolPart(part);
    if (kind === undefined || kind !== run) positions++;
    run = kind;
  }
  if ((message.tool_calls?.length ?? 0) > 0 && run !== "calls") positions++;
  return Math.max(1, positions);
}

/**
 * A message as one unit of a request (see bench/provider-caches.mjs), with its summary's sections
 * (`sectionUnits`), once per message object, and once per JSON within a replay: a stateful policy
 * reads its summary back from the store as a new object on every request, the same JSON each time.
 */
const unitOf = new WeakMap();
let unitOfKey = new Map();
const messageUnit = (message) => {
  let unit = unitOf.get(message);
  if (unit !== undefined) return unit;
  const key = keyOf(message);
  unit = unitOfKey.get(key);
  if (unit === undefined) {
    unit = {
      key,
      tokens: billed(message),
      blocks: blocksOf(message),
      positions: positionsOf(message),
      toolResults: message.role === "tool",
      role: message.role,
      text: typeof message.content === "string" ? message.content : undefined,
      sections: sectionUnits(message),
    };
    unitOfKey.set(key, unit);
  }
  unitOf.set(message, unit);
  return unit;
};

/**
 * The library's summary message as `markFrozenSections()` writes it where the format has blocks
 * (Anthropic, Bedrock, Gemini): a block a section, then the archive line and seal, the marker on
 * the last section's block. One unit a block, their tokens summing to the message's own; null for
 * any other message.
 */
const frozenSections = markFrozenSections({ outside: 2 });
const sectionUnits = (message) => {
  if (typeof message.content !== "string" || !message.content.startsWith(SUMMARY_PREFIX)) return null;
  const written = frozenSections({ role: "user", content: message.content }, "anthropic", []);
  if (!Array.isArray(written.content)) return null;
  let left = billed(message);
  return written.content.map((block, index) => {
    const tokens = index === written.content.length - 1 ? left : Math.min(left, o200k(block.text));
    left -= tokens;
    return {
      key: `\u0000section\u0000${message.role}\u0000${block.text}`,
      tokens,
      blocks: 1,
      role: message.role,
      marker: block.cache_control !== undefined,
    };
  });
};

/** A request's two views: one unit a message, and the summary one unit a section (the same array when it holds none). */
function viewsOf(messages) {
  const units = messages.map(messageUnit);
  const sectioned = units.some((unit) => unit.sections !== null);
  return { messages: units, sections: sectioned ? units.flatMap((unit) => unit.sections ?? [unit]) : units };
}

/**
 * Where a request carries cache markers. `main`: the system prompt's marker, the frozen sections'
 * (in the view that has them), and the last message's (the Anthropic recipe's `withBreakpoint`).
 * `in-place`: the same, but on the last older message, before the instructions. `none`: a one-off
 * prompt (`summarizeWith`'s, LangChain's summary call), no marker.
 */
const breakpoints = (kind) => (units, sectioned) => {
  if (kind === "none" || units.length === 0) return [];
  const at = [];
  if (units[0].role === "system" && units[0].marker === undefined) at.push(0);
  if (sectioned) units.forEach((unit, index) => unit.marker && at.push(index));
  const last = kind === "in-place" ? units.length - 2 : units.length - 1;
  if (last >= 0) at.push(last);
  return at;
};
/** The model before wrote a request up to its breakpoint: the tokens after it, sent plain. */
const wholeBreakpoint = (kind) => (request) =>
  kind === "main" ? 0 : kind === "none" ? request.total : (request.units.at(-1)?.tokens ?? 0);

/** A conversation's prompt caches, one per provider (bench/provider-caches.mjs). */
function promptCache() {
  const caches = providerCaches();
  return {
    /** The cost split of a request at each provider. */
    send(messages, kind = "main") {
      const views = viewsOf(messages);
      const results = caches.send(views, breakpoints(kind), wholeBreakpoint(kind));
      return {
        total: results.anthropic.total,
        cached: results.anthropic.read,
        keys: views.messages.map((unit) => unit.key),
        results,
      };
    },
  };
}

/** The costs kept per policy: each provider's, with the summary as one block and as a block a section, and the model before. */
const COSTS = [
  "anthropic",
  "anthropicSections",
  "bedrock",
  "bedrockSections",
  "gemini",
  "geminiSections",
  "openai",
  "wholeMessages",
];

/** Adds a request's cost at every provider; returns its cost at Anthropic's. */
function addCost(into, { total, cached, results }) {
  into.tokens += total;
  into.cached += cached;
  for (const name of COSTS) into[name] += results[name].dollars;
  return results.anthropic.dollars;
}
const emptyCost = () => ({ tokens: 0, cached: 0, ...Object.fromEntries(COSTS.map((name) => [name, 0])) });

/**
 * What compactions cost in cache writes, and which ones paid for themselves (Anthropic prices).
 * A *compaction* is a main request that does not start with every message of the one before it:
 * its prefix changed, so the provider's cache misses from there on (a summary placed, a tool result
 * masked or pruned; a policy that only appends never compacts). Its *cache writes* are the tokens
 * that request writes to the cache beyond the messages new since the request before it (which
 * every policy writes anyway). It *saved less than it cost* when what the requests from it up to
 * the next compaction (or the conversation's end) cost as sent, with its summarizer's requests,
 * is not less than what they would have cost had it not happened: each of them then the request
 * before the compaction plus the messages that came since, all read from the cache but the new
 * ones, which are written. So the cache-write premium and the summarize call are set against the
 * input saved over the requests until the next compaction.
 */
function compactionLedger(totals) {
  let previous; // { keys, tokens } of the last main request
  let open; // the compaction being judged: { cost, without, tokens }
  const close = (atEnd) => {
    if (open === undefined) return;
    if (open.cost >= open.without) {
      totals.compactionsLosing++;
      if (atEnd) totals.compactionsLosingAtEnd++;
    }
    totals.compactionNet += open.without - open.cost;
    open = undefined;
  };
  return {
    /** One main request: its keys and cost split, its cost, the tokens new since the last request, and its summarizer's cost. */
    request({ keys, total, cached }, dollars, arrived, summarizerDollars) {
      const rewrote =
        previous !== undefined &&
        (keys.length < previous.keys.length || previous.keys.some((key, index) => keys[index] !== key));
      if (rewrote) {
        close(false);
        totals.compactions++;
        const caused = Math.max(0, total - cached - arrived);
        totals.compactionWrites += caused;
        totals.compactionWriteCost += (caused * prices.anthropic.write) / 1e6;
        open = { cost: 0, without: 0, tokens: previous.tokens };
      }
      if (open !== undefined) {
        open.cost += dollars + summarizerDollars;
        const read = open.tokens >= MINIMUM_CACHED ? open.tokens : 0;
        open.without += (read * prices.anthropic.read + (open.tokens - read + arrived) * prices.anthropic.write) / 1e6;
        open.tokens += arrived;
      }
      previous = { keys, tokens: total };
    },
    end: () => close(true),
  };
}

// What the model writes, the same for every policy: a summary made without a model. Two policies
// of a scenario that summarize the same messages with the same context (the defaults with either
// summarizer make the same compactions) are given the one text, made once.
const idOf = new WeakMap();
let objectIds = 0;
let summaries = new Map();
const summaryText = (older, context) => {
  const key = JSON.stringify([
    older.map((message) => {
      let id = idOf.get(message);
      if (id === undefined) idOf.set(message, (id = ++objectIds));
      return id;
    }),
    context.maxSummaryTokens,
    context.previousSummary,
    context.keptSummary,
  ]);
  let text = summaries.get(key);
  if (text === undefined)
    summaries.set(
      key,
      (text = extractiveSummary(older, {
        maxTokens: context.maxSummaryTokens,
        previousSummary: context.previousSummary,
        keptSummary: context.keptSummary,
      })),
    );
  return text;
};

/** The archived messages a recall returns: its fenced part only, never its own words (which repeat the query). */
function recalledMessages(answer) {
  const start = answer.indexOf("<transcript>");
  const end = answer.lastIndexOf("</transcript>");
  return start === -1 || end < start ? "" : answer.slice(start + "<transcript>".length, end);
}

/**
 * The library as a policy: `compactor` in an agent loop (the request it returns plus what came
 * since), or with `stateful`, `statefulCompactor` as a chat route runs it (the whole history on
 * every request, the compaction kept in its store), which the archive needs. `optionsOf(window)`
 * gives the options besides `summarize`, `events` and `onError`; they are recorded as passed.
 * The summarizer's requests are recorded; `inPlace` sends the older messages as they were sent.
 */
function libraryPolicy({ inPlace, stateful = false, optionsOf = () => ({}) }) {
  const policy = (window) => {
    const summaryRequests = [];
    let older = [];
    const inner = inPlace
      ? summarizeInPlace(async (messages, context) => {
          summaryRequests.push({ messages, breakpoint: "before-instructions" });
          return summaryText(older, context);
        })
      : summarizeWith(async ({ system, user }, context) => {
          summaryRequests.push({
            messages: [
              { role: "system", content: system },
              { role: "user", content: user },
            ],
            breakpoint: "none",
          });
          return summaryText(older, context);
        });
    const summarize = (messages, context) => {
      older = messages;
      return inner(messages, context);
    };
    let refused = 0;
    let generation = 0; // compactions so far: the archive changes with each
    let trimmed = false;
    const events = {
      onSkipped: (event) => (refused += event.reason === "error" ? 1 : 0),
      onCompacted: () => generation++,
      ...(stateful ? { onStoreError: (error) => (trimmed ||= error?.name === "ArchiveTrimmedError") } : {}),
    };
    const options = { maxTokens: window, ...optionsOf(window) };
    const conversationId = "replay";
    const hook = stateful
      ? statefulCompactor({ ...options, summarize, onError: "skip", conversationId, events })
      : compactor({ ...options, summarize, onError: "skip", events });
    // The provider's count of the last request, passed back as an agent loop does (`usage`).
    let usage;
    // Whether one recall with the fact's value as the query returns it: asked again only after a compaction changed the archive.
    const recalled = new Map();
    const recall = options.archive
      ? async (fact) => {
          const known = recalled.get(fact);
          if (known !== undefined && (known.generation === generation || (known.found && !trimmed))) return known.found;
          const found = factsOf(recalledMessages(await hook.recall(factValue(fact), { conversationId }))).includes(
            fact,
          );
          recalled.set(fact, { generation, found });
          return found;
        }
      : undefined;
    return {
      async request(working) {
        const result = stateful
          ? await hook(working, usage ? { usage } : {})
          : await hook({ messages: working, ...(usage ? { usage } : {}) });
        const messages = result?.messages ?? working;
        usage = { inputTokens: billedList(messages), messageCount: stateful ? working.length : messages.length };
        const refusedNow = refused;
        refused = 0;
        return { messages, summaries: summaryRequests.splice(0), keep: !stateful, refused: refusedNow, recall };
      },
    };
  };
  policy.describe = (window) => ({
    entry: stateful ? "statefulCompactor" : "compactor",
    options: {
      maxTokens: window,
      ...optionsOf(window),
      summarize: inPlace ? "summarizeInPlace(complete)" : "summarizeWith(complete)",
      onError: "skip",
      ...(stateful ? { conversationId: "replay" } : {}),
    },
  });
  return policy;
}

/**
 * LangChain's `summarizationMiddleware` as configured in its docs: at the window, keep the last 20
 * messages (moved back so no tool result loses its call), summarize the rest from a 4,000-token trim.
 */
function langchainLike(window) {
  return {
    async request(working) {
      if (billedList(working) <= window) return { messages: working, summaries: [], keep: true };
      const system = working[0]?.role === "system" ? [working[0]] : [];
      let cut = Math.max(system.length, working.length - 20);
      while (cut > system.length && working[cut]?.role === "tool") cut--;
      const older = working.slice(system.length, cut);
      if (older.length === 0) return { messages: working, summaries: [], keep: true };
      const trimmed = [];
      let tokens = 0;
      for (let index = older.length - 1; index >= 0 && tokens + billed(older[index]) <= 4000; index--) {
        tokens += billed(older[index]);
        trimmed.unshift(older[index]);
      }
      const prompt = `Summarize the conversation below.\n\n${renderTranscript(trimmed)}`;
      const summary = {
        role: "user",
        content: `Here is a summary of the conversation to date:\n\n${summaryText(older, { maxSummaryTokens: Math.floor(window / 4) })}`,
      };
      return {
        messages: [...system, summary, ...working.slice(cut)],
        summaries: [{ messages: [{ role: "user", content: prompt }], breakpoint: "none" }],
        keep: true,
      };
    },
  };
}

/** The AI SDK's `pruneMessages` on every step: tool calls and results dropped before the last 2 messages. */
function pruneEveryStep() {
  const converted = aiSdkHistory();
  const same = samePruned();
  return {
    async request(working) {
      // The model input of this step only: the loop goes on from its whole history.
      return {
        messages: same(
          pruneMessages({
            messages: converted(working),
            toolCalls: "before-last-2-messages",
            reasoning: "before-last-message",
          }),
        ),
        summaries: [],
        keep: false,
      };
    },
  };
}

/**
 * `toAiSdk` of a history that grows by appending, converting only what was appended (a run of tool
 * results joins the tool message before it, as `toAiSdk` joins them): the same messages step after
 * step, so each is counted once, not once a step.
 */
function aiSdkHistory() {
  let source = [];
  let out = [];
  return (working) => {
    if (working.length < source.length || source.some((message, index) => working[index] !== message)) {
      source = [];
      out = [];
    }
    const added = toAiSdk(working.slice(source.length));
    if (added[0]?.role === "tool" && out.at(-1)?.role === "tool")
      out = [
        ...out.slice(0, -1),
        { role: "tool", content: [...out.at(-1).content, ...added[0].content] },
        ...added.slice(1),
      ];
    else out = out.concat(added);
    source = working;
    return out;
  };
}

/**
 * `pruneMessages` writes a new object for every message whose parts it filters, on every step; one
 * with the very parts of the step before is given back as that step's object, so it is counted once.
 */
function samePruned() {
  const byFirstPart = new WeakMap();
  return (messages) =>
    messages.map((message) => {
      const parts = message.content;
      if (!Array.isArray(parts) || parts.length === 0 || typeof parts[0] !== "object") return message;
      const known = byFirstPart.get(parts[0]);
      if (
        known !== undefined &&
        known.role === message.role &&
        known.content.length === parts.length &&
        known.content.every((part, index) => part === parts[index])
      )
        return known;
      byFirstPart.set(parts[0], message);
      return message;
    });
}

/**
 * Anthropic's `clear_tool_uses_20250919` context edit, applied by the server to each request while
 * the client keeps its whole history: once the request passes the trigger (here the window), the
 * oldest tool results are replaced by a placeholder, all but the last `keep` (3) tool uses, and only
 * when that clears at least `clear_at_least` (5,000) tokens. Tool inputs are kept (the default).
 * https://platform.claude.com/docs/en/build-with-claude/context-editing
 */
function clearToolUsesLike(window) {
  const keep = 3;
  const clearAtLeast = 5000;
  const placeholder = "[tool result cleared]";
  const cleared = new WeakMap();
  const clearedOf = (message) => {
    let copy = cleared.get(message);
    if (copy === undefined) cleared.set(message, (copy = { ...message, content: placeholder }));
    return copy;
  };
  return {
    async request(working) {
      if (billedList(working) <= window) return { messages: working, summaries: [], keep: false };
      const results = working.map((m, index) => (m.role === "tool" ? index : -1)).filter((index) => index >= 0);
      const clear = new Set(results.slice(0, Math.max(0, results.length - keep)));
      const freed = [...clear].reduce(
        (sum, index) => sum + billed(working[index]) - billed(clearedOf(working[index])),
        0,
      );
      if (freed < clearAtLeast) return { messages: working, summaries: [], keep: false };
      return { messages: working.map((m, index) => (clear.has(index) ? clearedOf(m) : m)), summaries: [], keep: false };
    },
  };
}

/**
 * The setting the docs recommend for windows of 128,000 tokens and more (docs/cost-and-caching.md,
 * "A setting for large windows"): a tail of a ninety-sixth of the window, a summary of up to an
 * eighth, the archive on, the summary written in place. Exactly these options reach the library.
 */
export const largeWindowOptions = (window) => ({
  keepTail: Math.floor(window / 96),
  summary: { maxTokens: Math.floor(window / 8) },
  archive: true,
});

const describePeer = (parameters) => (window) => ({
  entry: "none (a model of the peer, in this file)",
  options: parameters(window),
});
langchainLike.describe = describePeer((window) => ({
  trigger: window,
  keepMessages: 20,
  trimTokens: 4000,
  summaryTokens: Math.floor(window / 4),
}));
pruneEveryStep.describe = describePeer(() => ({
  toolCalls: "before-last-2-messages",
  reasoning: "before-last-message",
}));
clearToolUsesLike.describe = describePeer((window) => ({ trigger: window, keep: 3, clearAtLeast: 5000 }));
const noCompaction = () => ({ request: async (working) => ({ messages: working, summaries: [], keep: true }) });
noCompaction.describe = () => ({ entry: "none", options: {} });

const LARGE = "large-window setting, summarizeInPlace";
const allPolicies = {
  "no compaction": noCompaction,
  "defaults, summarizeWith": libraryPolicy({ inPlace: false }),
  "defaults, summarizeInPlace": libraryPolicy({ inPlace: true }),
  "masking first, summarizeInPlace": libraryPolicy({
    inPlace: true,
    optionsOf: () => ({ ladder: { maskToolResults: true } }),
  }),
  [LARGE]: libraryPolicy({ inPlace: true, stateful: true, optionsOf: largeWindowOptions }),
  "LangChain-like (last 20 messages, 4,000-token trim)": langchainLike,
  "AI SDK pruneMessages every step": pruneEveryStep,
  "Anthropic clear_tool_uses-like (keep 3, clear at least 5,000)": clearToolUsesLike,
};
const policies = Object.fromEntries(
  Object.entries(allPolicies).filter(([name]) => !onlyPolicies || onlyPolicies.some((part) => name.includes(part))),
);
const LIBRARY = "defaults, summarizeInPlace";
const PEERS = [
  "LangChain-like (last 20 messages, 4,000-token trim)",
  "AI SDK pruneMessages every step",
  "Anthropic clear_tool_uses-like (keep 3, clear at least 5,000)",
];

/**
 * The facts a request shows, kept from one request to the next: a request that starts as the last
 * one did (by JSON per message) only adds and removes the facts of the messages that differ, so a
 * session of thousands of requests is not read whole on each.
 */
function visibleTracker() {
  let keys = [];
  let sent = [];
  const counts = new Map();
  const add = (message, by) => {
    for (const fact of messageFacts(message)) {
      const count = (counts.get(fact) ?? 0) + by;
      if (count === 0) counts.delete(fact);
      else counts.set(fact, count);
    }
  };
  return (request, requestKeys) => {
    let same = 0;
    while (same < keys.length && same < requestKeys.length && keys[same] === requestKeys[same]) same++;
    for (let index = same; index < sent.length; index++) add(sent[index], -1);
    for (let index = same; index < request.length; index++) add(request[index], 1);
    keys = requestKeys;
    sent = request;
    return counts;
  };
}

async function replay({ messages }, policyOf, totals, window) {
  const visible = visibleTracker();
  const policy = policyOf(window);
  const cache = promptCache();
  const ledger = compactionLedger(totals);
  // What the loop holds: its own messages, replaced by a policy's compaction where it keeps one.
  let working = [];
  let arrived = 0; // tokens of the messages that came since the last request
  const systemFacts = new Set(messages[0]?.role === "system" ? messageFacts(messages[0]) : []);
  const lastWritten = new Map();
  messages.forEach((message, index) => {
    for (const fact of writtenFacts(message)) lastWritten.set(fact, index);
  });
  // The facts of the conversation so far; of them, those the agent writes again at this position or
  // later (in the order first said), each dropped past its last writing, so that a request looks
  // only at the facts it needs.
  const said = new Set();
  const needed = new Set();
  const lastNeededAt = new Map(); // position → the facts the agent writes for the last time there
  unitOfKey = new Map();
  for (let position = 0; position < messages.length; position++) {
    const message = messages[position];
    for (const fact of lastNeededAt.get(position - 1) ?? []) needed.delete(fact);
    lastNeededAt.delete(position - 1);
    if (message.role === "assistant") {
      const { messages: request, summaries, keep, refused = 0, recall } = await policy.request(working);
      totals.refused += refused;
      let summarizerDollars = 0;
      for (const summary of summaries) {
        const sent = cache.send(summary.messages, summary.breakpoint === "none" ? "none" : "in-place");
        summarizerDollars += addCost(totals.summarizer, sent);
      }
      const sent = cache.send(request);
      ledger.request(sent, addCost(totals.main, sent), arrived, summarizerDollars);
      arrived = 0;
      totals.requests++;
      const over = sent.total > window;
      if (over) totals.over++;
      const shown = visible(request, sent.keys);
      const shows = over ? undefined : shown;
      for (const fact of needed) {
        totals.needed++;
        if (shows?.has(fact)) {
          totals.visible++;
          totals.recallable++;
        } else if (shows !== undefined && recall !== undefined && (await recall(fact))) totals.recallable++;
      }
      // The library's hook and LangChain's middleware keep their compaction; pruning is redone each step.
      if (keep) working = request;
    }
    working = working.concat([message]);
    arrived += billed(message);
    if (message.role === "system") continue;
    for (const fact of messageFacts(message)) {
      if (systemFacts.has(fact) || said.has(fact)) continue;
      said.add(fact);
      const last = lastWritten.get(fact);
      if (last === undefined || last <= position) continue;
      needed.add(fact);
      const facts = lastNeededAt.get(last);
      if (facts === undefined) lastNeededAt.set(last, [fact]);
      else facts.push(fact);
    }
  }
  ledger.end();
}

// --- The datasets --------------------------------------------------------------------------------

const datasetOf = (t) => (t.dataset === "tau1" ? "tau-bench" : t.dataset === "tau2" ? "tau2-bench" : "coding");
const benchmark = sample(transcripts.filter((t) => billedList(t.messages) >= 8000));

/**
 * Real agent sessions in chat form, each behind a system message the size of what it sent beside
 * its messages (system prompt and tool definitions, which the log does not hold: `fixedPart`). A
 * Claude Code log whose fixed part is over 60,000 tokens starts in the middle of its conversation
 * (that part holds history the log lacks) and is left out.
 */
const sessionsDir = fileURLToPath(new URL("../../shared/data/sessions", import.meta.url));
const sessionsSource = existsSync(sessionsDir)
  ? sessionsDir
  : fileURLToPath(new URL("../test/fixtures/sessions", import.meta.url));
/** Text of about `tokens` o200k tokens and no fact. */
const filler = (tokens) => {
  const words = "lorem ipsum dolor sit amet consectetur adipiscing elit ";
  return words.repeat(Math.floor((tokens * 10) / o200k(words.repeat(10))));
};
const realSessions = loadSessions(sessionsSource)
  .map((session) => ({ session, fixed: fixedPart(session) }))
  .filter(({ session, fixed }) => !(session.kind === "claude-code" && fixed > 60_000))
  .map(({ session, fixed }, index) => {
    const anthropic = session.kind === "pi" ? piToAnthropic(session.stream) : session.stream;
    return {
      file: session.name,
      dataset: "real sessions",
      fixed,
      messages: [{ role: "system", content: filler(fixed) }, ...anthropicToChat(anthropic, `s${index}_`)],
    };
  });
const real = sample(realSessions.filter((t) => billedList(t.messages) >= 8000));

/** One long session per dataset: the runs back to back, to `tokens`. */
const longSessionOf = (runs, tokens) => firstTokens(longSession(runs, 100_000), tokens, billedList);
const datasets = [
  {
    name: "tau-bench",
    runs: benchmark.filter((t) => datasetOf(t) === "tau-bench"),
    all: transcripts.filter((t) => datasetOf(t) === "tau-bench"),
  },
  {
    name: "tau2-bench",
    runs: benchmark.filter((t) => datasetOf(t) === "tau2-bench"),
    all: transcripts.filter((t) => datasetOf(t) === "tau2-bench"),
  },
  {
    name: "coding",
    runs: benchmark.filter((t) => datasetOf(t) === "coding"),
    all: transcripts.filter((t) => datasetOf(t) === "coding"),
  },
  { name: "real sessions", runs: real, all: realSessions },
];

const results = {
  date: new Date().toISOString(),
  node: process.version,
  source: `${source}, ${relative(fileURLToPath(new URL("..", import.meta.url)), sessionsSource)}`,
  transcripts: benchmark.length,
  sessions: real.map((t) => ({ name: t.file, fixed: t.fixed, tokens: billedList(t.messages) })),
  longSession: { windows: LONG_WINDOWS, tokens: SESSION_TOKENS, window: LONG_WINDOWS[0] },
  prices,
  pricesSource: "bench/provider-caches.mjs (each provider's pricing page, quoted there)",
  // Every policy's options as passed to the library (or, for a peer, the parameters of its model here), per long window; at 40% and 25% the same with `maxTokens` the transcript's window.
  policies: Object.fromEntries(
    Object.entries(policies).map(([name, policyOf]) => [
      name,
      Object.fromEntries(LONG_WINDOWS.map((w) => [w.toLocaleString("en-US"), policyOf.describe(w)])),
    ]),
  ),
  rows: [],
};
const dollars = (value) => `$${value.toFixed(2)}`;
const pct = (part, whole) => `${((100 * part) / Math.max(1, whole)).toFixed(1)}%`;
const header = [
  "dataset",
  "window",
  "policy",
  "requests",
  "over the window",
  "recall",
  "visible or recallable",
  "refused summaries",
  "compactions",
  "cache writes caused by compactions, Anthropic",
  "compactions that saved less than they cost",
  "main input, Anthropic",
  "summarizer input, Anthropic",
  "total, Anthropic",
  "total, Anthropic, by whole messages (the model before)",
  "total, OpenAI",
  "cache-hit share, Anthropic",
];
const totalOf = (row, name) => row.main[name] + row.summarizer[name];

/** Replays `runs` under every policy and prints one row per policy. */
async function scenario(dataset, windowLabel, runs, windowOf) {
  if (onlyWindows && !onlyWindows.includes(windowLabel)) return;
  summaries = new Map();
  for (const [name, policyOf] of Object.entries(policies)) {
    const totals = {
      requests: 0,
      over: 0,
      refused: 0,
      needed: 0,
      visible: 0,
      recallable: 0,
      compactions: 0,
      compactionWrites: 0,
      compactionWriteCost: 0,
      compactionsLosing: 0,
      compactionsLosingAtEnd: 0,
      compactionNet: 0,
      main: emptyCost(),
      summarizer: emptyCost(),
    };
    const started = performance.now();
    for (const run of runs) await replay(run, policyOf, totals, windowOf(run));
    const options = windowLabel.endsWith("%") ? {} : policyOf.describe(windowOf(runs[0]));
    results.rows.push({
      dataset,
      window: windowLabel,
      policy: name,
      ...options,
      ...totals,
      seconds: Math.round((performance.now() - started) / 100) / 10,
    });
    console.log(rowLine(results.rows.at(-1)));
  }
}

/** A row of the table, as `scenario` prints it. */
function rowLine(row) {
  const hit = (row.main.cached + row.summarizer.cached) / Math.max(1, row.main.tokens + row.summarizer.tokens);
  const recallable = policies[row.policy]?.describe(1000).options.archive
    ? pct(row.recallable, row.needed)
    : "(no archive)";
  return `| ${[row.dataset, row.window, row.policy, row.requests, row.over, pct(row.visible, row.needed), recallable, row.refused, row.compactions, `${dollars(row.compactionWriteCost)} (${row.compactionWrites.toLocaleString("en-US")} tokens)`, row.compactionsLosing, dollars(row.main.anthropic), dollars(row.summarizer.anthropic), dollars(totalOf(row, "anthropic")), dollars(totalOf(row, "wholeMessages")), dollars(totalOf(row, "openai")), `${(hit * 100).toFixed(0)}%`].join(" | ")} |`;
}

// Only a whole run, or parts joined by hand, writes bench/cost.json and the plot.
const wholeRun = !onlyWindows && !onlyPolicies && !onlyDatasets;
const title = `bench:cost — ${benchmark.length} transcripts of 8,000 tokens or more (${source}) and ${real.length} real sessions at windows of 40% and 25% of each; then, per dataset, one long session of its runs back to back (${SESSION_TOKENS.toLocaleString("en-US")} tokens) at windows of ${LONG_WINDOWS.map((w) => w.toLocaleString("en-US")).join(" and ")}\n`;
// `BENCH_FROM=a.json;b.json`: the rows of parts run apart (with `BENCH_OUT`, in parallel), joined into one result.
let parts = process.env.BENCH_FROM?.split(";").map((file) => JSON.parse(readFileSync(file, "utf8")));
if (partsRunning) {
  console.log(title);
  parts = await partsRunning;
  console.log(`| ${header.join(" | ")} |`);
  console.log(`| ${header.map(() => "---").join(" | ")} |`);
  for (const row of parts.flatMap((part) => part.rows)) console.log(rowLine(row));
  parts.push({ rows: [], seconds: Math.round((performance.now() - startedAll) / 1000) });
}
if (parts) results.rows = parts.flatMap((part) => part.rows);
else {
  console.log(title);
  console.log(`| ${header.join(" | ")} |`);
  console.log(`| ${header.map(() => "---").join(" | ")} |`);
  for (const share of SHARES) {
    if (onlyWindows && !onlyWindows.includes(`${share * 100}%`)) continue;
    for (const { name, runs } of datasets)
      if (!onlyDatasets || onlyDatasets.includes(name))
        await scenario(name, `${share * 100}%`, runs, (run) => Math.floor(billedList(run.messages) * share));
  }
  for (const window of LONG_WINDOWS) {
    for (const { name, all } of datasets) {
      const label = window.toLocaleString("en-US");
      if (onlyWindows && !onlyWindows.includes(label)) continue;
      if (onlyDatasets && !onlyDatasets.includes(name)) continue;
      const session = longSessionOf(all, SESSION_TOKENS);
      await scenario(name, label, [{ messages: session }], () => window);
    }
  }
}
results.seconds = parts
  ? Math.max(...parts.map((part) => part.seconds))
  : Math.round((performance.now() - startedAll) / 1000);

// What the real sessions' own reported usage says a request's input is made of: cache reads,
// cache writes and uncached input, and what that input cost at Anthropic prices, beside the
// share this bench's cache model gives the same requests.
{
  const sessions = loadSessions(sessionsSource).filter((session) => realSessions.some((t) => t.file === session.name));
  const reported = { input: 0, write: 0, read: 0 };
  for (const session of sessions) {
    for (const call of session.calls) {
      reported.input += call.usage.input;
      reported.write += call.usage.cacheCreation;
      reported.read += call.usage.cacheRead;
    }
  }
  const total = reported.input + reported.write + reported.read;
  const cost =
    (reported.input * prices.anthropic.input +
      reported.write * prices.anthropic.write +
      reported.read * prices.anthropic.read) /
    1e6;
  results.reportedUsage = {
    sessions: sessions.length,
    calls: sessions.reduce((sum, s) => sum + s.calls.length, 0),
    ...reported,
    readShare: reported.read / Math.max(1, total),
    anthropic: cost,
  };
  console.log(
    `\nThe real sessions' own reported usage (${results.reportedUsage.calls.toLocaleString("en-US")} calls of ${sessions.length} sessions): ${pct(reported.read, total)} of input tokens read from the cache, ${pct(reported.write, total)} written to it, ${pct(reported.input, total)} uncached; ${dollars(cost)} at Anthropic prices.`,
  );
}

// The cost–recall frontier: a policy is on it when no other costs no more (Anthropic prices, main
// and summarizer input) and keeps no fewer needed facts, with one of the two strictly better.
const costOf = (row) => row.main.anthropic + row.summarizer.anthropic;
const recallOf = (row) => row.visible / Math.max(1, row.needed);
const dominates = (a, b) =>
  costOf(a) <= costOf(b) && recallOf(a) >= recallOf(b) && (costOf(a) < costOf(b) || recallOf(a) > recallOf(b));
// The large-window setting's test: no peer policy costs less at a recall within half a point of its own, or better.
const TOLERANCE = 0.005;
const undercuts = (peer, large) => costOf(peer) < costOf(large) && recallOf(peer) >= recallOf(large) - TOLERANCE;
const scenarios = [...new Set(results.rows.map((row) => `${row.dataset}\u0000${row.window}`))].map((key) => {
  const [dataset, window] = key.split("\u0000");
  const rows = results.rows.filter((row) => row.dataset === dataset && row.window === window);
  const frontier = rows.filter((row) => !rows.some((other) => dominates(other, row))).map((row) => row.policy);
  const library = rows.find((row) => row.policy === LIBRARY);
  const large = rows.find((row) => row.policy === LARGE);
  const peers = PEERS.map((peer) => rows.find((row) => row.policy === peer)).filter(Boolean);
  const dominatedBy = library ? peers.filter((peer) => dominates(peer, library)).map((peer) => peer.policy) : [];
  const undercutBy = large ? peers.filter((peer) => undercuts(peer, large)).map((peer) => peer.policy) : [];
  // The same with the summary's sections as blocks and the marker after them (`markFrozenSections()`).
  const withSections = large && {
    ...large,
    main: { anthropic: large.main.anthropicSections },
    summarizer: { anthropic: large.summarizer.anthropicSections },
  };
  const undercutWithSections = large
    ? peers.filter((peer) => undercuts(peer, withSections)).map((peer) => peer.policy)
    : [];
  return {
    dataset,
    window,
    frontier,
    libraryOnFrontier: dominatedBy.length === 0,
    dominatedBy,
    largeWindowUndercutBy: undercutBy,
    largeWindowWithSectionsUndercutBy: undercutWithSections,
    rows,
  };
});
results.frontier = scenarios.map(({ rows, ...rest }) => rest);
console.log(
  "\nThe cost–recall frontier (Anthropic prices): is `defaults, summarizeInPlace` dominated by a peer policy? Is the large-window setting undercut (a peer cheaper at a recall within 0.5 points of it, or better)?\n",
);
console.log(
  "| dataset | window | defaults on the frontier | dominated by | large-window setting undercut by | with its sections as blocks and the marker | the frontier |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- |");
for (const scenario of scenarios) {
  const { dataset, window, frontier, libraryOnFrontier, dominatedBy, largeWindowUndercutBy } = scenario;
  console.log(
    `| ${[dataset, window, libraryOnFrontier ? "yes" : "no", dominatedBy.join(", ") || "none", largeWindowUndercutBy.join(", ") || "none", scenario.largeWindowWithSectionsUndercutBy.join(", ") || "none", frontier.join("; ")].join(" | ")} |`,
  );
}

// What frozen sections save: the library's policies with the summary as one text block (as the
// hook writes it without `cacheMarker`) against a block a section and the provider's marker after
// the last (as `markFrozenSections()` writes it), on the same replay, at each provider's rules.
const LIBRARY_POLICIES = Object.keys(policies).filter((name) => !PEERS.includes(name) && name !== "no compaction");
const change = (before, after) =>
  `${dollars(before)} → ${dollars(after)} (${after <= before ? "−" : "+"}${pct(Math.abs(before - after), before)})`;
console.log(
  "\nWhat frozen sections save: the summary as one text block → a block a section with the marker after the last (`markFrozenSections()`), the same replay. OpenAI's cache (GPT-4.1) reads a text's prefix either way, so its cost is the same.\n",
);
console.log("| dataset | window | policy | Anthropic | Bedrock | Gemini 2.5 Pro | OpenAI GPT-4.1 |");
console.log("| --- | --- | --- | --- | --- | --- | --- |");
for (const row of results.rows) {
  if (!LIBRARY_POLICIES.includes(row.policy)) continue;
  console.log(
    `| ${[row.dataset, row.window, row.policy, change(totalOf(row, "anthropic"), totalOf(row, "anthropicSections")), change(totalOf(row, "bedrock"), totalOf(row, "bedrockSections")), change(totalOf(row, "gemini"), totalOf(row, "geminiSections")), dollars(totalOf(row, "openai"))].join(" | ")} |`,
  );
}

// The defaults at the windows of today's models, at Anthropic's prices: the cache counted by whole
// messages (the model before) → at block granularity as Anthropic's docs describe it → with the
// summary's sections as blocks and the marker.
console.log(
  "\nThe defaults (`defaults, summarizeInPlace`) and the large-window setting at Anthropic prices: by whole messages (the model before) → as Anthropic caches (blocks, breakpoints, lookback) → with frozen sections as blocks and the marker\n",
);
console.log(
  "| dataset | window | policy | by whole messages | as Anthropic caches | with frozen sections and the marker |",
);
console.log("| --- | --- | --- | --- | --- | --- |");
for (const row of results.rows) {
  if ((row.policy !== LIBRARY && row.policy !== LARGE) || row.window.endsWith("%")) continue;
  console.log(
    `| ${[row.dataset, row.window, row.policy, dollars(totalOf(row, "wholeMessages")), dollars(totalOf(row, "anthropic")), dollars(totalOf(row, "anthropicSections"))].join(" | ")} |`,
  );
}
if (process.env.BENCH_FROM || wholeRun)
  writeFileSync(new URL("../docs/cost-frontier.svg", import.meta.url), frontierSvg(scenarios));

/** One panel per dataset and window: each policy's cost against its recall, the frontier joined by a line. */
function frontierSvg(panels) {
  const colors = ["#7f7f7f", "#1f77b4", "#2ca02c", "#17becf", "#e377c2", "#d62728", "#ff7f0e", "#9467bd"];
  const names = Object.keys(policies);
  const width = 300;
  const height = 230;
  const columns = 4;
  const rowsCount = Math.ceil(panels.length / columns);
  const legendHeight = 22 * Math.ceil(names.length / 2) + 10;
  const escapeHtml = (text) => String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;");
  const parts = [];
  panels.forEach(({ dataset, window, rows, frontier }, index) => {
    const x0 = (index % columns) * width + 50;
    const y0 = Math.floor(index / columns) * height + 30;
    const plotWidth = width - 70;
    const plotHeight = height - 80;
    const maxCost = Math.max(...rows.map(costOf)) * 1.08 || 1;
    const minRecall = Math.max(0, Math.floor(Math.min(...rows.map(recallOf)) * 10) / 10 - 0.05);
    const px = (row) => x0 + (costOf(row) / maxCost) * plotWidth;
    const py = (row) => y0 + plotHeight - ((recallOf(row) - minRecall) / (1 - minRecall)) * plotHeight;
    parts.push(
      `<text x="${x0}" y="${y0 - 10}" font-size="12" font-weight="bold">${escapeHtml(`${dataset}, window ${window}`)}</text>`,
    );
    parts.push(`<rect x="${x0}" y="${y0}" width="${plotWidth}" height="${plotHeight}" fill="none" stroke="#ccc"/>`);
    parts.push(
      `<text x="${x0 + plotWidth / 2}" y="${y0 + plotHeight + 30}" font-size="10" text-anchor="middle">input cost, Anthropic ($0–${maxCost.toFixed(2)})</text>`,
    );
    parts.push(`<text x="${x0 - 6}" y="${y0 + 4}" font-size="10" text-anchor="end">100%</text>`);
    parts.push(
      `<text x="${x0 - 6}" y="${y0 + plotHeight}" font-size="10" text-anchor="end">${(minRecall * 100).toFixed(0)}%</text>`,
    );
    parts.push(
      `<text x="${x0 - 36}" y="${y0 + plotHeight / 2}" font-size="10" transform="rotate(-90 ${x0 - 36} ${y0 + plotHeight / 2})" text-anchor="middle">recall</text>`,
    );
    const onFrontier = rows.filter((row) => frontier.includes(row.policy)).sort((a, b) => costOf(a) - costOf(b));
    parts.push(
      `<polyline fill="none" stroke="#444" stroke-dasharray="4 3" points="${onFrontier.map((row) => `${px(row).toFixed(1)},${py(row).toFixed(1)}`).join(" ")}"/>`,
    );
    for (const row of rows) {
      const color = colors[names.indexOf(row.policy) % colors.length];
      parts.push(
        `<circle cx="${px(row).toFixed(1)}" cy="${py(row).toFixed(1)}" r="${row.policy === LIBRARY || row.policy === LARGE ? 6 : 4.5}" fill="${color}" stroke="${frontier.includes(row.policy) ? "#000" : "none"}"><title>${escapeHtml(`${row.policy}: $${costOf(row).toFixed(2)}, ${(recallOf(row) * 100).toFixed(1)}%, ${row.over} over the window`)}</title></circle>`,
      );
    }
  });
  const legendTop = rowsCount * height + 20;
  names.forEach((name, index) => {
    const x = 50 + (index % 2) * 450;
    const y = legendTop + Math.floor(index / 2) * 22;
    parts.push(
      `<circle cx="${x}" cy="${y}" r="5" fill="${colors[index % colors.length]}"/><text x="${x + 12}" y="${y + 4}" font-size="11">${escapeHtml(name)}</text>`,
    );
  });
  const totalHeight = legendTop + legendHeight;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${columns * width + 20}" height="${totalHeight}" viewBox="0 0 ${columns * width + 20} ${totalHeight}" font-family="sans-serif">\n<rect width="100%" height="100%" fill="#fff"/>\n<text x="50" y="14" font-size="11">Input cost against recall of needed facts; a ringed point is on the frontier (no policy costs less and keeps more), the dashed line joins them.</text>\n${parts.join("\n")}\n</svg>\n`;
}
if (process.env.BENCH_FROM || wholeRun) {
  writeFileSync(new URL("./cost.json", import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nwrote bench/cost.json and docs/cost-frontier.svg (${results.seconds} s)`);
} else if (process.env.BENCH_OUT) writeFileSync(process.env.BENCH_OUT, `${JSON.stringify(results, null, 2)}\n`);
else console.log(`\n(a part of the bench: nothing written; ${results.seconds} s)`);
