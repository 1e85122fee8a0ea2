// `npm run bench` (after bench/run.mjs): every path that reads untrusted text, timed on each crafted
// input at 256 KB and at 1 MB in the same run. The ratio is the time per megabyte at 1 MB over the
// time per megabyte at 256 KB: about 1 for a linear pass, about 4 for a quadratic one. Exits non-zero
// when one is over 2.5, and writes bench/linear-time.json. A recall whose query is 333 two-letter
// words is timed against a recall of two words on the same archive (`--recall-only`: that row alone).
// Four rows compare work at four times the input per unit of it (about 1 when linear, 4 when
// quadratic): the hook's mapping of a Responses verdict, a first and a second recall of an
// archive, and cutting the results of a turn of parallel tool calls. Each is held within 1.25.
import { writeFileSync } from "node:fs";
import { buildSummaryPrompt, renderTranscript } from "../dist/summary-kit.js";
import { compact, extractiveSummary, memoryStore, statefulCompactor } from "../dist/index.js";
import { planCompaction, readProviderVerdicts } from "../dist/expert.js";
import { adversarialTexts, untrustedTextPaths } from "../test/support/adversarial-text.mjs";
import { parallelToolTurn } from "../test/support/parallel-tool-turn.mjs";

const SMALL = 1 << 18;
const LARGE = 1 << 20;
const LIMIT = 2.5;
// The rows of work at four times the input, which do not stop at one pass: within 1.25 per unit of input.
const WORK_LIMIT = 1.25;
const paths = untrustedTextPaths({
  buildSummaryPrompt,
  compact,
  extractiveSummary,
  planCompaction,
  renderTranscript,
  statefulCompactor,
});
const small = adversarialTexts(SMALL);
const large = adversarialTexts(LARGE);

/** The fastest of three runs, in milliseconds: a pause of the machine's is not the path's time. */
async function fastest(run) {
  let best = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 3; attempt++) {
    const started = performance.now();
    await run();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/**
 * A recall whose query is 333 two-letter words, against an archive of about `bytes` of messages
 * that each hold all of those words but the last: every word is found in every message, so a scan
 * per word reads the whole archive 333 times, and a single pass reads it once.
 */
const letters = "abcdefghijklmnopqrstuvwxyz";
const twoLetterWords = Array.from(
  { length: 333 },
  (_, index) => `${letters[index % 26]}${letters[Math.floor(index / 26) % 26]}`,
);
async function archivedForRecall(bytes) {
  const text = twoLetterWords.slice(0, -1).join(", ");
  const count = Math.ceil(bytes / text.length);
  const history = [{ role: "system", content: "s" }];
  for (let index = 0; index < count; index++)
    history.push({ role: "user", content: `${index}: ${text}` }, { role: "assistant", content: "ok" });
  history.push({ role: "user", content: "go on" });
  const stateful = statefulCompactor({
    maxTokens: 2_000,
    keepTail: 100,
    summarize: () => "s",
    archive: { maxBytes: 16 << 20 },
    conversationId: "words",
  });
  await stateful(history);
  return (query) => stateful.recall(query);
}

const only = process.argv.includes("--recall-only");
// `--work-only`: the four rows of work at four times the input alone.
const workOnly = process.argv.includes("--work-only");
const rows = [];

/**
 * The time the verdict reader (`readProviderVerdicts`) takes to map a Responses
 * `input_transformations` list of `count` removed reasoning items onto the request it answers, the
 * fastest of nine, and the time of a plain Map doing the least such a mapping must.
 */
async function verdictMappingMs(count) {
  const items = [{ role: "user", content: "go" }];
  for (let index = 0; index < count; index++)
    items.push(
      { type: "reasoning", id: `rs_${index}`, summary: [] },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: `step ${index}` }] },
    );
  const response = {
    input_transformations: Array.from({ length: count }, (_, index) => ({
      type: "reasoning",
      action: "removed",
      id: `rs_${index}`,
      reason: "model_mismatch",
    })),
  };
  // The reader alone, as the hook calls it with the request it answers: the hook's own count of the
  // transcript is another row's (the no-op and usage paths of `npm run bench`).
  const { read } = readProviderVerdicts();
  let best = Number.POSITIVE_INFINITY;
  // The fastest of nine (the first warms the code up): a collection of the garbage the earlier
  // attempts left falls in some of them, and is no part of the mapping's work.
  for (let attempt = 0; attempt < 9; attempt++) {
    let told = 0;
    const started = performance.now();
    read(response, items, () => told++);
    best = Math.min(best, performance.now() - started);
    // A mapping that told nothing timed nothing: the row fails rather than print a time of no work.
    if (told !== count) throw new Error(`verdict mapping: ${told} of ${count} verdicts told; the row measures nothing`);
  }
  // The least any mapping by id does, timed the same way: a Map of the items' ids, asked for each
  // entry's. Its time grows faster than its input at these sizes too (the memory a larger table
  // takes misses the caches), so the row is judged against it, measured in the same run.
  let baseline = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 9; attempt++) {
    const started = performance.now();
    const byId = new Map();
    for (const item of items) if (item.id !== undefined && !byId.has(item.id)) byId.set(item.id, item);
    let found = 0;
    for (const entry of response.input_transformations) if (byId.get(entry.id) !== undefined) found++;
    baseline = Math.min(baseline, performance.now() - started);
    if (found !== count) throw new Error("verdict mapping: the baseline found the wrong items");
  }
  return { ms: best, baseline, megabytes: JSON.stringify(items).length / (1 << 20) };
}

/** An archive of about `bytes` of tool output, and the time of a first recall of it and of a second. */
async function recallMs(bytes) {
  const history = [{ role: "system", content: "s" }];
  for (let index = 0, size = 0; size < bytes; index++) {
    const output = `Order ORD-${index} shipped from WH-${index % 97} tracking TRK${index}00${index}.\n${"Carrier notes, line with words and numbers 12 34.\n".repeat(40)}`;
    history.push(
      { role: "user", content: `Where is ORD-${index}?` },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: `c${index}`, type: "function", function: { name: "lookup", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: `c${index}`, content: output },
      { role: "assistant", content: "Shipped." },
    );
    size += output.length + 120;
  }
  history.push({ role: "user", content: "go on" });
  const stateful = statefulCompactor({
    maxTokens: 2_000,
    keepTail: 100,
    summarize: () => "s",
    archive: { maxBytes: 64 << 20 },
    conversationId: "recall",
    store: memoryStore({ maxBytes: 256 << 20 }),
  });
  await stateful(history);
  let started = performance.now();
  await stateful.recall("ORD-7");
  const first = performance.now() - started;
  started = performance.now();
  await stateful.recall("carrier notes");
  return { first, second: performance.now() - started };
}

/** The time `compact` takes to cut the results of one turn of `count` parallel tool calls to fit. */
async function parallelCutMs(count) {
  const messages = parallelToolTurn(count);
  const megabytes = JSON.stringify(messages).length / (1 << 20);
  // One run: a second cut of the same results is not redone, and would time nothing.
  const started = performance.now();
  await compact(messages, { maxTokens: count * 60, summary: { maxTokens: 1_000 }, summarize: () => "s" });
  return { ms: performance.now() - started, megabytes };
}

if (!only) {
  // Per unit of work at four times the input: about 1 for a linear pass, about 4 for a quadratic one.
  // Three rounds of both sizes in turn, the fastest of each kept: a burst of other work on the
  // machine then falls on both sizes, not on one.
  const fastestOf = (runs) => ({
    ms: Math.min(...runs.map((run) => run.ms)),
    baseline: Math.min(...runs.map((run) => run.baseline)),
    megabytes: runs[0].megabytes,
  });
  const smallRuns = [];
  const largeRuns = [];
  for (let round = 0; round < 3; round++) {
    smallRuns.push(await verdictMappingMs(16_000));
    largeRuns.push(await verdictMappingMs(64_000));
  }
  const [small, large] = [fastestOf(smallRuns), fastestOf(largeRuns)];
  rows.push({
    path: "verdict mapping",
    input: "64,000 removed reasoning items, over 16,000, against a Map of their ids",
    msPerMegabyte: Math.round(large.ms / large.megabytes),
    ratio: Number((large.ms / small.ms / (large.baseline / small.baseline)).toFixed(2)),
    limit: WORK_LIMIT,
  });
  const [cold, warm] = [await recallMs(1.5 * (1 << 20)), await recallMs(6 * (1 << 20))];
  rows.push({
    path: "recall, first call",
    input: "a 6 MB archive, over 1.5 MB",
    msPerMegabyte: Math.round(warm.first / 6),
    ratio: Number((warm.first / Math.max(cold.first * 4, 20)).toFixed(2)),
    limit: WORK_LIMIT,
  });
  rows.push({
    path: "recall, second call",
    input: "a 6 MB archive, over 1.5 MB",
    msPerMegabyte: Math.round(warm.second / 6),
    ratio: Number((warm.second / Math.max(cold.second * 4, 20)).toFixed(2)),
    limit: WORK_LIMIT,
  });
  const [fewer, more] = [await parallelCutMs(5_000), await parallelCutMs(20_000)];
  rows.push({
    path: "cutting parallel tool results",
    input: "20,000 calls in one turn, over 5,000",
    msPerMegabyte: Math.round(more.ms / more.megabytes),
    ratio: Number((more.ms / Math.max(fewer.ms * 4, 20)).toFixed(2)),
    limit: WORK_LIMIT,
  });
}
if (!workOnly) {
  // The ratio is the time of the 333 words over the time of two words every message holds, on the
  // same archive and the same search (a query of one word takes a plain scan of its own, several
  // words the one-pass search): about 1 when the words cost one pass between them, about 166 for a
  // pass each.
  const recall = await archivedForRecall(LARGE);
  const twoWordsMs = await fastest(() => recall(twoLetterWords.slice(0, 2).join(" ")));
  const wordsMs = await fastest(() => recall(twoLetterWords.join(" ")));
  rows.push({
    path: "recall of 333 two-letter words",
    input: "an archive holding all but one, over two words it holds",
    msPerMegabyte: Math.round(wordsMs),
    ratio: Number((wordsMs / Math.max(twoWordsMs, 20)).toFixed(2)),
  });
  // The size an archive has by default at most: what one such recall holds the event loop for.
  const full = await archivedForRecall(7.9 * (1 << 20));
  const started = performance.now();
  await full(twoLetterWords.join(" "));
  console.log(`recall of 333 two-letter words against a 7.9 MB archive: ${Math.round(performance.now() - started)} ms`);
}
for (const [path, run] of only || workOnly ? [] : Object.entries(paths)) {
  for (const input of Object.keys(small)) {
    const smallMs = await fastest(() => run(small[input]));
    const largeMs = await fastest(() => run(large[input]));
    // What a linear pass would take at 1 MB, from its time at 256 KB; below 20 ms the ratio is
    // timer and collector noise (a quadratic pass takes minutes at 1 MB), so it is floored there.
    const linearMs = Math.max(smallMs * (LARGE / SMALL), 20);
    rows.push({ path, input, msPerMegabyte: Math.round(largeMs), ratio: Number((largeMs / linearMs).toFixed(2)) });
  }
}

const over = rows.filter((row) => row.ratio > (row.limit ?? LIMIT));
console.table(rows);
// `--recall-only` times the recall rows alone, and leaves the figures of the full run as they are.
if (!only && !workOnly)
  writeFileSync(
    new URL("./linear-time.json", import.meta.url),
    `${JSON.stringify({ date: new Date().toISOString(), limit: LIMIT, rows }, null, 2)}\n`,
  );
console.log(
  `\n${only || workOnly ? "" : "wrote bench/linear-time.json; "}largest ratio ${Math.max(...rows.map((row) => row.ratio)).toFixed(2)} (limit ${LIMIT})`,
);
if (over.length > 0) {
  console.error(`more than linear: ${over.map((row) => `${row.path} on ${row.input} (${row.ratio})`).join(", ")}`);
  process.exitCode = 1;
}
