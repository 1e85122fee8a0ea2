// `npm run bench` (after bench/run.mjs): every path that reads untrusted text, timed on each crafted
// input at 256 KB and at 1 MB in the same run. The ratio is the time per megabyte at 1 MB over the
// time per megabyte at 256 KB: about 1 for a linear pass, about 4 for a quadratic one. Exits non-zero
// when one is over 2.5, and writes bench/linear-time.json.
import { writeFileSync } from "node:fs";
import { buildSummaryPrompt, compact, extractiveSummary, planCompaction, renderTranscript, statefulCompactor } from "../dist/index.js";
import { adversarialTexts, untrustedTextPaths } from "../test/support/adversarial-text.mjs";

const SMALL = 1 << 18;
const LARGE = 1 << 20;
const LIMIT = 2.5;
const paths = untrustedTextPaths({ buildSummaryPrompt, compact, extractiveSummary, planCompaction, renderTranscript, statefulCompactor });
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

const rows = [];
for (const [path, run] of Object.entries(paths)) {
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
writeFileSync(new URL("./linear-time.json", import.meta.url), JSON.stringify({ date: new Date().toISOString(), limit: LIMIT, rows }, null, 2) + "\n");
console.log(`\nwrote bench/linear-time.json; largest ratio ${Math.max(...rows.map((row) => row.ratio)).toFixed(2)} (limit ${LIMIT})`);
if (over.length > 0) {
  console.error(`more than linear: ${over.map((row) => `${row.path} on ${row.input} (${row.ratio})`).join(", ")}`);
  process.exitCode = 1;
}
