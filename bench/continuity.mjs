// `npm run bench:continuity`: after each compaction, can the agent still see the facts it goes on
// to use? Replays every transcript of 8,000 o200k tokens or more as an agent loop (the hook before
// each assistant turn, as `bench:fit` does) at windows of 40% and 25%, `keepTail` half, the default
// ladder, with `extractiveSummary` as the summarizer. At each compaction whose request fits the
// window, the *needed* facts are the identifiers of messages the request no longer holds verbatim
// (summarized, masked or cut) that an assistant message writes again later; recall is the share of
// them visible anywhere in the request. Prints a table per dataset and window, writes bench/continuity.json.
import { writeFileSync } from "node:fs";
import { billed, billedList, o200k } from "./billed.mjs";
import { FLUSH_TO_MEMORY_REMINDER, SUMMARY_PREFIX, buildSummaryPrompt, compactor, extractiveSummary } from "../dist/index.js";
import { loadTranscripts } from "./data.mjs";

const { transcripts, source } = loadTranscripts();


// Facts, as the measure defines them, found here independently of the library's own scanner:
// ids that hold a digit, paths and file names, amounts, dates, emails, URLs, and in code the names
// of functions, classes and methods (snake_case, camelCase, PascalCase, dotted names).
const factPattern = /https?:\/\/[^\s"'<>)\]\\]+|[#$~/]?[A-Za-z0-9_][A-Za-z0-9_.\-/@:#]*[A-Za-z0-9_]|[#$]\d[\d,.]*/g;
function isFact(token) {
  if (token.length < 3 || token.length > 200) return false;
  if (/^https?:\/\//.test(token)) return true;
  if (/\d/.test(token)) return /[A-Za-z0-9]{2}/.test(token) || /\d[.,:/-]\d/.test(token) || /^[#$]/.test(token);
  if (/[A-Za-z]\/|\/[A-Za-z]/.test(token)) return true;
  if (/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(token)) return true;
  if (/_/.test(token) && /[A-Za-z]/.test(token)) return true;
  if (/[a-z][A-Z]/.test(token)) return true;
  return /^[A-Za-z][A-Za-z0-9]+\.[A-Za-z][A-Za-z0-9]{0,7}$/.test(token);
}
const factsCache = new Map();
function factsOf(text) {
  if (typeof text !== "string" || text === "") return [];
  const cached = factsCache.get(text);
  if (cached) return cached;
  const found = new Set();
  for (const match of text.matchAll(factPattern)) {
    const token = match[0].replace(/[.:,\-/]+$/, "");
    if (isFact(token)) found.add(token);
  }
  const list = [...found];
  if (text.length < 20_000) factsCache.set(text, list);
  return list;
}
/** Every fact a message holds: its text, its tool result, its tool calls' names and arguments. */
function messageFacts(message) {
  const content = message.content;
  const text = typeof content === "string" ? content : Array.isArray(content) ? content.map((part) => part?.text ?? "").join("\n") : "";
  const facts = factsOf(text);
  const calls = (message.tool_calls ?? []).flatMap((call) => factsOf(`${call.function?.name ?? ""} ${call.function?.arguments ?? ""}`));
  return calls.length === 0 ? facts : [...facts, ...calls];
}
/** What an assistant message writes: its text and its tool calls' arguments. */
const writtenFacts = (message) => (message.role === "assistant" ? messageFacts(message) : []);
/** Everything a request shows, as one text to search: each message's JSON, escapes undone. */
const visibleText = (messages) => messages.map((m) => JSON.stringify(m).replace(/\\n/g, "\n").replace(/\\"/g, '"').replace(/\\\\/g, "\\")).join("\n");

/** The last `tokens` o200k tokens of `older`, as LangChain's summarizationMiddleware trims its input. */
function lastTokens(older, tokens) {
  const kept = [];
  let total = 0;
  for (let index = older.length - 1; index >= 0; index--) {
    total += billed(older[index]);
    if (total > tokens) break;
    kept.unshift(older[index]);
  }
  return kept;
}

// The system prompt and the latest request, which is never summarized away, leave no room for even
// a summary of a few words: no compaction can fit this window (as bench:fit counts it).
const smallestSummary = o200k("[Summary of earlier conversation]\n" + "a few words ".repeat(5)) + 4;
function unavoidable(request, window) {
  const system = request[0]?.role === "system" && !String(request[0].content).startsWith(SUMMARY_PREFIX) ? billed(request[0]) : 0;
  const latest = request.findLast((m) => m.role === "user");
  return system + (latest ? billed(latest) : 0) + smallestSummary > window;
}

const datasetOf = (transcript) => (transcript.dataset === "tau1" ? "tau-bench" : transcript.dataset === "tau2" ? "tau2-bench" : "coding");

async function replay({ messages }, share, totals) {
  const window = Math.floor(billedList(messages) * share);
  const systemFacts = new Set(messages[0]?.role === "system" ? messageFacts(messages[0]) : []);
  // The last index at which an assistant writes each fact.
  const lastWritten = new Map();
  messages.forEach((message, index) => {
    for (const fact of writtenFacts(message)) lastWritten.set(fact, index);
  });
  let seen;
  const hook = compactor({
    maxTokens: window,
    keepTail: Math.floor(window / 2),
    onError: "skip",
    summarize: (older, context) => {
      seen = { older, context };
      return extractiveSummary(older, { maxTokens: context.maxSummaryTokens, previousSummary: context.previousSummary });
    },
  });
  let working = [];
  for (let position = 0; position < messages.length; position++) {
    const message = messages[position];
    if (message.role === "assistant") {
      seen = undefined;
      const result = await hook({ messages: working });
      if (result) {
        const request = result.messages;
        if (billedList(request) <= window) judge(working, request, seen, position);
        else if (unavoidable(request, window)) totals.unavoidable++;
        else totals.overWindow++;
        working = request;
      }
    }
    working = working.concat([message]);
  }

  function judge(input, request, summarized, position) {
    const kept = new Set(request);
    const gone = input.filter((m) => !kept.has(m));
    const needed = new Set();
    for (const m of gone) for (const fact of messageFacts(m)) if (!systemFacts.has(fact) && (lastWritten.get(fact) ?? -1) >= position) needed.add(fact);
    if (needed.size === 0) return;
    const older = new Set(summarized?.older ?? []);
    // The messages the hook added: a new summary and its reminder (a cut tail message is a new object too, but no summary).
    const summaries = request.filter((m) => !input.includes(m) && m.role !== "tool" && !m.tool_calls && typeof m.content === "string" && (m.content.startsWith(SUMMARY_PREFIX) || m.content === FLUSH_TO_MEMORY_REMINDER));
    const rest = request.filter((m) => !summaries.includes(m));
    const requestText = visibleText(request);
    const restText = visibleText(rest);
    const promptText = summarized ? buildSummaryPrompt(summarized.older, summarized.context).user : "";
    const trimText = summarized ? visibleText(lastTokens(summarized.older, 4000)) : "";
    const olderRaw = new Set(gone.filter((m) => older.has(m)).flatMap(messageFacts));
    const cutRaw = new Set(gone.filter((m) => !older.has(m)).flatMap(messageFacts));
    const row = totals;
    row.compactions++;
    for (const fact of needed) {
      row.needed++;
      if (requestText.includes(fact)) row.extractive++;
      const inRest = restText.includes(fact);
      if (inRest || promptText.includes(fact)) row.prompt++;
      if (inRest) row.dropped++;
      if (inRest || trimText.includes(fact)) row.trim++;
      if (!inRest && olderRaw.has(fact) && !promptText.includes(fact)) row.rendererHidden++;
      if (!inRest && cutRaw.has(fact) && !olderRaw.has(fact)) row.truncated++;
    }
  }
}

const selected = transcripts.filter((t) => billedList(t.messages) >= 8000);
const results = { date: new Date().toISOString(), node: process.version, source, transcripts: selected.length, rows: [] };
const pct = (part, whole) => `${((100 * part) / Math.max(1, whole)).toFixed(1)}%`;
console.log(`bench:continuity — ${selected.length} transcripts of 8,000 tokens or more (${source})\n`);
const header = ["window", "dataset", "compactions judged", "not judged: over the window (unavoidable)", "not judged: over the window (estimate under-count)", "needed facts", "extractiveSummary", "what buildSummaryPrompt shows", "dropping the older part", "last 4,000 tokens of it", "hidden by the renderer's cut", "cut out of the tail by truncation"];
console.log(`| ${header.join(" | ")} |`);
console.log(`| ${header.map(() => "---").join(" | ")} |`);
for (const share of [0.4, 0.25]) {
  for (const dataset of ["tau-bench", "tau2-bench", "coding"]) {
    const totals = { compactions: 0, unavoidable: 0, overWindow: 0, needed: 0, extractive: 0, prompt: 0, dropped: 0, trim: 0, rendererHidden: 0, truncated: 0 };
    for (const transcript of selected.filter((t) => datasetOf(t) === dataset)) await replay(transcript, share, totals);
    const row = { window: share, dataset, ...totals };
    results.rows.push(row);
    const n = totals.needed;
    console.log(`| ${[`${share * 100}%`, dataset, totals.compactions, totals.unavoidable, totals.overWindow, n, pct(totals.extractive, n), pct(totals.prompt, n), pct(totals.dropped, n), pct(totals.trim, n), pct(totals.rendererHidden, n), pct(totals.truncated, n)].join(" | ")} |`);
  }
}
writeFileSync(new URL("./continuity.json", import.meta.url), JSON.stringify(results, null, 2) + "\n");
console.log("\nwrote bench/continuity.json");
