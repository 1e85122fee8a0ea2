// `npm test` once the tests' tree is installed and dist/ built: the typecheck, the formatter and
// linter (Biome, biome.jsonc) and the package's checks (publint, attw) run beside the tests, which
// need none of them. Each of the two is one process
// on one core; run before the tests, one after the other, they left a core of two idle for a
// minute. Their output is shown whole after the tests' own, and the run ends on one line, "N passed,
// N failed", counted by dev/pass-count.mjs; it fails when any of the four does.
import { spawn, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const report = join(root, ".vitest/report.json");

/** Runs an npm script; its output is kept to be shown later, or shown as it comes. */
function npmRun(script, { keepOutput }) {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", script], {
      cwd: root,
      stdio: keepOutput ? ["ignore", "pipe", "pipe"] : "inherit",
    });
    const output = [];
    child.stdout?.on("data", (chunk) => output.push(chunk));
    child.stderr?.on("data", (chunk) => output.push(chunk));
    child.on("close", (code, signal) =>
      resolve({ script, code: code ?? (signal ? 1 : 0), output: Buffer.concat(output).toString() }),
    );
  });
}

// A report left by an earlier run must not be counted as this one's.
rmSync(report, { force: true });
const beside = [
  npmRun("typecheck", { keepOutput: true }),
  npmRun("lint", { keepOutput: true }),
  npmRun("test:package", { keepOutput: true }),
];
const tests = await npmRun("test:unit", { keepOutput: false });
let failed = tests.code !== 0;
for (const { script, code, output } of await Promise.all(beside)) {
  if (output.trim() !== "") process.stdout.write(`\n> npm run ${script}\n${output.trimEnd()}\n`);
  if (code !== 0) {
    console.log(`npm run ${script} failed (exit code ${code}).`);
    failed = true;
  }
}
const count = spawnSync(process.execPath, [join(root, "dev/pass-count.mjs"), report], { stdio: "inherit" });
process.exitCode = failed || count.status !== 0 ? 1 : 0;
