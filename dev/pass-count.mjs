// Prints one plain line, "N passed, N failed", counted from vitest's JSON reports and the
// runtimes' results, so a run ends on its count rather than on a reporter's last table.
//
//   node dev/pass-count.mjs report.json…                 counts the reports as they are
//   node dev/pass-count.mjs --run <npm script> report.json…
//                                                        deletes the reports, runs the script,
//                                                        counts, and exits with the script's code
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";

const args = process.argv.slice(2);
const script = args[0] === "--run" ? args[1] : undefined;
const reports = script === undefined ? args : args.slice(2);

let code = 0;
if (script !== undefined) {
  // A report left by an earlier run must not be counted as this one's.
  for (const report of reports) rmSync(report, { force: true });
  code = spawnSync("npm", ["run", "--silent", script], { stdio: "inherit" }).status ?? 1;
}

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
process.exit(code !== 0 ? code : failed > 0 ? 1 : 0);
