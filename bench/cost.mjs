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
// is what each policy sends, to the main model and to the summarizer. Beside the cost, the
// recall of each request: of the facts the conversation so far holds (as `bench/facts.mjs` finds
// them) that the agent writes again later, the share the request shows; a request over the window
// shows nothing (the provider rejects it), so all its needed facts count as missed. Prints a
// table and the cost–recall frontier per dataset and window, writes bench/cost.json and the plot
// docs/cost-frontier.svg. `BENCH_SAMPLE=n` replays every n-th transcript of each dataset.
import { writeFileSync } from "node:fs";
import { messageFacts, visibleFacts, writtenFacts } from "./facts.mjs";
import { billed, billedList, o200k } from "./billed.mjs";
import { pruneMessages } from "ai";
import { compactor, extractiveSummary, renderTranscript, summarizeInPlace, summarizeWith } from "../dist/index.js";
import { firstTokens, loadTranscripts, longSession, sample, toAiSdk } from "./data.mjs";

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
const summaryText = (older, context) => extractiveSummary(older, { maxTokens: context.maxSummaryTokens, previousSummary: context.previousSummary });

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
    const hook = compactor({ maxTokens: window, summarize, onError: "skip", events: { onSkipped: (event) => (refused += event.reason === "error" ? 1 : 0) }, ...(mask ? { ladder: { maskToolResults: true } } : {}) });
    let refused = 0;
    // The provider's count of the last request, passed back as an agent loop does (`usage`).
    let usage;
    return {
      async request(working) {
        const result = await hook({ messages: working, ...(usage ? { usage } : {}) });
        const messages = result?.messages ?? working;
        usage = { inputTokens: billedList(messages), messageCount: messages.length };
        const refusedNow = refused;
        refused = 0;
        return { messages, summaries: summaryRequests.splice(0), keep: true, refused: refusedNow };
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
      const freed = [...clear].reduce((sum, index) => sum + billed(working[index]) - billed(clearedOf(working[index])), 0);
      if (freed < clearAtLeast) return { messages: working, summaries: [], keep: false };
      return { messages: working.map((m, index) => (clear.has(index) ? clearedOf(m) : m)), summaries: [], keep: false };
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
  "Anthropic clear_tool_uses-like (keep 3, clear at least 5,000)": clearToolUsesLike,
};
const LIBRARY = "defaults, summarizeInPlace";
const PEERS = ["LangChain-like (last 20 messages, 4,000-token trim)", "AI SDK pruneMessages every step", "Anthropic clear_tool_uses-like (keep 3, clear at least 5,000)"];

async function replay({ messages }, policyOf, totals, window = Math.floor(billedList(messages) * 0.4)) {
  const policy = policyOf(window);
  const cache = promptCache();
  // What the loop holds: its own messages, replaced by a policy's compaction where it keeps one.
  let working = [];
  const systemFacts = new Set(messages[0]?.role === "system" ? messageFacts(messages[0]) : []);
  const lastWritten = new Map();
  messages.forEach((message, index) => {
    for (const fact of writtenFacts(message)) lastWritten.set(fact, index);
  });
  // The facts of the conversation so far, which the agent may write again.
  const said = new Set();
  for (let position = 0; position < messages.length; position++) {
    const message = messages[position];
    if (message.role === "assistant") {
      const { messages: request, summaries, keep, refused = 0 } = await policy.request(working);
      totals.refused += refused;
      for (const summary of summaries) {
        const sent = cache.send(summary.messages);
        addCost(totals.summarizer, sent, summary.breakpoint === "none" ? sent.total : billed(summary.messages.at(-1)));
      }
      const sent = cache.send(request);
      addCost(totals.main, sent);
      totals.requests++;
      const over = sent.total > window;
      if (over) totals.over++;
      const shows = over ? undefined : visibleFacts(request);
      for (const fact of said) {
        if ((lastWritten.get(fact) ?? -1) < position) continue;
        totals.needed++;
        if (shows?.has(fact)) totals.visible++;
      }
      // The library's hook and LangChain's middleware keep their compaction; pruning is redone each step.
      if (keep) working = request;
    }
    working = working.concat([message]);
    if (message.role !== "system") for (const fact of messageFacts(message)) if (!systemFacts.has(fact)) said.add(fact);
  }
}

const selected = sample(transcripts.filter((t) => billedList(t.messages) >= 8000));
const datasetOf = (t) => (t.dataset === "tau1" ? "tau-bench" : t.dataset === "tau2" ? "tau2-bench" : "coding");
const datasets = ["tau-bench", "tau2-bench", "coding"];
const results = { date: new Date().toISOString(), node: process.version, source, transcripts: selected.length, longSession: { tokens: LONG_SESSION_TOKENS, window: LONG_WINDOW }, prices, rows: [] };
const dollars = (value) => `$${value.toFixed(2)}`;
const header = ["dataset", "window", "policy", "requests", "over the window", "recall", "refused summaries", "main input, Anthropic", "summarizer input, Anthropic", "total, Anthropic", "main input, OpenAI", "summarizer input, OpenAI", "total, OpenAI", "cache-hit share"];

/** Replays `runs` under every policy and prints one row per policy. */
async function scenario(dataset, windowLabel, runs, windowOf) {
  for (const [name, policyOf] of Object.entries(policies)) {
    const totals = { requests: 0, over: 0, refused: 0, needed: 0, visible: 0, main: emptyCost(), summarizer: emptyCost() };
    for (const run of runs) await replay(run, policyOf, totals, windowOf(run));
    results.rows.push({ dataset, window: windowLabel, policy: name, ...totals });
    const hit = (totals.main.cached + totals.summarizer.cached) / Math.max(1, totals.main.tokens + totals.summarizer.tokens);
    console.log(`| ${[dataset, windowLabel, name, totals.requests, totals.over, `${((100 * totals.visible) / Math.max(1, totals.needed)).toFixed(1)}%`, totals.refused, dollars(totals.main.anthropic), dollars(totals.summarizer.anthropic), dollars(totals.main.anthropic + totals.summarizer.anthropic), dollars(totals.main.openai), dollars(totals.summarizer.openai), dollars(totals.main.openai + totals.summarizer.openai), `${(hit * 100).toFixed(0)}%`].join(" | ")} |`);
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
// The cost–recall frontier: a policy is on it when no other costs no more (Anthropic prices, main
// and summarizer input) and keeps no fewer needed facts, with one of the two strictly better.
const costOf = (row) => row.main.anthropic + row.summarizer.anthropic;
const recallOf = (row) => row.visible / Math.max(1, row.needed);
const dominates = (a, b) => costOf(a) <= costOf(b) && recallOf(a) >= recallOf(b) && (costOf(a) < costOf(b) || recallOf(a) > recallOf(b));
const scenarios = [...new Set(results.rows.map((row) => `${row.dataset}\u0000${row.window}`))].map((key) => {
  const [dataset, window] = key.split("\u0000");
  const rows = results.rows.filter((row) => row.dataset === dataset && row.window === window);
  const frontier = rows.filter((row) => !rows.some((other) => dominates(other, row))).map((row) => row.policy);
  const library = rows.find((row) => row.policy === LIBRARY);
  const dominatedBy = PEERS.filter((peer) => dominates(rows.find((row) => row.policy === peer), library));
  return { dataset, window, frontier, libraryOnFrontier: dominatedBy.length === 0, dominatedBy, rows };
});
results.frontier = scenarios.map(({ rows, ...rest }) => rest);
console.log("\nThe cost–recall frontier (Anthropic prices): is `defaults, summarizeInPlace` dominated by a peer policy?\n");
console.log("| dataset | window | on the frontier | dominated by | the frontier |");
console.log("| --- | --- | --- | --- | --- |");
for (const { dataset, window, frontier, libraryOnFrontier, dominatedBy } of scenarios) {
  console.log(`| ${[dataset, window, libraryOnFrontier ? "yes" : "no", dominatedBy.join(", ") || "none", frontier.join("; ")].join(" | ")} |`);
}
writeFileSync(new URL("../docs/cost-frontier.svg", import.meta.url), frontierSvg(scenarios));

/** One panel per dataset and window: each policy's cost against its recall, the frontier joined by a line. */
function frontierSvg(panels) {
  const colors = ["#7f7f7f", "#1f77b4", "#2ca02c", "#17becf", "#d62728", "#ff7f0e", "#9467bd"];
  const names = Object.keys(policies);
  const width = 300;
  const height = 230;
  const columns = 3;
  const rowsCount = Math.ceil(panels.length / columns);
  const legendHeight = 22 * Math.ceil(names.length / 2) + 10;
  const escape = (text) => String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;");
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
    parts.push(`<text x="${x0}" y="${y0 - 10}" font-size="12" font-weight="bold">${escape(`${dataset}, window ${window}`)}</text>`);
    parts.push(`<rect x="${x0}" y="${y0}" width="${plotWidth}" height="${plotHeight}" fill="none" stroke="#ccc"/>`);
    parts.push(`<text x="${x0 + plotWidth / 2}" y="${y0 + plotHeight + 30}" font-size="10" text-anchor="middle">input cost, Anthropic ($0–${maxCost.toFixed(2)})</text>`);
    parts.push(`<text x="${x0 - 6}" y="${y0 + 4}" font-size="10" text-anchor="end">100%</text>`);
    parts.push(`<text x="${x0 - 6}" y="${y0 + plotHeight}" font-size="10" text-anchor="end">${(minRecall * 100).toFixed(0)}%</text>`);
    parts.push(`<text x="${x0 - 36}" y="${y0 + plotHeight / 2}" font-size="10" transform="rotate(-90 ${x0 - 36} ${y0 + plotHeight / 2})" text-anchor="middle">recall</text>`);
    const onFrontier = rows.filter((row) => frontier.includes(row.policy)).sort((a, b) => costOf(a) - costOf(b));
    parts.push(`<polyline fill="none" stroke="#444" stroke-dasharray="4 3" points="${onFrontier.map((row) => `${px(row).toFixed(1)},${py(row).toFixed(1)}`).join(" ")}"/>`);
    for (const row of rows) {
      const color = colors[names.indexOf(row.policy) % colors.length];
      parts.push(`<circle cx="${px(row).toFixed(1)}" cy="${py(row).toFixed(1)}" r="${row.policy === LIBRARY ? 6 : 4.5}" fill="${color}" stroke="${frontier.includes(row.policy) ? "#000" : "none"}"><title>${escape(`${row.policy}: $${costOf(row).toFixed(2)}, ${(recallOf(row) * 100).toFixed(1)}%, ${row.over} over the window`)}</title></circle>`);
    }
  });
  const legendTop = rowsCount * height + 20;
  names.forEach((name, index) => {
    const x = 50 + (index % 2) * 450;
    const y = legendTop + Math.floor(index / 2) * 22;
    parts.push(`<circle cx="${x}" cy="${y}" r="5" fill="${colors[index % colors.length]}"/><text x="${x + 12}" y="${y + 4}" font-size="11">${escape(name)}</text>`);
  });
  const totalHeight = legendTop + legendHeight;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${columns * width + 20}" height="${totalHeight}" viewBox="0 0 ${columns * width + 20} ${totalHeight}" font-family="sans-serif">\n<rect width="100%" height="100%" fill="#fff"/>\n<text x="50" y="14" font-size="11">Input cost against recall of needed facts; a ringed point is on the frontier (no policy costs less and keeps more), the dashed line joins them.</text>\n${parts.join("\n")}\n</svg>\n`;
}
writeFileSync(new URL("./cost.json", import.meta.url), JSON.stringify(results, null, 2) + "\n");
console.log("\nwrote bench/cost.json");
