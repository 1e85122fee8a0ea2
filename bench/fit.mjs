// `npm run bench:fit`: replays real transcripts turn by turn through the hook, as an agent loop
// would, and counts the requests that would still be over the model's window. o200k counts
// (gpt-tokenizer) stand in for what the provider bills. Prints a table and writes bench/fit.json.
import { writeFileSync } from "node:fs";
import { billed, billedList, o200k } from "./billed.mjs";
import { compactor, estimateTokens } from "../dist/index.js";
import { createCachedCounter, planCompaction } from "../dist/expert.js";
import { renderTranscript } from "../dist/summary-kit.js";
import { loadTranscripts } from "./data.mjs";

const { transcripts, source } = loadTranscripts();

// Every transcript; `--long` keeps those of 8k billed tokens or more, where windows bite hardest.
const selected = process.argv.includes("--long")
  ? transcripts.filter((t) => billedList(t.messages) >= 8000)
  : transcripts;
const isRequest = (m) => m.role === "user";

// A deterministic summarizer that does what a model told the limit would: it writes less than it
// reads (at most half the rendered text) and keeps to 80% of `maxSummaryTokens` by its own count
// (a model's sense of length is rough, and the hook may count its text a little differently).
function summarizerFor(count) {
  return (older, context) => {
    const text = `${context.previousSummary ?? ""}\n${renderTranscript(older, { maxResultChars: 200 })}`.trim();
    const fits = (length) =>
      count([{ role: "system", content: `[Summary of earlier conversation]\n${text.slice(0, length)}` }]) <=
      context.maxSummaryTokens * 0.8;
    let low = 1;
    let high = Math.max(1, Math.floor(text.length / 2));
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (fits(middle)) low = middle;
      else high = middle - 1;
    }
    return text.slice(0, low) || "(nothing)";
  };
}
// The o200k size of a summary of a few words, what the hook itself keeps room for.
const smallestSummary = o200k(`[Summary of earlier conversation]\n${"a few words ".repeat(5)}`) + 4;

const ladders = {
  "no in-turn split, no truncation": { ladder: { splitInsideTurn: false, truncateToolResults: false } },
  "full ladder": {},
};
// The default estimate; the estimate anchored on what the provider reported for the previous
// request (its o200k count here); and the exact o200k count.
const counters = {
  estimate: () => undefined,
  "estimate + usage": () => undefined,
  o200k: () => createCachedCounter(billed),
};

async function replay({ messages }, share, ladder, counter) {
  const window = Math.floor(billedList(messages) * share);
  const countTokens = counters[counter]();
  const failures = [];
  // The hook's own count of what it returned, when it compacted.
  let compactedTo;
  const counted = countTokens ?? estimateTokens;
  const hook = compactor({
    maxTokens: window,
    keepTail: Math.floor(window / 2),
    summarize: summarizerFor(counted),
    onError: "skip",
    events: {
      onSkipped: (event) => event.reason === "error" && failures.push(event.error),
      onCompacted: (event) => (compactedTo = event.tokensAfter),
    },
    ...(countTokens ? { countTokens } : {}),
    ...ladders[ladder],
  });
  const stats = {
    requests: 0,
    over: { undercount: 0, unavoidable: 0, other: 0 },
    worst: 0,
    worstAvoidable: 0,
    summarizeFailures: 0,
    hookMs: 0,
  };
  let working = [];
  // What the provider reported for the last request: the request that held the first `messageCount` messages.
  let lastRequest;
  for (const message of messages) {
    if (message.role === "assistant") {
      const usage = counter === "estimate + usage" && lastRequest ? { usage: lastRequest } : {};
      compactedTo = undefined;
      const started = performance.now();
      const result = await hook({ messages: working, ...usage });
      stats.hookMs += performance.now() - started;
      if (result) working = result.messages;
      stats.requests++;
      const truth = billedList(working);
      lastRequest = { inputTokens: truth, messageCount: working.length };
      if (truth > window) {
        stats.worst = Math.max(stats.worst, truth / window - 1);
        const system = working[0]?.role === "system" ? billed(working[0]) : 0;
        const request = working.findLast(isRequest);
        // Unavoidable: the system prompt and the latest request, which is never summarized away,
        // leave no room for even a summary of a few words.
        if (system + (request ? billed(request) : 0) + smallestSummary > window) stats.over.unavoidable++;
        else {
          stats.worstAvoidable = Math.max(stats.worstAvoidable, truth / window - 1);
          const hookCount =
            compactedTo ??
            (usage.usage
              ? planCompaction(working, {
                  maxTokens: window,
                  usage: usage.usage,
                  ...(countTokens ? { countTokens } : {}),
                }).tokensBefore
              : counted(working));
          if (hookCount <= window) stats.over.undercount++;
          else stats.over.other++;
        }
      }
    }
    working = working.concat([message]);
  }
  stats.summarizeFailures = failures.length;
  return stats;
}

const results = {
  date: new Date().toISOString(),
  node: process.version,
  source,
  transcripts: selected.length,
  onlyLong: process.argv.includes("--long"),
  runs: [],
};
const datasets = [...new Set(selected.map((t) => t.dataset))];
console.log(`bench:fit — ${selected.length} transcripts (${source}); o200k as the provider's count\n`);
console.log(
  [
    "window",
    "ladder",
    "counter",
    "dataset",
    "requests",
    "over",
    "under-count",
    "unavoidable",
    "other",
    "worst",
    "worst avoidable",
    "summary failures",
    "hook ms/request",
  ].join(" | "),
);
for (const share of [0.4, 0.25]) {
  for (const ladder of Object.keys(ladders)) {
    for (const counter of Object.keys(counters)) {
      for (const dataset of datasets) {
        const total = {
          requests: 0,
          over: { undercount: 0, unavoidable: 0, other: 0 },
          worst: 0,
          worstAvoidable: 0,
          summarizeFailures: 0,
          hookMs: 0,
        };
        for (const transcript of selected.filter((t) => t.dataset === dataset)) {
          const stats = await replay(transcript, share, ladder, counter);
          total.requests += stats.requests;
          for (const key of Object.keys(total.over)) total.over[key] += stats.over[key];
          total.worst = Math.max(total.worst, stats.worst);
          total.worstAvoidable = Math.max(total.worstAvoidable, stats.worstAvoidable);
          total.summarizeFailures += stats.summarizeFailures;
          total.hookMs += stats.hookMs;
        }
        const over = total.over.undercount + total.over.unavoidable + total.over.other;
        const run = {
          window: share,
          ladder,
          counter,
          dataset,
          transcripts: selected.filter((t) => t.dataset === dataset).length,
          ...total,
          overTotal: over,
          hookMsPerRequest: total.hookMs / Math.max(1, total.requests),
        };
        results.runs.push(run);
        console.log(
          [
            `${share * 100}%`,
            ladder,
            counter,
            dataset,
            total.requests,
            over,
            total.over.undercount,
            total.over.unavoidable,
            total.over.other,
            `+${(total.worst * 100).toFixed(0)}%`,
            `+${(total.worstAvoidable * 100).toFixed(0)}%`,
            total.summarizeFailures,
            run.hookMsPerRequest.toFixed(2),
          ].join(" | "),
        );
      }
    }
  }
}
writeFileSync(new URL("./fit.json", import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
console.log("\nwrote bench/fit.json");
