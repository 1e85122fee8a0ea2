// Prints one plain line, "N passed, N failed", counted from vitest's JSON reports and the
// runtimes' results, so a run ends on its count rather than on a reporter's last table
// (`npm test` runs it through dev/gate.mjs, .ci/run over every report).
//
//   node dev/pass-count.mjs report.json…
import { existsSync, readFileSync } from "node:fs";

const reports = process.argv.slice(2);

let passed = 0;
let failed = 0;
for (const report of reports) {
  if (!existsSync(report)) {
    console.error(`${report} was not written: its run did not finish.`);
    failed += 1;
    continue;
  }
  const data = JSON.parse(readFileSync(report, "utf8"));
  if (Array.isArray(data.rows)) {
    // runtimes/last-run.json: one row per runtime, each with its checks.
    const checks = data.rows.flatMap((row) => row.checks);
    passed += checks.filter((check) => check.ok).length;
    failed += checks.filter((check) => !check.ok).length;
  } else {
    passed += data.numPassedTests;
    failed += data.numFailedTests;
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
