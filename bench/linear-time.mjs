// `npm run bench` (after bench/run.mjs): every path that reads untrusted text, timed on each crafted
// input at 256 KB and at 1 MB in the same run. The ratio is the time per megabyte at 1 MB over the
// time per megabyte at 256 KB: about 1 for a linear pass, about 4 for a quadratic one. Exits non-zero
// when one is over 2.5, and writes bench/linear-time.json. A recall whose query is 333 two-letter
// words is timed against a recall of one word on the same archive (`--recall-only`: that row alone).
import { writeFileSync } from "node:fs";
import { buildSummaryPrompt, renderTranscript } from "../dist/summary-kit.js";
import { compact, extractiveSummary, statefulCompactor } from "../dist/index.js";
import { planCompaction } from "../dist/expert.js";
import { adversarialTexts, untrustedTextPaths } from "../test/support/adversarial-text.mjs";

const SMALL = 1 << 18;
const LARGE = 1 << 20;
const LIMIT = 2.5;
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
const rows = [];
{
  // The ratio is the time of the 333 words over the time of one word no message holds, on the
  // same archive: about 1 when the words cost one pass between them, about 333 for a pass each.
  const recall = await archivedForRecall(LARGE);
  const oneWordMs = await fastest(() => recall("zz"));
  const wordsMs = await fastest(() => recall(twoLetterWords.join(" ")));
  rows.push({
    path: "recall of 333 two-letter words",
    input: "an archive holding all but one, over one word",
    msPerMegabyte: Math.round(wordsMs),
    ratio: Number((wordsMs / Math.max(oneWordMs, 20)).toFixed(2)),
  });
  // The size an archive has by default at most: what one such recall holds the event loop for.
  const full = await archivedForRecall(7.9 * (1 << 20));
  const started = performance.now();
  await full(twoLetterWords.join(" "));
  console.log(`recall of 333 two-letter words against a 7.9 MB archive: ${Math.round(performance.now() - started)} ms`);
}
for (const [path, run] of only ? [] : Object.entries(paths)) {
  for (const input of Object.keys(small)) {
    const smallMs = await fastest(() => run(small[input]));
    const largeMs = await fastest(() => run(large[input]));
    // What a linear pass would take at 1 MB, from its time at 256 KB; below 20 ms the ratio is
    // timer and collector noise (a quadratic pass takes minutes at 1 MB), so it is floored there.
    const linearMs = Math.max(smallMs * (LARGE / SMALL), 20);
    rows.push({ path, input, msPerMegabyte: Math.round(largeMs), ratio: Number((largeMs / linearMs).toFixed(2)) });
  }
}

const over = rows.filter((row) => row.ratio > LIMIT);
console.table(rows);
// `--recall-only` times the recall rows alone, and leaves the figures of the full run as they are.
if (!only)
  writeFileSync(
    new URL("./linear-time.json", import.meta.url),
    `${JSON.stringify({ date: new Date().toISOString(), limit: LIMIT, rows }, null, 2)}\n`,
  );
console.log(
  `\n${only ? "" : "wrote bench/linear-time.json; "}largest ratio ${Math.max(...rows.map((row) => row.ratio)).toFixed(2)} (limit ${LIMIT})`,
);
if (over.length > 0) {
  console.error(`more than linear: ${over.map((row) => `${row.path} on ${row.input} (${row.ratio})`).join(", ")}`);
  process.exitCode = 1;
}
