// Rewrites the figures of the docs from the benchmarks' JSON (bench/results.json, fit.json,
// continuity.json, cost.json, estimate-error.json, real.json, size.json and runtimes/results.json), so the docs
// quote exactly what the last runs printed. Each table sits between `<!-- name:start -->` and
// `<!-- name:end -->` in one page of docs/. Run: npm run bench:readme
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const results = JSON.parse(readFileSync(new URL("./results.json", import.meta.url), "utf8"));
// The pages that hold tables, read once and written back at the end.
const pageNames = [
  "benchmarks.md",
  "fit-ladder.md",
  "continuity.md",
  "cost-and-caching.md",
  "runtimes.md",
  "counting.md",
];
const pages = new Map(
  pageNames.map((name) => [name, readFileSync(new URL(`../docs/${name}`, import.meta.url), "utf8")]),
);
const { suites: s, accuracy, machine, data } = results;
const ms = (value) => `${value >= 100 ? value.toFixed(0) : value.toFixed(2)} ms`;
const n = (value) => value.toLocaleString("en-US");
const times = (value) => `${value.toFixed(0)}× faster`;

const rows = [
  [
    `\`estimateTokens\` over all ${data.transcripts} transcripts (${n(s.estimateTokens.tokens)} tokens)`,
    `\`Σ ceil(Buffer.byteLength(JSON.stringify(m)) / 4)\`: ${ms(s.estimateTokens.native.median)}`,
    `${ms(s.estimateTokens.estimateTokens.median)}, identical counts`,
    `${s.estimateTokens.ratio.toFixed(2)}×`,
  ],
  [
    `tail search, ${n(s.tailSearch.messages)}-message session, \`keepTail\` ${n(s.tailSearch.keepTail)}`,
    `recount \`countTokens(messages.slice(i))\` at every step: ${ms(s.tailSearch.reference.median)}`,
    `\`splitAtUserBoundary\`: ${ms(s.tailSearch.splitAtUserBoundary.median)}, same split`,
    `**${times(s.tailSearch.speedup)}**`,
  ],
  [
    "the same with a custom whole-list `countTokens`",
    `${ms(s.tailSearch.reference.median)}, ${s.tailSearch.reference.calls} counter calls`,
    `${ms(s.tailSearch.customCounter.median)}, ${s.tailSearch.customCounter.calls} counter calls`,
    times(s.tailSearch.customCounter.speedup),
  ],
  [
    "the same with a real tokenizer (o200k)",
    `${ms(s.realTokenizer.splitReference.ms)}, ${n(s.realTokenizer.splitReference.tokenized)} tokens tokenized`,
    `${ms(s.realTokenizer.splitWholeList.ms)}, ${n(s.realTokenizer.splitWholeList.tokenized)} tokens tokenized`,
    times(s.realTokenizer.speedup),
  ],
  [
    "a hook turn over budget with a real tokenizer",
    `whole-list tokenizer: ${ms(s.realTokenizer.hookWholeList.ms)}`,
    `\`createCachedCounter\`, next turn: ${ms(s.realTokenizer.hookCachedNextTurn.ms)} (${s.realTokenizer.hookCachedNextTurn.tokenized} tokens tokenized)`,
    times(s.realTokenizer.hookWholeList.ms / s.realTokenizer.hookCachedNextTurn.ms),
  ],
  [
    `a no-op hook call, ${n(s.noOpHook.tokens)}-token transcript`,
    `one \`estimateTokens\`: ${ms(s.noOpHook.estimateTokens.median)}`,
    `\`hook({ messages })\`: ${ms(s.noOpHook.hook.median)}`,
    `${s.noOpHook.ratio.toFixed(2)}×`,
  ],
  [
    `a stateful call that continues from its stored compaction, ${n(s.statefulCall.tokens)}-token input`,
    `one \`estimateTokens\`: ${ms(s.statefulCall.estimateTokens.median)}`,
    `\`statefulCompactor\` call, digest checked: ${ms(s.statefulCall.stateful.median)}`,
    `${s.statefulCall.ratio.toFixed(2)}×`,
  ],
  ...(s.statefulFresh
    ? [
        [
          `the same on fresh objects (a chat route's request), ${n(s.statefulFresh.messages)} messages`,
          `one \`estimateTokens\`: ${ms(s.statefulFresh.estimateTokens.median)}`,
          `\`statefulCompactor\` call: ${ms(s.statefulFresh.stateful.median)}`,
          `${s.statefulFresh.ratio.toFixed(2)}×`,
        ],
      ]
    : []),
  [
    `a hook call with the provider's \`usage\`, under budget, ${n(s.usageHook.tokens)}-token transcript`,
    `one \`estimateTokens\`: ${ms(s.usageHook.estimateTokens.median)}`,
    `\`hook({ messages, usage })\`, two new messages floored: ${ms(s.usageHook.hook.median)}`,
    `${s.usageHook.ratio.toFixed(2)}×`,
  ],
  ...(s.agentLoop
    ? [
        [
          `an agent loop of 2,000 turns (${n(s.agentLoop.stateful.messages)} messages) passing the same objects: a turn at the end`,
          `the same call at turns 500–600: \`statefulCompactor\` ${ms(s.agentLoop.stateful.middleMs)}, \`toPrepareStep\` ${ms(s.agentLoop.prepareStep.middleMs)}`,
          `at turns 1,900–2,000: ${ms(s.agentLoop.stateful.endMs)}, ${ms(s.agentLoop.prepareStep.endMs)}`,
          `${s.agentLoop.stateful.ratio.toFixed(2)}×, ${s.agentLoop.prepareStep.ratio.toFixed(2)}×`,
        ],
      ]
    : []),
  [
    "keep-the-recent-tail decision, same session",
    `\`@langchain/core\` \`trimMessages\`: ${ms(s.peers.trimMessages.median)}`,
    `\`splitAtUserBoundary\`: ${ms(s.peers.splitAtUserBoundary.median)}`,
    `**${times(1 / s.peers.trimRatio)}**`,
  ],
  [
    "model-free reduction, same session as AI SDK messages",
    `\`ai\` \`pruneMessages\` (drops old tool calls): ${ms(s.peers.pruneMessages.median)}, ${n(s.peers.tokensBefore)} → ${n(s.peers.pruneMessages.tokensAfter)} tokens`,
    `\`maskToolResults\` (keeps calls and ids): ${ms(s.peers.maskToolResults.median)}, → ${n(s.peers.maskToolResults.tokensAfter)} tokens`,
    `${(s.peers.maskToolResults.median / s.peers.pruneMessages.median).toFixed(2)}×`,
  ],
];

const section = `<!-- bench:start -->
Measured by \`npm run bench\` on ${results.date.slice(0, 10)}, Node ${machine.node}, ${machine.cpu} (${machine.cores} cores), over ${data.transcripts} real transcripts; every ratio is against a baseline timed in the same run (the median of each sample over the baseline's sample taken beside it), and \`bench/results.json\` holds every figure.

| what | baseline | context-compactor | ratio |
| --- | --- | --- | --- |
${rows.map((row) => `| ${row.join(" | ")} |`).join("\n")}

Masking alone on the ${s.maskingSavings.transcripts} moatless coding runs (\`keepRecent: 3\`): ${n(s.maskingSavings.tokensBefore)} → ${n(s.maskingSavings.tokensAfter)} tokens, ${(s.maskingSavings.saved * 100).toFixed(0)}% saved.

Estimator accuracy, \`estimateTokens\` ÷ o200k tokens (of each message's text plus 4 tokens of framing, roughly what a chat API bills):

| dataset | all transcripts | per transcript |
| --- | --- | --- |
${Object.entries(accuracy)
  .map(
    ([name, a]) =>
      `| ${name} | ${a.estimatePerBilledToken.toFixed(2)} | ${a.lowest.toFixed(2)}–${a.highest.toFixed(2)} |`,
  )
  .join("\n")}
<!-- bench:end -->`;

/** Replaces the part of `text` between `<!-- name:start -->` and `<!-- name:end -->`. */
function replaceSection(text, name, body) {
  const startTag = `<!-- ${name}:start -->`;
  const endTag = `<!-- ${name}:end -->`;
  const start = text.indexOf(startTag);
  const end = text.indexOf(endTag);
  if (start === -1 || end === -1) throw new Error(`no ${startTag} … ${endTag} section`);
  return text.slice(0, start) + body + text.slice(end + endTag.length);
}

// The fit table, from bench/fit.json (written by `npm run bench:fit`).
function fitSection(fit) {
  const pct = (value) => `${(value * 100).toFixed(0)}%`;
  const find = (window, ladder, counter, dataset) =>
    fit.runs.find((r) => r.window === window && r.ladder === ladder && r.counter === counter && r.dataset === dataset);
  const lines = [];
  for (const window of [...new Set(fit.runs.map((r) => r.window))]) {
    for (const dataset of [...new Set(fit.runs.map((r) => r.dataset))]) {
      const before = find(window, "no in-turn split, no truncation", "estimate", dataset);
      const estimate = find(window, "full ladder", "estimate", dataset);
      const exact = find(window, "full ladder", "o200k", dataset);
      const usage = find(window, "full ladder", "estimate + usage", dataset);
      lines.push(
        `| ${pct(window)} | ${dataset} (${estimate.transcripts}) | ${n(estimate.requests)} | ${n(before.overTotal)}, worst +${pct(before.worst)} | ` +
          `${n(estimate.overTotal)}: ${n(estimate.over.unavoidable)} unavoidable, ${n(estimate.over.undercount)} under-count (worst +${pct(estimate.worstAvoidable)}), ${n(estimate.over.other)} other | ` +
          `${n(exact.overTotal)}: ${n(exact.over.unavoidable)} unavoidable, ${n(exact.over.other)} other | ` +
          `${n(usage.overTotal)}: ${n(usage.over.unavoidable)} unavoidable, ${n(usage.over.undercount)} under-count (${((100 * usage.over.undercount) / usage.requests).toFixed(1)}% of requests, worst +${pct(usage.worstAvoidable)}), ${n(usage.over.other)} other | ` +
          `${estimate.hookMsPerRequest.toFixed(2)} / ${usage.hookMsPerRequest.toFixed(2)} / ${exact.hookMsPerRequest.toFixed(2)} ms |`,
      );
    }
  }
  return `<!-- fit:start -->
Measured by \`npm run bench:fit\` on ${fit.date.slice(0, 10)}, Node ${fit.node}, over ${fit.transcripts} transcripts; \`bench/fit.json\` holds every figure, including the summaries refused and the worst overshoot of each kind.

| window | dataset (transcripts) | requests | over the window, ladder without in-turn split and truncation (estimate) | over, full ladder, default estimate | over, full ladder, exact o200k counter | over, full ladder, estimate + provider usage | hook time per request: estimate / + usage / o200k |
| --- | --- | --- | --- | --- | --- | --- | --- |
${lines.join("\n")}
<!-- fit:end -->`;
}

/** Replaces the table `name` in whichever page holds it. */
function setSection(name, body) {
  const page = [...pages.keys()].find((key) => pages.get(key).includes(`<!-- ${name}:start -->`));
  if (page === undefined) throw new Error(`no page of docs/ holds <!-- ${name}:start -->`);
  pages.set(page, replaceSection(pages.get(page), name, body));
}

setSection("bench", section);
const fitUrl = new URL("./fit.json", import.meta.url);
if (existsSync(fitUrl)) setSection("fit", fitSection(JSON.parse(readFileSync(fitUrl, "utf8"))));
// The continuity table, from bench/continuity.json (written by `npm run bench:continuity`).
const continuityUrl = new URL("./continuity.json", import.meta.url);
if (existsSync(continuityUrl)) {
  const { date, node, transcripts, rows, said = [] } = JSON.parse(readFileSync(continuityUrl, "utf8"));
  const saidPct = (part, whole) => (whole === 0 ? "–" : `${((100 * part) / whole).toFixed(1)}%`);
  const saidTable = said
    .map(
      (r) =>
        `| ${r.window * 100}% | ${r.family} | ${r.compaction} | ${r.summaries} | ${["rule", "decision", "fact"].map((kind) => saidPct(r[kind].kept, r[kind].stated)).join(" | ")} | ${["rule", "decision", "fact"].map((kind) => saidPct(r[kind].prompt, r[kind].stated)).join(" | ")} | ${r.stale} | ${saidPct(r.fills, r.summaries)} |`,
    )
    .join("\n");
  const pct = (part, whole) => `${((100 * part) / Math.max(1, whole)).toFixed(1)}%`;
  const table = rows
    .map(
      (r) =>
        `| ${r.window * 100}% | ${r.dataset} | ${r.compactions} | ${r.refused ?? 0} | ${n(r.needed)} | ${pct(r.extractive, r.needed)} | ${r.independent ? `${n(r.independent.needed)} | ${pct(r.independent.extractive, r.independent.needed)} | ${pct(r.summaryHolds, r.needed)} / ${pct(r.independent.summaryHolds, r.independent.needed)} | ` : "– | – | – | "}${pct(r.prompt, r.needed)} | ${pct(r.dropped, r.needed)} | ${pct(r.trim, r.needed)} | ${pct(r.rendererHidden, r.needed)} | ${pct(r.truncated, r.needed)}${r.independent ? ` / ${pct(r.independent.truncated, r.independent.needed)}` : ""} |`,
    )
    .join("\n");
  const gap = rows.reduce((most, r) => Math.max(most, r.extractorGap ?? 0), 0);
  setSection(
    "continuity",
    `<!-- continuity:start -->
Measured by \`npm run bench:continuity\` on ${date.slice(0, 10)}, Node ${node}, over the ${transcripts} transcripts of 8,000 tokens or more; \`bench/continuity.json\` holds every figure, with the compactions left unjudged because their request was over the window.

| window | dataset | compactions judged | summaries refused | needed facts | \`extractiveSummary\` | needed facts (independent extractor) | \`extractiveSummary\` (independent extractor) | held by the summary itself (project / independent) | what \`buildSummaryPrompt\` shows | dropping the older part | its last 4,000 tokens (LangChain's trim) | hidden by the renderer's cut | cut out of the tail by truncation (project / independent) |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${table}

The two extractors' figures for \`extractiveSummary\` differ by at most ${gap.toFixed(1)} points.

Where the facts \`extractiveSummary\` lost were last seen, as a share of the needed facts:

| window | dataset | the user's or the agent's words | a tool result | the earlier summary | masked or cut out of the tail |
| --- | --- | --- | --- | --- | --- |
${rows
  .filter((r) => r.lost)
  .map(
    (r) =>
      `| ${r.window * 100}% | ${r.dataset} | ${pct(r.lost.conversation, r.needed)} | ${pct(r.lost.toolResult, r.needed)} | ${pct(r.lost.previousSummary, r.needed)} | ${pct(r.lost.maskedOrCut, r.needed)} |`,
  )
  .join("\n")}

How many summarizations the deepest fact went through (the sections' depths, frozen summaries merged by levels), against the most compactions of one transcript, which re-summarizing the whole summary at each compaction would put its first facts through:

| window | dataset | most compactions of one transcript | summarizations of the deepest fact |
| --- | --- | --- | --- |
${rows
  .filter((r) => r.mostCompactions !== undefined)
  .map((r) => `| ${r.window * 100}% | ${r.dataset} | ${r.mostCompactions} | ${r.deepest} |`)
  .join("\n")}

With \`archive: true\` (the same replay as a chat route, through \`statefulCompactor\`, every needed fact the request does not show asked of one \`compact.recall\` with the fact's value as the query):

| window | dataset | needed facts | visible or returned by one recall | archive trimmed |
| --- | --- | --- | --- | --- |
${rows
  .filter((r) => r.archiveNeeded !== undefined)
  .map(
    (r) =>
      `| ${r.window * 100}% | ${r.dataset} | ${n(r.archiveNeeded)} | ${n(r.visibleOrRecalled)} (${pct(r.visibleOrRecalled, r.archiveNeeded)}) | ${r.archiveTrimmed} |`,
  )
  .join("\n")}
${
  said.length === 0
    ? ""
    : `
What the user said, kept: the conversations \`bench/said-conversations.mjs\` writes (${said[0]?.family === undefined ? "" : "12 a family, "}two compactions each), the share of the rules, decisions and facts stated before each compaction that the request still shows:

| window | family | compaction | summaries | rules (\`extractiveSummary\`) | decisions | facts | rules (what \`buildSummaryPrompt\` shows) | decisions | facts | stale decision shown instead | summary fills its room |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${saidTable}
`
}<!-- continuity:end -->`,
  );
}
// The cost tables, from bench/cost.json (written by `npm run bench:cost`).
const costUrl = new URL("./cost.json", import.meta.url);
if (existsSync(costUrl)) {
  const {
    date,
    node,
    transcripts,
    sessions = [],
    longSession,
    rows,
    frontier = [],
    reportedUsage,
    seconds,
  } = JSON.parse(readFileSync(costUrl, "utf8"));
  const pctOf = (part, whole) => `${((100 * part) / Math.max(1, whole)).toFixed(1)}%`;
  const recall = (r) => (r.needed === undefined ? "" : pctOf(r.visible, r.needed));
  const recallable = (r) =>
    r.options?.archive || r.policy.includes("large-window") ? pctOf(r.recallable, r.needed) : "—";
  const dollars = (value) => `$${value.toFixed(2)}`;
  const totalOf = (r, name) => r.main[name] + r.summarizer[name];
  const windows = [...new Set(rows.map((r) => r.window))];
  const tableOf = (window) =>
    rows
      .filter((r) => r.window === window)
      .map((r) => {
        const hit = (r.main.cached + r.summarizer.cached) / Math.max(1, r.main.tokens + r.summarizer.tokens);
        return `| ${r.dataset} | ${r.policy} | ${n(r.requests)} | ${n(r.over)} | ${recall(r)} | ${recallable(r)} | ${n(r.compactions ?? 0)} | ${dollars(r.compactionWriteCost ?? 0)} | ${n(r.compactionsLosing ?? 0)} | ${dollars(r.main.anthropic)} | ${dollars(r.summarizer.anthropic)} | ${dollars(r.main.anthropic + r.summarizer.anthropic)} | ${r.main.wholeMessages === undefined ? "—" : dollars(totalOf(r, "wholeMessages"))} | ${dollars(r.main.openai + r.summarizer.openai)} | ${(hit * 100).toFixed(0)}% |`;
      })
      .join("\n");
  // How many times cheaper the summarizer's input is in place than rendered, at Anthropic prices.
  const gain = (window, dataset) => {
    const of = (policy) =>
      rows.find((r) => r.window === window && r.dataset === dataset && r.policy === policy)?.summarizer.anthropic;
    const ratio = of("defaults, summarizeWith") / of("defaults, summarizeInPlace");
    return Number.isFinite(ratio) ? `${ratio.toFixed(1)}×` : "—";
  };
  const datasets = [...new Set(rows.map((r) => r.dataset))];
  const longWindows = (longSession.windows ?? [longSession.window]).map(n);
  const header = `| dataset | policy | requests | over the window | recall | visible or recallable | compactions | cache writes caused by compactions, Anthropic | compactions that saved less than they cost | main input, Anthropic | summarizer input, Anthropic | total, Anthropic | total, Anthropic, by whole messages (the model before) | total, OpenAI | cache-hit share, Anthropic |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |`;
  const frontierTable = frontier
    .map(
      (f) =>
        `| ${f.dataset} | ${f.window} | ${f.libraryOnFrontier ? "yes" : "no"} | ${f.dominatedBy.join(", ") || "none"} | ${(f.largeWindowUndercutBy ?? []).join(", ") || "none"} | ${(f.largeWindowWithSectionsUndercutBy ?? []).join(", ") || "none"} | ${f.frontier.join("; ")} |`,
    )
    .join("\n");
  const shareTitle = (window) =>
    `**Windows of ${window} of each transcript** (the ${transcripts} benchmark transcripts of 8,000 tokens or more, and the ${sessions.length} real sessions, each alone):`;
  const longTitle = (window) =>
    `**A window of ${window}** (per dataset, one session of its runs back to back, ${n(longSession.tokens)} tokens):`;
  setSection(
    "cost",
    `<!-- cost:start -->
Measured by \`npm run bench:cost\` on ${date.slice(0, 10)}, Node ${node}${seconds ? `, in ${Math.round(seconds / 60)} minutes` : ""}; \`bench/cost.json\` holds every figure and every policy's options as passed.

The summarizer's input with \`summarizeWith\` over that with \`summarizeInPlace\`, at Anthropic prices (above 1×, in place is cheaper): ${datasets.map((d) => `${d} ${gain("40%", d)}`).join(", ")} at windows of 40% of each transcript; ${longWindows.map((w) => `${datasets.map((d) => `${d} ${gain(w, d)}`).join(", ")} at a window of ${w}`).join("; ")}.
${reportedUsage ? `\nThe real sessions' own reported usage (${n(reportedUsage.calls)} model calls of ${reportedUsage.sessions} sessions): ${pctOf(reportedUsage.read, reportedUsage.input + reportedUsage.write + reportedUsage.read)} of their input read from the cache, ${pctOf(reportedUsage.write, reportedUsage.input + reportedUsage.write + reportedUsage.read)} written to it, ${dollars(reportedUsage.anthropic)} at the prices above.\n` : ""}
${windows
  .map(
    (window) => `${window.endsWith("%") ? shareTitle(window) : longTitle(window)}

${header}
${tableOf(window)}`,
  )
  .join("\n\n")}

**The cost–recall frontier** (Anthropic prices; recall as in the tables: a request over the window shows nothing). Is \`defaults, summarizeInPlace\` dominated, that is, does a peer policy cost no more and keep no fewer facts? Is the large-window setting undercut, that is, does a peer policy cost less at a recall within 0.5 points of its own, or better?

| dataset | window | defaults on the frontier | dominated by | large-window setting undercut by | with its sections as blocks and the marker | the frontier |
| --- | --- | --- | --- | --- | --- | --- |
${frontierTable}
${
  rows.some((r) => r.main.anthropicSections !== undefined)
    ? `
**The defaults and the large-window setting at Anthropic prices, before → after**: the cache counted by whole messages (the model before) → as Anthropic caches (content blocks, breakpoints, their lookback of 20 positions) → with the summary's frozen sections as blocks and the marker after them (\`cacheMarker: markFrozenSections()\`):

| dataset | window | policy | by whole messages | as Anthropic caches | with frozen sections and the marker | recall |
| --- | --- | --- | --- | --- | --- | --- |
${rows
  .filter(
    (r) =>
      !r.window.endsWith("%") && (r.policy === "defaults, summarizeInPlace" || r.policy.startsWith("large-window")),
  )
  .map(
    (r) =>
      `| ${r.dataset} | ${r.window} | ${r.policy} | ${dollars(totalOf(r, "wholeMessages"))} | ${dollars(totalOf(r, "anthropic"))} | ${dollars(totalOf(r, "anthropicSections"))} | ${recall(r)} |`,
  )
  .join("\n")}

**What frozen sections save, per provider** (windows of 128,000 and 200,000; \`bench/cost.json\` and the bench's output hold the same for 40% and 25%): the library's policies with the summary as one text block → a block a section and the marker after the last, on the same replay. OpenAI's cache (GPT-4.1) reads the prefix of a text either way, so one figure.

| dataset | window | policy | Anthropic | Bedrock | Gemini 2.5 Pro | OpenAI GPT-4.1 |
| --- | --- | --- | --- | --- | --- | --- |
${rows
  .filter(
    (r) =>
      !r.window.endsWith("%") &&
      r.policy !== "no compaction" &&
      (r.policy.startsWith("defaults") || r.policy.startsWith("masking") || r.policy.startsWith("large-window")),
  )
  .map((r) => {
    const change = (name) => {
      const before = totalOf(r, name);
      const after = totalOf(r, `${name}Sections`);
      return `${dollars(before)} → ${dollars(after)} (${after <= before ? "−" : "+"}${pctOf(Math.abs(before - after), before)})`;
    };
    return `| ${r.dataset} | ${r.window} | ${r.policy} | ${change("anthropic")} | ${change("bedrock")} | ${change("gemini")} | ${dollars(totalOf(r, "openai"))} |`;
  })
  .join("\n")}
`
    : ""
}
![Input cost against recall per dataset and window](cost-frontier.svg)
<!-- cost:end -->`,
  );
}
// The estimate's error per content class, from bench/estimate-error.json (written by `npm run bench:estimate`).
const estimateErrorUrl = new URL("./estimate-error.json", import.meta.url);
if (existsSync(estimateErrorUrl)) {
  const { date, node, tokenizers, framing, transcripts, sessions, rows } = JSON.parse(
    readFileSync(estimateErrorUrl, "utf8"),
  );
  const ratio = (value) => `${value.toFixed(2)}×`;
  // Past a fifth over, a budget counted by the estimate lets requests go over the window.
  const verdict = (r) =>
    r.o200kRatio > 1.2 || r.llama3Ratio > 1.2 ? "**unsafe**" : r.o200kRatio > 1.05 ? "a little low" : "safe";
  const table = rows
    .map(
      (r) =>
        `| ${r.name} | ${r.what} | ${n(r.texts)} | ${n(r.bytes)} | ${n(r.estimate)} | ${n(r.o200k)} | ${n(r.llama3)} | ${ratio(r.o200kRatio)} | ${ratio(r.llama3Ratio)} | ${ratio(r.worstO200kRatio)} | ${verdict(r)} |`,
    )
    .join("\n");
  setSection(
    "estimate-error",
    `<!-- estimate-error:start -->
Measured by \`npm run bench:estimate\` on ${date.slice(0, 10)}, Node ${node}, with ${tokenizers.o200k} and ${tokenizers.llama3} (both ship their vocabularies; nothing is downloaded), over ${transcripts}${sessions ? ` and ${sessions}` : ""}; \`bench/estimate-error.json\` holds every figure. Each text is the content of one tool message: the estimate is \`estimateTokens\` of that message, a tokenizer's count is its count of the text plus ${framing} tokens of framing. A ratio above 1 is a tokenizer counting more than the estimate.

| class | what | texts | bytes | estimate | o200k | Llama 3 | o200k ÷ estimate | Llama 3 ÷ estimate | worst text, o200k | the estimate |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${table}
<!-- estimate-error:end -->`,
  );
}
// The size of each import, from bench/size.json (written by `npm run bench:size`).
const sizeUrl = new URL("./size.json", import.meta.url);
if (existsSync(sizeUrl)) {
  const { date, node, versions, rows, compactorParts } = JSON.parse(readFileSync(sizeUrl, "utf8"));
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  const partsTable =
    compactorParts === undefined
      ? ""
      : `

What each part weighs in \`compactor\`: bundled from the source (${kb(compactorParts.whole.gzip)} gzipped whole), with the part's modules left out and every caller of them still in.

| part | minified | gzipped |
| --- | --- | --- |
${compactorParts.parts.map((p) => `| ${p.part} | ${kb(p.minified)} | ${kb(p.gzip)} |`).join("\n")}
| \`compactor\` with every part above left out but the option checks | ${kb(compactorParts.floor.minified)} | ${kb(compactorParts.floor.gzip)} |`;
  const table = rows
    .map(
      (r) =>
        `| ${r.peer === true ? `\`${r.import}\` (peer, added to \`${r.addsTo}\`)` : `\`${r.import}\``} | \`${r.from}\` | ${kb(r.minified)} | ${kb(r.gzip)} | ${r.ratioToPeer === undefined ? "" : `${kb(r.addsToApp.gzip)} added, ${r.ratioToPeer.toFixed(1)}× \`${r.peer}\``} |`,
    )
    .join("\n");
  setSection(
    "size",
    `<!-- size:start -->
Measured by \`npm run bench:size\` on ${date.slice(0, 10)}, Node ${node}, esbuild ${versions.esbuild}, \`ai\` ${versions.ai}, \`langchain\` ${versions.langchain}; \`bench/size.json\` holds every figure.

| import | from | minified | gzipped | beside the peer (gzipped, added to an app of its framework) |
| --- | --- | --- | --- | --- |
${table}${partsTable}
<!-- size:end -->`,
  );
}
// The real-sessions table, from bench/real.json (written by `npm run bench:real`).
const realUrl = new URL("./real.json", import.meta.url);
if (existsSync(realUrl)) {
  const { date, source, seconds, sessions, totals, rows } = JSON.parse(readFileSync(realUrl, "utf8"));
  const pct = (part, whole) => (whole === 0 ? "–" : `${((100 * part) / whole).toFixed(1)}%`);
  const windowName = (w) => (w === 100_000 ? "100,000" : w === 50_000 ? "50,000" : "own");
  const entries = [...new Set(rows.map((r) => r.kind))];
  const sum = (list, key) => list.reduce((s, r) => s + r[key], 0);
  const totalRows = entries.flatMap((kind) =>
    ["100,000", "50,000", "own"].flatMap((name) => {
      const list = rows.filter((r) => r.kind === kind && windowName(r.window) === name);
      if (list.length === 0) return [];
      const partial = list.filter((r) => r.partial);
      return [
        `| ${kind === "adapter" ? "pi adapter" : kind} | ${name} | ${list.length} | ${n(sum(list, "requests"))} | ${n(sum(list, "changed"))} | ${n(sum(list, "violations"))} | ${n(sum(list, "signedBlocks"))} | ${n(sum(list, "signedChanged"))} | ${n(sum(list, "overWindow"))} | ${n(sum(list, "overNotReported"))} (${n(sum(partial, "overNotReported"))} in partial logs) |`,
      ];
    }),
  );
  // Continuity at the sessions' own compaction points, from the replays at the session's own point.
  const pointRows = rows
    .filter((r) => r.kind === "hook" && windowName(r.window) === "own" && r.points.length > 0)
    .map((r) => {
      const p = (key) => r.points.reduce((s, x) => s + (x[key] ?? 0), 0);
      const summarized = r.points.filter((x) => x.librarySummary !== null).reduce((s, x) => s + x.needed, 0);
      return `| ${r.session}${r.partial ? "*" : ""} | ${r.points.map((x) => n(x.preTokens)).join(", ")} | ${n(p("needed"))} | ${pct(p("ownSummary"), p("needed"))} | ${pct(p("request"), p("needed"))} | ${summarized ? pct(p("librarySummary"), summarized) : "no summary yet"} |`;
    });
  const continuity = (key) => {
    const t = totals[key];
    return t && t.points > 0
      ? `${pct(t.ownSummary, t.needed)} / ${pct(t.request, t.needed)} / ${pct(t.librarySummary, t.summarizedNeeded)}`
      : "–";
  };
  setSection(
    "real",
    `<!-- real:start -->
Measured by \`npm run bench:real\` on ${date.slice(0, 10)} over ${sessions.length} sessions from \`${source}\` (${n(sessions.reduce((s, x) => s + x.calls, 0))} model calls, each replayed at every window; ${seconds.toFixed(0)} s); \`bench/real.json\` holds every figure.

| entry | window | replays | requests | changed by the library | provider-rule violations | signed blocks sent | signed blocks changed | over the window | over the window, not reported \`overBudget\` |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${totalRows.join("\n")}

At the sessions' own compaction points (the hook at the session's own window): the needed facts visible in the session's own summary, in the library's request for the call after it, and in the library's summary alone (\`extractiveSummary\`).

| session | own compactions at | needed facts | own summary | library's request | library's summary |
| --- | --- | --- | --- | --- | --- |
${pointRows.join("\n")}

In total, own summary / library's request / library's summary: ${continuity("hook own")} at the own window, ${continuity("hook 100k")} at 100,000, ${continuity("hook 50k")} at 50,000.

The library's summary alone is judged where its request holds one. o200k stands in for the provider's tokenizer on the requests the library changed: on the requests the sessions sent as logged, Claude's reported input is ${(() => {
      const ratios = sessions.map((x) => x.reportedOverO200k).filter((x) => typeof x === "number" && !Number.isNaN(x));
      return ratios.length === 0 ? "–" : `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}×`;
    })()} the o200k count plus the fixed part, so the over-window figures are a lower bound.

\\* a partial log: its first call reports more than ${n(60_000)} tokens beside its messages, history the log does not hold (${
      sessions
        .filter((x) => x.partial)
        .map((x) => x.name)
        .join(", ") || "none"
    }).
<!-- real:end -->`,
  );
}
// The Codex sessions' tables, from bench/real.json's `codex` (written by `npm run bench:real`).
if (existsSync(realUrl)) {
  const { date, codex } = JSON.parse(readFileSync(realUrl, "utf8"));
  if (codex && codex.rows.length > 0) {
    const pct = (part, whole) => (whole === 0 ? "–" : `${((100 * part) / whole).toFixed(1)}%`);
    const totalRows = Object.entries(codex.totals)
      .filter(([name]) => !["usage", "estimate", "all"].includes(name))
      .map(([name, t]) => {
        const [entry, input, count] = name.split(" ");
        return `| ${entry === "agents" ? "OpenAI Agents filter" : entry} | ${input === "sent" ? "as Codex sent it" : "whole history"} | ${count === "usage" ? "yes" : "no"} | ${n(t.requests)} | ${n(t.changed)} | ${n(t.violations)} | ${n(t.opaqueItems)} | ${n(t.opaqueChanged)} | ${n(t.overWindow)} | ${n(t.overNotReported)} | ${n(t.falseCause)} |`;
      });
    const pointRows = codex.rows
      .filter((r) => r.kind === "hook" && r.input === "stream" && r.usage && r.points.length > 0)
      .map((r) => {
        const p = (key) => r.points.reduce((s, x) => s + (x[key] ?? 0), 0);
        const summarized = r.points.filter((x) => x.librarySummary !== null).reduce((s, x) => s + x.needed, 0);
        const window = r.window === 100_000 ? "100,000" : r.window === 50_000 ? "50,000" : `own (${n(r.window)})`;
        return `| ${r.session} | ${window} | ${n(p("needed"))} | ${pct(p("ownSummary"), p("needed"))} | ${pct(p("request"), p("needed"))} | ${summarized ? pct(p("librarySummary"), summarized) : "no summary yet"} |`;
      });
    const joinedRows = codex.joined.map(
      (j) =>
        `| ${j.session} | ${n(j.report)} (estimate ${n(j.estimateOfReported)}) | ${n(j.window)} | ${j.usage ? "yes" : "no"} | ${n(j.provider)} | ${j.overWindow ? "yes" : "no"} | ${j.overBudget ? `\`${j.cause}\`` : "–"} | ${j.trueCause ?? "–"} | ${j.summary ? "yes" : "no"} |`,
    );
    setSection(
      "real-codex",
      `<!-- real-codex:start -->
Measured by \`npm run bench:real\` on ${date.slice(0, 10)} over ${codex.sessions.length} Codex sessions (${n(codex.sessions.reduce((s, x) => s + x.calls, 0))} model calls, each replayed in every setting); \`bench/real.json\` (\`codex\`) holds every figure.

| entry | input | usage | requests | changed by the library | provider-rule violations | reasoning and compaction items sent | of them changed | over the window | over the window, said by no call | said with a cause the provider's count does not bear out |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${totalRows.join("\n")}

At Codex's own compaction points (the hook with usage): the needed facts visible in what Codex's compaction kept readable, in the library's request for the call after it, and in the library's summary alone (\`extractiveSummary\`).

| session | window | needed facts | Codex kept readable | library's request | library's summary |
| --- | --- | --- | --- | --- | --- |
${pointRows.join("\n")}

The hook joined at each session's peak: given the request after the largest report (with that report as \`usage\`, and without), what it sends by the provider's count.

| session | report (the library's estimate of it) | window | usage | sent | over the window | said | true cause | summary |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
${joinedRows.join("\n")}
<!-- real-codex:end -->`,
    );
  }
}
// The tested-runtimes table, from runtimes/results.json (written by `npm run test:runtimes`).
const runtimesUrl = new URL("../runtimes/results.json", import.meta.url);
if (existsSync(runtimesUrl)) {
  const { date, rows } = JSON.parse(readFileSync(runtimesUrl, "utf8"));
  const table = rows
    .map((row) => {
      const failedChecks = row.checks.filter((c) => !c.ok).map((c) => c.check);
      const path = row.checks.find((c) => c.check.startsWith("estimateTokens"))?.detail ?? "";
      return `| ${row.runtime} | ${row.version} | ${row.passed} of ${row.passed + row.failed}${failedChecks.length ? ` (failed: ${failedChecks.join(", ")})` : ""} | ${path} |`;
    })
    .join("\n");
  setSection(
    "runtimes",
    `<!-- runtimes:start -->
Last run of \`npm run test:runtimes\` on ${date.slice(0, 10)}:

| runtime | version | checks passed | estimate |
| --- | --- | --- | --- |
${table}
<!-- runtimes:end -->`,
  );
}
for (const [name, text] of pages) writeFileSync(new URL(`../docs/${name}`, import.meta.url), text);
console.log(
  `docs/ tables updated (${pageNames.join(", ")}) from bench/results.json, bench/fit.json, bench/continuity.json, bench/cost.json, bench/estimate-error.json, bench/real.json, bench/size.json and runtimes/results.json`,
);
