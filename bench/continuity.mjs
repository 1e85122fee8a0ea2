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
import { saidBench } from "./said.mjs";

const { factValue, factsOf, messageFacts, visibleFacts } = projectFacts;

const { transcripts, source } = loadTranscripts();

/** The model-free summary, given what the hook offers it. */
const summarizer = (older, context) =>
  extractiveSummary(older, {
    maxTokens: context.maxSummaryTokens,
    previousSummary: context.previousSummary,
    keptSummary: context.keptSummary,
  });

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

/** Whether a message is one the hook wrote: a summary or its reminder. */
const isOwn = (m) =>
  m.role !== "tool" &&
  !m.tool_calls &&
  typeof m.content === "string" &&
  (m.content.startsWith(SUMMARY_PREFIX) || m.content === FLUSH_TO_MEMORY_REMINDER);

/**
 * Replays one transcript and judges each compaction twice: with the project's extractor into
 * `totals`, and with the independent one (`bench/independent-facts.mjs`) into `totals.independent`.
 *
 * Counted by §20's definition: at every compaction, the needed facts are those of every earlier
 * message the request no longer holds verbatim (summarized at this compaction or an earlier one,
 * masked or cut), not only of the messages this compaction removed, so that a fact lost once is
 * counted again at every later compaction whose request lacks it. A message the request holds cut
 * (truncated or masked) is followed through its copies: its facts the request does not show are
 * counted as cut by truncation, the same way.
 */
async function replay({ messages }, share, totals) {
  const window = Math.floor(billedList(messages) * share);
  const judges = [
    {
      extractor: projectFacts,
      row: totals,
      promptSeen: new Set(),
      trimSeen: new Set(),
      ...factIndex(messages, projectFacts),
    },
    {
      extractor: independentFacts,
      row: totals.independent,
      promptSeen: new Set(),
      trimSeen: new Set(),
      ...factIndex(messages, independentFacts),
    },
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
      return summarizer(older, context);
    },
  });
  // The original message each message of the working transcript stands for: itself, or the one a cut copy was made of.
  const origin = new Map();
  const originOf = (m) => origin.get(m) ?? m;
  let working = [];
  let summaries = 0;
  for (let position = 0; position < messages.length; position++) {
    const message = messages[position];
    if (message.role === "assistant") {
      seen = undefined;
      const result = await hook({ messages: working });
      if (result) {
        const request = result.messages;
        // A message the hook made that is no summary is a cut copy of one that left: paired in order.
        const kept = new Set(request);
        const left = working.filter((m) => !kept.has(m) && !isOwn(m));
        const older = new Set([...(seen?.context.earlier ?? []), ...(seen?.older ?? [])]);
        const replaced = left.filter((m) => !older.has(m));
        const inWorking = new Set(working);
        const copies = request.filter((m) => !inWorking.has(m) && !isOwn(m));
        copies.forEach((copy, index) => {
          if (replaced[index] !== undefined) origin.set(copy, originOf(replaced[index]));
        });
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

  function judge(
    input,
    request,
    summarized,
    position,
    { extractor, row, systemFacts, lastWritten, promptSeen, trimSeen },
  ) {
    const { factsOf, messageFacts, visibleFacts } = extractor;
    // Every earlier message, and what the request holds of it: itself, a cut copy, or nothing.
    const held = new Map();
    for (const m of request) if (!isOwn(m)) held.set(originOf(m), m);
    const needed = new Set();
    const cutFacts = new Set();
    const resultFacts = new Set();
    for (let index = 0; index < position; index++) {
      const original = messages[index];
      if (index === 0 && original.role === "system") continue;
      const holds = held.get(original);
      if (holds === original) continue;
      for (const fact of messageFacts(original)) {
        if (systemFacts.has(fact) || (lastWritten.get(fact) ?? -1) < position) continue;
        needed.add(fact);
        if (holds !== undefined) cutFacts.add(fact);
        else if (original.role === "tool") resultFacts.add(fact);
      }
    }
    if (needed.size === 0) return;
    const inInput = new Set(input);
    const summaries = request.filter((m) => !inInput.has(m) && isOwn(m));
    const rest = request.filter((m) => !isOwn(m));
    const requestShows = visibleFacts(request);
    const summaryShows = visibleFacts(summaries);
    const restShows = visibleFacts(rest);
    const older = new Set([...(summarized?.context.earlier ?? []), ...(summarized?.older ?? [])]);
    // What a model summarizer is shown: the prompt, and the earlier sections that stay before what
    // it writes; a fact one prompt showed, a perfect model keeps in its frozen section from then on.
    const promptNow = new Set(
      summarized
        ? [
            ...factsOf(buildSummaryPrompt(summarized.older, summarized.context).user),
            ...factsOf(summarized.context.keptSummary ?? ""),
          ]
        : [],
    );
    for (const fact of promptNow) promptSeen.add(fact);
    // LangChain's trim reads the older part as it stands, the earlier summary first.
    if (summarized)
      for (const fact of visibleFacts(lastTokens([...(summarized.context.earlier ?? []), ...summarized.older], 4000)))
        trimSeen.add(fact);
    const olderRaw = new Set([...older].filter((m) => !isOwn(m)).flatMap(messageFacts));
    const previous = new Set(factsOf(summarized?.context.previousSummary ?? ""));
    // Where a fact the request no longer shows was last seen: what lost it.
    const lossOf = (fact) =>
      cutFacts.has(fact)
        ? "maskedOrCut"
        : previous.has(fact)
          ? "previousSummary"
          : resultFacts.has(fact)
            ? "toolResult"
            : "conversation";
    row.compactions++;
    for (const fact of needed) {
      row.needed++;
      if (requestShows.has(fact)) row.extractive++;
      if (summaryShows.has(fact)) row.summaryHolds++;
      const inRest = restShows.has(fact);
      if (inRest || promptSeen.has(fact)) row.prompt++;
      if (inRest) row.dropped++;
      if (inRest || trimSeen.has(fact)) row.trim++;
      if (!inRest && olderRaw.has(fact) && !promptNow.has(fact)) row.rendererHidden++;
      if (!requestShows.has(fact) && cutFacts.has(fact)) row.truncated++;
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
    summarize: summarizer,
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

// `BENCH_PART=said` runs only the conversations written here, `BENCH_PART=transcripts` only the replay of the real ones.
const part = process.env.BENCH_PART ?? "all";
const results = { date: new Date().toISOString(), node: process.version, source, transcripts: 0, rows: [] };
if (part !== "said") {
  const selected = sample(transcripts.filter((t) => billedList(t.messages) >= 8000));
  results.transcripts = selected.length;
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
  // `BENCH_ONLY=tau-bench@0.4,coding@0.25` replays only those datasets at those windows, for a quick look.
  const only = process.env.BENCH_ONLY?.split(",");
  for (const share of [0.4, 0.25]) {
    for (const dataset of ["tau-bench", "tau2-bench", "coding"]) {
      if (only !== undefined && !only.includes(`${dataset}@${share}`)) continue;
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
}
if (part !== "transcripts") results.said = await saidBench();
writeFileSync(
  process.env.BENCH_OUT ?? new URL("./continuity.json", import.meta.url),
  JSON.stringify(results, null, 2) + "\n",
);
console.log("\nwrote bench/continuity.json");
