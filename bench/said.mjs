// `bench:continuity`, second part: what the user said, kept. Replays the conversations of
// `bench/said-conversations.mjs` (a buried rule, an overridden decision, people and their roles, a
// reference back, an open task, and all of them at once) as an agent loop through two compactions,
// at windows of 30% and 15% of each conversation, and at each compaction asks whether the request
// still shows every rule, decision and fact stated before it (its needle, as written):
// - with `extractiveSummary` as the summarizer: in the request as it is;
// - with what `buildSummaryPrompt` shows a model: the request's messages other than the summary,
//   the prompt's text (the rendered older part and the earlier summary it extends) and the earlier
//   sections that stay; a needle one prompt showed counts as kept from then on (a perfect model
//   keeps it in its frozen section).
// A decision counts as kept only through its latest form; "stale" counts the compactions whose
// request shows the decision it replaced and not the latest one. "Fills" is the summary's own text
// against the room the hook gave it (`maxSummaryTokens`), as the estimate counts it.
import { FLUSH_TO_MEMORY_REMINDER, SUMMARY_PREFIX } from "../dist/expert.js";
import { buildSummaryPrompt } from "../dist/summary-kit.js";
import { compactor, estimateTokens, extractiveSummary } from "../dist/index.js";
import { FAMILIES, conversation } from "./said-conversations.mjs";

const isOwn = (m) =>
  typeof m.content === "string" && (m.content.startsWith(SUMMARY_PREFIX) || m.content === FLUSH_TO_MEMORY_REMINDER);

/** The text of messages as a model reads it: contents, text parts, tool calls' arguments. */
function textOf(messages) {
  const parts = [];
  for (const m of messages) {
    if (typeof m.content === "string") parts.push(m.content);
    else if (Array.isArray(m.content))
      for (const part of m.content) if (typeof part?.text === "string") parts.push(part.text);
    for (const call of m.tool_calls ?? []) parts.push(call.function?.arguments ?? "");
  }
  return parts.join("\n");
}

const textTokens = (text) => Math.ceil(Buffer.byteLength(JSON.stringify(text)) / 4);

/** Replays one conversation through two compactions; judges each into `row(compaction)`. */
async function replay({ messages, items }, share, row) {
  const window = Math.floor(estimateTokens(messages) * share);
  let seen;
  const hook = compactor({
    maxTokens: window,
    keepTail: Math.floor(window / 2),
    onError: "skip",
    events: { warnOverBudget: false },
    summarize: (older, context) => {
      const text = extractiveSummary(older, {
        maxTokens: context.maxSummaryTokens,
        previousSummary: context.previousSummary,
        keptSummary: context.keptSummary,
      });
      seen = { older, context, text };
      return text;
    },
  });
  const promptSeen = new Set();
  let working = [];
  let compactions = 0;
  for (let position = 0; position < messages.length && compactions < 2; position++) {
    const message = messages[position];
    if (message.role === "assistant") {
      seen = undefined;
      const result = await hook({ messages: working });
      if (result) working = result.messages;
      if (seen !== undefined) {
        compactions++;
        const totals = row(compactions);
        const request = working;
        const shown = textOf(request);
        const rest = textOf(request.filter((m) => !isOwn(m)));
        const prompt = `${buildSummaryPrompt(seen.older, seen.context).user}\n${seen.context.keptSummary ?? ""}`;
        totals.fills += Math.min(1, textTokens(seen.text) / seen.context.maxSummaryTokens);
        totals.summaries++;
        for (const item of items) {
          if (item.at >= position) continue;
          if (prompt.includes(item.needle)) promptSeen.add(item.needle);
          const kind = totals[item.kind];
          kind.stated++;
          if (shown.includes(item.needle)) kind.kept++;
          if (rest.includes(item.needle) || promptSeen.has(item.needle)) kind.prompt++;
          if (item.stale !== undefined && shown.includes(item.stale) && !shown.includes(item.needle)) totals.stale++;
        }
      }
    }
    working = working.concat([message]);
  }
}

const emptyRow = () => ({
  summaries: 0,
  fills: 0,
  stale: 0,
  rule: { stated: 0, kept: 0, prompt: 0 },
  decision: { stated: 0, kept: 0, prompt: 0 },
  fact: { stated: 0, kept: 0, prompt: 0 },
});
const pct = ({ kept, stated }) => (stated === 0 ? "–" : `${((100 * kept) / stated).toFixed(1)}%`);
const promptPct = ({ prompt, stated }) => (stated === 0 ? "–" : `${((100 * prompt) / stated).toFixed(1)}%`);

/** Runs the bench: `seeds` conversations a family, at windows of 30% and 15%. Prints its table; returns its rows. */
export async function saidBench({ seeds = Number(process.env.BENCH_SAID_SEEDS ?? 12) } = {}) {
  const rows = [];
  const header = [
    "window",
    "family",
    "compaction",
    "summaries",
    "rules kept (extractiveSummary)",
    "decisions kept",
    "facts kept",
    "rules (what buildSummaryPrompt shows)",
    "decisions (prompt)",
    "facts (prompt)",
    "stale decision shown instead",
    "summary fills its room",
  ];
  console.log(
    `\nWhat the user said, kept: ${seeds} conversations a family written by bench/said-conversations.mjs, two compactions each\n`,
  );
  console.log(`| ${header.join(" | ")} |`);
  console.log(`| ${header.map(() => "---").join(" | ")} |`);
  for (const share of [0.3, 0.15]) {
    const all = [emptyRow(), emptyRow()];
    for (const family of Object.keys(FAMILIES)) {
      const byCompaction = [emptyRow(), emptyRow()];
      for (let seed = 1; seed <= seeds; seed++) {
        await replay(conversation(family, seed), share, (compaction) => byCompaction[compaction - 1]);
      }
      byCompaction.forEach((totals, index) => {
        const into = all[index];
        for (const key of ["summaries", "fills", "stale"]) into[key] += totals[key];
        for (const kind of ["rule", "decision", "fact"])
          for (const key of ["stated", "kept", "prompt"]) into[kind][key] += totals[kind][key];
        rows.push({ window: share, family, compaction: index + 1, ...totals });
      });
    }
    all.forEach((totals, index) =>
      rows.push({ window: share, family: "every family", compaction: index + 1, ...totals }),
    );
  }
  for (const row of rows) {
    console.log(
      `| ${[`${row.window * 100}%`, row.family, row.compaction, row.summaries, pct(row.rule), pct(row.decision), pct(row.fact), promptPct(row.rule), promptPct(row.decision), promptPct(row.fact), row.stale, row.summaries === 0 ? "–" : `${((100 * row.fills) / row.summaries).toFixed(1)}%`].join(" | ")} |`,
    );
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await saidBench();
