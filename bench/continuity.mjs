// `npm run bench:continuity`: after each compaction, can the agent still see the facts it goes on
// to use? Replays every transcript of 8,000 o200k tokens or more as an agent loop (the hook before
// each assistant turn, as `bench:fit` does) at windows of 40% and 25%, `keepTail` half, the default
// ladder, with `extractiveSummary` as the summarizer. At each compaction whose request fits the
// window, the *needed* facts are the identifiers of messages the request no longer holds verbatim
// (summarized, masked or cut) that an assistant message writes again later; recall is the share of
// them visible anywhere in the request (facts as `bench/facts.mjs` finds them, each in one canonical
// form, visible when the request holds it as a whole token). `BENCH_SAMPLE=n` replays every n-th
// transcript of each dataset, for a quick look while changing the code. Prints a table per dataset and window, writes bench/continuity.json.
import { writeFileSync } from "node:fs";
import { billed, billedList, o200k } from "./billed.mjs";
import { FLUSH_TO_MEMORY_REMINDER, SUMMARY_PREFIX } from "../dist/expert.js";
import { buildSummaryPrompt } from "../dist/summary-kit.js";
import { compactor, extractiveSummary, statefulCompactor } from "../dist/index.js";
import { loadTranscripts, sample } from "./data.mjs";
import * as projectFacts from "./facts.mjs";
import * as independentFacts from "./independent-facts.mjs";

const { factValue, factsOf, messageFacts, visibleFacts } = projectFacts;

const { transcripts, source } = loadTranscripts();

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
const smallestSummary = o200k(`[Summary of earlier conversation]\n${"a few words ".repeat(5)}`) + 4;
function unavoidable(request, window) {
  const system =
    request[0]?.role === "system" && !String(request[0].content).startsWith(SUMMARY_PREFIX) ? billed(request[0]) : 0;
  const latest = request.findLast((m) => m.role === "user");
  return system + (latest ? billed(latest) : 0) + smallestSummary > window;
}

const datasetOf = (transcript) =>
  transcript.dataset === "tau1" ? "tau-bench" : transcript.dataset === "tau2" ? "tau2-bench" : "coding";

/** The facts of the system prompt (never needed), and the last index at which an assistant writes each fact. */
function factIndex(messages, { messageFacts, writtenFacts } = projectFacts) {
  const systemFacts = new Set(messages[0]?.role === "system" ? messageFacts(messages[0]) : []);
  const lastWritten = new Map();
  messages.forEach((message, index) => {
    for (const fact of writtenFacts(message)) lastWritten.set(fact, index);
  });
  return { systemFacts, lastWritten };
}

const emptyTotals = () => ({
  compactions: 0,
  needed: 0,
  extractive: 0,
  summaryHolds: 0,
  prompt: 0,
  dropped: 0,
  trim: 0,
  rendererHidden: 0,
  truncated: 0,
  lost: { conversation: 0, toolResult: 0, previousSummary: 0, maskedOrCut: 0, other: 0 },
});

/**
 * Replays one transcript and judges each compaction twice: with the project's extractor into
 * `totals`, and with the independent one (`bench/independent-facts.mjs`) into `totals.independent`.
 */
async function replay({ messages }, share, totals) {
  const window = Math.floor(billedList(messages) * share);
  const judges = [
    { extractor: projectFacts, row: totals, ...factIndex(messages, projectFacts) },
    { extractor: independentFacts, row: totals.independent, ...factIndex(messages, independentFacts) },
  ];
  let seen;
  const hook = compactor({
    maxTokens: window,
    keepTail: Math.floor(window / 2),
    onError: "skip",
    // A summary the hook refuses leaves the request as it was: counted, since it should not happen.
    events: {
      onSkipped: (event) => {
        if (event.reason === "error") totals.refused++;
      },
    },
    summarize: (older, context) => {
      seen = { older, context };
      return extractiveSummary(older, {
        maxTokens: context.maxSummaryTokens,
        previousSummary: context.previousSummary,
        keptSummary: context.keptSummary,
      });
    },
  });
  let working = [];
  let summaries = 0;
  for (let position = 0; position < messages.length; position++) {
    const message = messages[position];
    if (message.role === "assistant") {
      seen = undefined;
      const result = await hook({ messages: working });
      if (result) {
        const request = result.messages;
        if (seen !== undefined) {
          // How many summarizations the deepest fact of the summary went through: its sections'
          // depths (a section without a header, one); re-summarizing the whole summary at each
          // compaction would put the first facts through every one of them.
          summaries++;
          totals.mostCompactions = Math.max(totals.mostCompactions ?? 0, summaries);
          const summary = request.find((m) => typeof m.content === "string" && m.content.startsWith(SUMMARY_PREFIX));
          const depths = [
            ...String(summary?.content ?? "").matchAll(/\[Summary part: \d+ compactions?, depth (\d+)\]/g),
          ].map((match) => Number(match[1]));
          totals.deepest = Math.max(totals.deepest ?? 0, 1, ...depths);
        }
        if (billedList(request) <= window) for (const one of judges) judge(working, request, seen, position, one);
        else if (unavoidable(request, window)) totals.unavoidable++;
        else totals.overWindow++;
        working = request;
      }
    }
    working = working.concat([message]);
  }

  function judge(input, request, summarized, position, { extractor, row, systemFacts, lastWritten }) {
    const { factsOf, messageFacts, visibleFacts } = extractor;
    const kept = new Set(request);
    const gone = input.filter((m) => !kept.has(m));
    const needed = new Set();
    for (const m of gone)
      for (const fact of messageFacts(m))
        if (!systemFacts.has(fact) && (lastWritten.get(fact) ?? -1) >= position) needed.add(fact);
    if (needed.size === 0) return;
    // What the summary replaced: the older messages, and the earlier summary message, whose kept
    // sections the new summary message holds again as they were (\`context.earlier\`).
    const older = new Set([...(summarized?.context.earlier ?? []), ...(summarized?.older ?? [])]);
    // The messages the hook added: a new summary and its reminder (a cut tail message is a new object too, but no summary).
    const summaries = request.filter(
      (m) =>
        !input.includes(m) &&
        m.role !== "tool" &&
        !m.tool_calls &&
        typeof m.content === "string" &&
        (m.content.startsWith(SUMMARY_PREFIX) || m.content === FLUSH_TO_MEMORY_REMINDER),
    );
    const rest = request.filter((m) => !summaries.includes(m));
    const requestShows = visibleFacts(request);
    const summaryShows = visibleFacts(summaries);
    const restShows = visibleFacts(rest);
    // What a model summarizer is shown: the prompt, and the earlier sections that stay before what it writes.
    const promptShows = new Set(
      summarized
        ? [
            ...factsOf(buildSummaryPrompt(summarized.older, summarized.context).user),
            ...factsOf(summarized.context.keptSummary ?? ""),
          ]
        : [],
    );
    // LangChain's trim reads the older part as it stands, the earlier summary first.
    const trimShows = summarized
      ? visibleFacts(lastTokens([...(summarized.context.earlier ?? []), ...summarized.older], 4000))
      : new Set();
    const olderRaw = new Set(gone.filter((m) => older.has(m)).flatMap(messageFacts));
    const cutRaw = new Set(gone.filter((m) => !older.has(m)).flatMap(messageFacts));
    const previous = new Set(factsOf(summarized?.context.previousSummary ?? ""));
    const olderGone = gone.filter((m) => older.has(m));
    const resultRaw = new Set(olderGone.filter((m) => m.role === "tool").flatMap(messageFacts));
    const writtenRaw = new Set(
      olderGone.filter((m) => m.role !== "tool" && !String(m.content).startsWith(SUMMARY_PREFIX)).flatMap(messageFacts),
    );
    // Where a fact the request no longer shows was last seen: what lost it.
    const lossOf = (fact) =>
      previous.has(fact)
        ? "previousSummary"
        : writtenRaw.has(fact)
          ? "conversation"
          : resultRaw.has(fact)
            ? "toolResult"
            : cutRaw.has(fact)
              ? "maskedOrCut"
              : "other";
    row.compactions++;
    for (const fact of needed) {
      row.needed++;
      if (requestShows.has(fact)) row.extractive++;
      if (summaryShows.has(fact)) row.summaryHolds++;
      const inRest = restShows.has(fact);
      if (inRest || promptShows.has(fact)) row.prompt++;
      if (inRest) row.dropped++;
      if (inRest || trimShows.has(fact)) row.trim++;
      if (!inRest && olderRaw.has(fact) && !promptShows.has(fact)) row.rendererHidden++;
      if (!inRest && cutRaw.has(fact) && !olderRaw.has(fact)) row.truncated++;
      if (!requestShows.has(fact)) row.lost[lossOf(fact)]++;
    }
  }
}

/** The archived messages a recall returns: its fenced part only, never its own words (which repeat the query). */
function recalledMessages(answer) {
  const start = answer.indexOf("<transcript>");
  const end = answer.lastIndexOf("</transcript>");
  return start === -1 || end < start ? "" : answer.slice(start + "<transcript>".length, end);
}

/**
 * The same replay as a chat route runs it, the whole history on every request, through
 * `statefulCompactor` with `archive: true`: each needed fact the request does not show is asked of
 * `compact.recall` with the fact's value as the query (one recall, its default bound of 2,000 tokens), as
 * an agent would with the `recall_context` tool. Counts the needed facts visible or recalled.
 */
async function recallReplay({ messages }, share, totals) {
  const window = Math.floor(billedList(messages) * share);
  const { systemFacts, lastWritten } = factIndex(messages);
  const conversationId = "replay";
  const compact = statefulCompactor({
    maxTokens: window,
    keepTail: Math.floor(window / 2),
    onError: "skip",
    archive: true,
    conversationId,
    events: {
      onStoreError: (error) => {
        if (error?.name === "ArchiveTrimmedError") totals.archiveTrimmed++;
      },
    },
    summarize: (older, context) =>
      extractiveSummary(older, {
        maxTokens: context.maxSummaryTokens,
        previousSummary: context.previousSummary,
        keptSummary: context.keptSummary,
      }),
  });
  for (let position = 0; position < messages.length; position++) {
    if (messages[position].role !== "assistant") continue;
    const history = messages.slice(0, position);
    const result = await compact(history);
    if (result === null) continue;
    const request = result.messages;
    if (billedList(request) > window) continue;
    const kept = new Set(request);
    const needed = new Set();
    for (const m of history)
      if (!kept.has(m))
        for (const fact of messageFacts(m))
          if (!systemFacts.has(fact) && (lastWritten.get(fact) ?? -1) >= position) needed.add(fact);
    const shows = visibleFacts(request);
    for (const fact of needed) {
      totals.archiveNeeded++;
      if (shows.has(fact)) totals.visibleOrRecalled++;
      else if (new Set(factsOf(recalledMessages(await compact.recall(factValue(fact), { conversationId })))).has(fact))
        totals.visibleOrRecalled++;
    }
  }
}

const selected = sample(transcripts.filter((t) => billedList(t.messages) >= 8000));
const results = {
  date: new Date().toISOString(),
  node: process.version,
  source,
  transcripts: selected.length,
  rows: [],
};
const pct = (part, whole) => `${((100 * part) / Math.max(1, whole)).toFixed(1)}%`;
console.log(`bench:continuity — ${selected.length} transcripts of 8,000 tokens or more (${source})\n`);
const header = [
  "window",
  "dataset",
  "compactions judged",
  "summaries refused",
  "not judged: over the window (unavoidable)",
  "not judged: over the window (estimate under-count)",
  "needed facts",
  "extractiveSummary",
  "needed facts (independent extractor)",
  "extractiveSummary (independent extractor)",
  "held by the summary itself (project / independent)",
  "cut out of the tail by truncation (independent extractor)",
  "what buildSummaryPrompt shows",
  "dropping the older part",
  "last 4,000 tokens of it",
  "hidden by the renderer's cut",
  "cut out of the tail by truncation",
  "visible or recallable (archive: true)",
  "archive trimmed",
];
console.log(`| ${header.join(" | ")} |`);
console.log(`| ${header.map(() => "---").join(" | ")} |`);
for (const share of [0.4, 0.25]) {
  for (const dataset of ["tau-bench", "tau2-bench", "coding"]) {
    const totals = {
      archiveNeeded: 0,
      visibleOrRecalled: 0,
      archiveTrimmed: 0,
      refused: 0,
      unavoidable: 0,
      overWindow: 0,
      ...emptyTotals(),
      independent: emptyTotals(),
    };
    for (const transcript of selected.filter((t) => datasetOf(t) === dataset)) {
      await replay(transcript, share, totals);
      if (process.env.BENCH_ARCHIVE !== "0") await recallReplay(transcript, share, totals);
    }
    const row = { window: share, dataset, ...totals };
    results.rows.push(row);
    const n = totals.needed;
    const ind = totals.independent;
    console.log(
      `| ${[`${share * 100}%`, dataset, totals.compactions, totals.refused, totals.unavoidable, totals.overWindow, n, pct(totals.extractive, n), ind.needed, pct(ind.extractive, ind.needed), `${pct(totals.summaryHolds, n)} / ${pct(ind.summaryHolds, ind.needed)}`, pct(ind.truncated, ind.needed), pct(totals.prompt, n), pct(totals.dropped, n), pct(totals.trim, n), pct(totals.rendererHidden, n), pct(totals.truncated, n), `${pct(totals.visibleOrRecalled, totals.archiveNeeded)} of ${totals.archiveNeeded}`, totals.archiveTrimmed].join(" | ")} |`,
    );
  }
}
console.log(
  "\nThe deepest fact's summarizations, against the most compactions of one transcript (what re-summarizing the whole summary each time would put its first facts through):\n",
);
console.log(
  "| window | dataset | most compactions of one transcript | summarizations of the deepest fact |\n| --- | --- | --- | --- |",
);
for (const row of results.rows)
  console.log(`| ${row.window * 100}% | ${row.dataset} | ${row.mostCompactions ?? 0} | ${row.deepest ?? 0} |`);
// The two extractors must tell the same story: recall under each, and how far apart they are.
let apart = 0;
for (const row of results.rows) {
  const own = (100 * row.extractive) / Math.max(1, row.needed);
  const other = (100 * row.independent.extractive) / Math.max(1, row.independent.needed);
  row.extractorGap = Number(Math.abs(own - other).toFixed(1));
  apart = Math.max(apart, row.extractorGap);
}
results.extractorGap = apart;
console.log(
  `\nextractiveSummary's recall under the two extractors differs by at most ${apart.toFixed(1)} points (${apart <= 5 ? "within" : "NOT within"} 5)`,
);
console.log("\nWhere the facts extractiveSummary lost were last seen, as a share of the needed facts:\n");
const lossHeader = [
  "window",
  "dataset",
  "the user's or the agent's words",
  "a tool result",
  "the earlier summary",
  "masked or cut out of the tail",
  "elsewhere",
];
console.log(`| ${lossHeader.join(" | ")} |`);
console.log(`| ${lossHeader.map(() => "---").join(" | ")} |`);
for (const row of results.rows) {
  const { lost, needed } = row;
  console.log(
    `| ${[`${row.window * 100}%`, row.dataset, ...["conversation", "toolResult", "previousSummary", "maskedOrCut", "other"].map((key) => pct(lost[key], needed))].join(" | ")} |`,
  );
}
writeFileSync(
  process.env.BENCH_OUT ?? new URL("./continuity.json", import.meta.url),
  `${JSON.stringify(results, null, 2)}\n`,
);
console.log("\nwrote bench/continuity.json");
