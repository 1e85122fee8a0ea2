// `npm run bench:cost`: what a conversation's input costs under each compaction policy, with the
// providers' prompt caches. Replays every transcript of 8,000 o200k tokens or more as an agent loop
// (a request before each assistant message) at a window of 40% of its size; then, per dataset, one
// long session (its runs back to back, 512,000 tokens) at a window of 128,000, the size of today's
// models, where a compaction's older part is tens of thousands of tokens. A request's cached part
// is the longest run of leading messages it shares with an earlier request of the conversation
// (the provider's prefix match), counted only from 1,024 tokens; the cache's lifetime is ignored.
// Prices per million input tokens: Anthropic (Claude Sonnet: $3, a cache write $3.75, a cache read
// $0.30) and OpenAI (GPT-4.1: $2, a cached read $0.50, no write fee). Main requests are cached up to
// their last message; see `addCost` for the summarizer's requests. The library's hook is given the
// provider's count of the previous request (`usage`), as an agent loop passes it. Summaries are
// written without a model (`extractiveSummary`), so every policy gets the same text; what differs
// is what each policy sends, to the main model and to the summarizer. Prints a table, writes
// bench/cost.json.
import { writeFileSync } from "node:fs";
import { billed, billedList, o200k } from "./billed.mjs";
import { pruneMessages } from "ai";
import { compactor, extractiveSummary, renderTranscript, summarizeInPlace, summarizeWith } from "../dist/index.js";
import { firstTokens, loadTranscripts, longSession, toAiSdk } from "./data.mjs";

const { transcripts, source } = loadTranscripts();

/** o200k tokens of a message as a chat API bills it: text, tool names and arguments or results, 4 of framing. */

const prices = {
  anthropic: { input: 3, write: 3.75, read: 0.3 },
  openai: { input: 2, write: 2, read: 0.5 },
};
const MINIMUM_CACHED = 1024;
// The production-sized case: a window of a current model, and a session four times as long.
const LONG_WINDOW = 128_000;
const LONG_SESSION_TOKENS = 4 * LONG_WINDOW;

/** A message's JSON, once per message object (the replays send the same objects request after request). */
const jsonOf = new WeakMap();
const keyOf = (message) => {
  let key = jsonOf.get(message);
  if (key === undefined) jsonOf.set(message, (key = JSON.stringify(message)));
  return key;
};

/** A conversation's prompt cache: the requests sent so far, as JSON per message. */
function promptCache() {
  const sent = [];
  return {
    /** The cost split of a request: tokens read from the cache, and the rest. */
    send(messages) {
      const keys = messages.map(keyOf);
      let shared = 0;
      for (const earlier of sent) {
        let n = 0;
        while (n < keys.length && n < earlier.length && keys[n] === earlier[n]) n++;
        shared = Math.max(shared, n);
      }
      sent.push(keys);
      if (sent.length > 8) sent.shift();
      const total = billedList(messages);
      const cachedTokens = billedList(messages.slice(0, shared));
      const cached = cachedTokens >= MINIMUM_CACHED ? cachedTokens : 0;
      return { total, cached };
    },
  };
}

/**
 * Adds a request's cost: its cached part at the read price, the part written to the cache (up to
 * its cache breakpoint) at the write price, and what follows the breakpoint at the input price. A
 * main request has its breakpoint on its last message (all of it is written); a summary request
 * made by `summarizeWith` has none (a one-off prompt); one made by `summarizeInPlace` has it on the
 * last older message, so only the instructions after it are plain input.
 */
function addCost(into, { total, cached }, afterBreakpoint = 0) {
  into.tokens += total;
  into.cached += cached;
  const plain = Math.min(afterBreakpoint, total - cached);
  const written = total - cached - plain;
  for (const [provider, price] of Object.entries(prices)) into[provider] += (cached * price.read + written * price.write + plain * price.input) / 1e6;
}
const emptyCost = () => ({ tokens: 0, cached: 0, anthropic: 0, openai: 0 });

// What the model writes, the same for every policy: a summary made without a model.
const summaryText = (older, context) => extractiveSummary(older, { maxTokens: Math.max(1, context.maxSummaryTokens), previousSummary: context.previousSummary });

/** The library's hook with a summarizer whose requests are recorded; `inPlace` sends the older messages as they were sent. */
function libraryPolicy({ inPlace, mask }) {
  return (window) => {
    const summaryRequests = [];
    let older = [];
    const inner = inPlace
      ? summarizeInPlace(async (messages, context) => {
          summaryRequests.push({ messages, breakpoint: "before-instructions" });
          return summaryText(older, context);
        })
      : summarizeWith(async ({ system, user }, context) => {
          summaryRequests.push({ messages: [{ role: "system", content: system }, { role: "user", content: user }], breakpoint: "none" });
          return summaryText(older, context);
        });
    const summarize = (messages, context) => {
      older = messages;
      return inner(messages, context);
    };
    const hook = compactor({ maxTokens: window, summarize, onError: "skip", ...(mask ? { maskToolResults: true } : {}) });
    // The provider's count of the last request, passed back as an agent loop does (`usage`).
    let usage;
    return {
      async request(working) {
        const result = await hook({ messages: working, ...(usage ? { usage } : {}) });
        const messages = result?.messages ?? working;
        usage = { inputTokens: billedList(messages), messageCount: messages.length };
        return { messages, summaries: summaryRequests.splice(0), keep: true };
      },
    };
  };
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
      const summary = { role: "user", content: `Here is a summary of the conversation to date:\n\n${summaryText(older, { maxSummaryTokens: Math.floor(window / 4) })}` };
      return { messages: [...system, summary, ...working.slice(cut)], summaries: [{ messages: [{ role: "user", content: prompt }], breakpoint: "none" }], keep: true };
    },
  };
}

/** The AI SDK's `pruneMessages` on every step: tool calls and results dropped before the last 2 messages. */
function pruneEveryStep() {
  return {
    async request(working) {
      // The model input of this step only: the loop goes on from its whole history.
      return { messages: pruneMessages({ messages: toAiSdk(working), toolCalls: "before-last-2-messages", reasoning: "before-last-message" }), summaries: [], keep: false };
    },
  };
}

const policies = {
  "no compaction": () => ({ request: async (working) => ({ messages: working, summaries: [], keep: true }) }),
  "defaults, summarizeWith": libraryPolicy({ inPlace: false, mask: false }),
  "defaults, summarizeInPlace": libraryPolicy({ inPlace: true, mask: false }),
  "masking first, summarizeInPlace": libraryPolicy({ inPlace: true, mask: true }),
  "LangChain-like (last 20 messages, 4,000-token trim)": langchainLike,
  "AI SDK pruneMessages every step": pruneEveryStep,
};

async function replay({ messages }, policyOf, totals, window = Math.floor(billedList(messages) * 0.4)) {
  const policy = policyOf(window);
  const cache = promptCache();
  // What the loop holds: its own messages, replaced by a policy's compaction where it keeps one.
  let working = [];
  for (const message of messages) {
    if (message.role === "assistant") {
      const { messages: request, summaries, keep } = await policy.request(working);
      for (const summary of summaries) {
        const sent = cache.send(summary.messages);
        addCost(totals.summarizer, sent, summary.breakpoint === "none" ? sent.total : billed(summary.messages.at(-1)));
      }
      const sent = cache.send(request);
      addCost(totals.main, sent);
      totals.requests++;
      if (sent.total > window) totals.over++;
      // The library's hook and LangChain's middleware keep their compaction; pruning is redone each step.
      if (keep) working = request;
    }
    working = working.concat([message]);
  }
}

const selected = transcripts.filter((t) => billedList(t.messages) >= 8000);
const datasetOf = (t) => (t.dataset === "tau1" ? "tau-bench" : t.dataset === "tau2" ? "tau2-bench" : "coding");
const datasets = ["tau-bench", "tau2-bench", "coding"];
const results = { date: new Date().toISOString(), node: process.version, source, transcripts: selected.length, longSession: { tokens: LONG_SESSION_TOKENS, window: LONG_WINDOW }, prices, rows: [] };
const dollars = (value) => `$${value.toFixed(2)}`;
const header = ["dataset", "window", "policy", "requests", "over the window", "main input, Anthropic", "summarizer input, Anthropic", "total, Anthropic", "main input, OpenAI", "summarizer input, OpenAI", "total, OpenAI", "cache-hit share"];

/** Replays `runs` under every policy and prints one row per policy. */
async function scenario(dataset, windowLabel, runs, windowOf) {
  for (const [name, policyOf] of Object.entries(policies)) {
    const totals = { requests: 0, over: 0, main: emptyCost(), summarizer: emptyCost() };
    for (const run of runs) await replay(run, policyOf, totals, windowOf(run));
    results.rows.push({ dataset, window: windowLabel, policy: name, ...totals });
    const hit = (totals.main.cached + totals.summarizer.cached) / Math.max(1, totals.main.tokens + totals.summarizer.tokens);
    console.log(`| ${[dataset, windowLabel, name, totals.requests, totals.over, dollars(totals.main.anthropic), dollars(totals.summarizer.anthropic), dollars(totals.main.anthropic + totals.summarizer.anthropic), dollars(totals.main.openai), dollars(totals.summarizer.openai), dollars(totals.main.openai + totals.summarizer.openai), `${(hit * 100).toFixed(0)}%`].join(" | ")} |`);
  }
}

console.log(`bench:cost — ${selected.length} transcripts of 8,000 tokens or more (${source}) at a window of 40% of each; then, per dataset, one long session of its runs back to back (${LONG_SESSION_TOKENS.toLocaleString("en-US")} tokens) at a window of ${LONG_WINDOW.toLocaleString("en-US")}\n`);
console.log(`| ${header.join(" | ")} |`);
console.log(`| ${header.map(() => "---").join(" | ")} |`);
for (const dataset of datasets) {
  await scenario(dataset, "40%", selected.filter((t) => datasetOf(t) === dataset), (run) => Math.floor(billedList(run.messages) * 0.4));
}
for (const dataset of datasets) {
  const runs = transcripts.filter((t) => datasetOf(t) === dataset);
  const session = firstTokens(longSession(runs, 100_000), LONG_SESSION_TOKENS, billedList);
  await scenario(dataset, LONG_WINDOW.toLocaleString("en-US"), [{ messages: session }], () => LONG_WINDOW);
}
writeFileSync(new URL("./cost.json", import.meta.url), JSON.stringify(results, null, 2) + "\n");
console.log("\nwrote bench/cost.json");
