// `npm run test:runtimes`: the conformance checks on the built package in every runtime the package
// claims (Node 20, 22 and 24, Bun, Deno, workerd, headless Chromium); ai@7 and Mastra end to end
// on Node 22; pi (`@earendil-works/pi-agent-core`, its recipe as printed) on Node 22 and 24; pi
// under its former name and Genkit end to end on Node 22 and 24, Bun and Deno. Prints a table of runtime × result and exits 1 if any fails; a runtime that cannot start
// is a failed check, never a skip. Writes runtimes/last-run.json (not tracked); with --record it
// also writes the tracked runtimes/results.json that docs/runtimes.md is made from.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { builtinModules } from "node:module";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { chromiumHint, chromiumPath as findChromium } from "../test/support/chromium-path.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const bin = (name) => join(here, "node_modules", ".bin", name);
const local = join(here, "run-local.mjs");
const frameworks = join(here, "frameworks-end-to-end.mjs");
const frameworkVersions = () => {
  const version = (name) =>
    JSON.parse(readFileSync(join(here, "..", "node_modules", name, "package.json"), "utf8")).version;
  return `pi-agent-core ${version("@mariozechner/pi-agent-core")}, genkit ${JSON.parse(readFileSync(join(here, "..", "node_modules", "@genkit-ai", "core", "package.json"), "utf8")).version}`;
};
const chromiumPath = findChromium();

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function runJson(command, args) {
  const result = spawnSync(command, args, { encoding: "utf8", timeout: 180_000, cwd: here });
  if (result.error) throw result.error;
  const line = result.stdout.trim().split("\n").at(-1) ?? "";
  try {
    return JSON.parse(line);
  } catch {
    throw new Error(`exit ${result.status}: ${(result.stderr || result.stdout).slice(0, 2000)}`);
  }
}

// Node built-ins stay imports, so that the runtime itself, not the bundler, says whether it has them.
async function bundle(entry, platform) {
  const result = await build({
    entryPoints: [join(here, entry)],
    bundle: true,
    format: "esm",
    platform,
    external: ["node:*", ...builtinModules],
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0].text;
}

async function workerd() {
  const dir = mkdtempSync(join(tmpdir(), "workerd-"));
  writeFileSync(join(dir, "worker.js"), await bundle("worker-entry.mjs", "browser"));
  const port = await freePort();
  // Node compatibility off, explicitly: recent compatibility dates turn it on by default, which
  // would hide a Node-only import.
  writeFileSync(
    join(dir, "config.capnp"),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ ( name = "http", address = "127.0.0.1:${port}", http = (), service = "main" ) ]
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker", esModule = embed "worker.js") ],
  compatibilityDate = "2026-11-01",
  compatibilityFlags = ["no_nodejs_compat", "no_nodejs_compat_v2"]
);
`,
  );
  const server = spawn(bin("workerd"), ["serve", join(dir, "config.capnp")], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  server.stderr.on("data", (chunk) => (stderr += chunk));
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/`);
        return await response.json();
      } catch (error) {
        if (Date.now() > deadline || server.exitCode !== null)
          throw new Error(`workerd did not answer: ${stderr.slice(0, 2000) || error}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  } finally {
    server.kill();
  }
}

async function chromium() {
  if (chromiumPath === undefined) throw new Error(`Chromium is missing: ${chromiumHint}`);
  const { chromium: browserType } = await import(join(here, "node_modules", "playwright-core", "index.mjs"));
  const script = await bundle("browser-entry.mjs", "browser");
  const server = createServer((request, response) => {
    if (request.url === "/bundle.js") {
      response.writeHead(200, { "content-type": "text/javascript" });
      response.end(script);
    } else {
      response.writeHead(200, { "content-type": "text/html" });
      response.end('<!doctype html><script type="module" src="/bundle.js"></script>');
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const browser = await browserType.launch({
    executablePath: chromiumPath,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    try {
      await page.waitForFunction(() => typeof globalThis.runConformance === "function", undefined, { timeout: 10_000 });
    } catch {
      throw new Error(`the page did not load the package: ${errors.join(" / ") || "no error reported"}`);
    }
    return await page.evaluate(() => globalThis.runConformance());
  } finally {
    await browser.close();
    server.close();
  }
}

const runtimes = [
  ["Node 20 (this machine)", () => runJson(process.execPath, [local]), () => process.version],
  ["Node 22", () => runJson(join(here, "node_modules", "node22", "bin", "node"), [local]), () => "22.23.3"],
  ["Node 24", () => runJson(join(here, "node_modules", "node24", "bin", "node"), [local]), () => "24.21.0"],
  [
    "Bun",
    () => runJson(bin("bun"), [local]),
    () => JSON.parse(readFileSync(join(here, "node_modules", "bun", "package.json"), "utf8")).version,
  ],
  [
    "Deno",
    () => runJson(bin("deno"), ["run", local]),
    () => JSON.parse(readFileSync(join(here, "node_modules", "deno", "package.json"), "utf8")).version,
  ],
  [
    "workerd (no Node compatibility)",
    workerd,
    () => JSON.parse(readFileSync(join(here, "node_modules", "workerd", "package.json"), "utf8")).version,
  ],
  [
    "Chromium (headless)",
    chromium,
    () =>
      spawnSync(chromiumPath ?? "chromium", ["--version"], { encoding: "utf8" })
        .stdout?.trim()
        .replace(/^Chromium /, "") ?? "missing",
  ],
  [
    "ai@7 on Node 22",
    () =>
      ["ai7-end-to-end.mjs", "ai7-recipe.mjs"].flatMap((script) =>
        runJson(join(here, "node_modules", "node22", "bin", "node"), [join(here, script)]),
      ),
    () => "ai 7.0.173",
  ],
  // pi and Genkit from the project's own devDependencies, through their real agent loops.
  [
    "pi and Genkit on Node 22",
    () => runJson(join(here, "node_modules", "node22", "bin", "node"), [frameworks]),
    () => frameworkVersions(),
  ],
  [
    "pi and Genkit on Node 24",
    () => runJson(join(here, "node_modules", "node24", "bin", "node"), [frameworks]),
    () => frameworkVersions(),
  ],
  ["pi and Genkit on Bun", () => runJson(bin("bun"), [frameworks]), () => frameworkVersions()],
  ["pi and Genkit on Deno", () => runJson(bin("deno"), ["run", "-A", frameworks]), () => frameworkVersions()],
  // The current pi needs Node 22.19 or later: its recipe as printed, and system messages through compactions.
  ...["22", "24"].map((major) => [
    `pi on Node ${major}`,
    () => runJson(join(here, "node_modules", `node${major}`, "bin", "node"), [join(here, "pi-end-to-end.mjs")]),
    () =>
      `@earendil-works/pi-agent-core ${JSON.parse(readFileSync(join(here, "node_modules", "@earendil-works", "pi-agent-core", "package.json"), "utf8")).version}`,
  ]),
  // Every @mastra/core 1.x needs Node 22.13 or later: its end-to-end run is here, not in `npm test`.
  [
    "Mastra on Node 22",
    () =>
      ["plain", "memory", "memory-default", "scripted"].flatMap((run) =>
        runJson(join(here, "node_modules", "node22", "bin", "node"), [join(here, "mastra-end-to-end.mjs"), run]),
      ),
    () =>
      `@mastra/core ${JSON.parse(readFileSync(join(here, "node_modules", "@mastra", "core", "package.json"), "utf8")).version}`,
  ],
];

const rows = [];
for (const [name, run, version] of runtimes) {
  let checks;
  try {
    checks = await run();
  } catch (error) {
    checks = [{ check: "start", ok: false, detail: String(error?.message ?? error) }];
  }
  let versionText = "";
  try {
    versionText = version();
  } catch {
    versionText = "?";
  }
  rows.push({
    runtime: name,
    version: versionText,
    passed: checks.filter((c) => c.ok).length,
    failed: checks.filter((c) => !c.ok).length,
    checks,
  });
}

console.log("runtime | version | result");
for (const row of rows) {
  console.log(
    `${row.runtime} | ${row.version} | ${row.failed === 0 ? `ok (${row.passed} checks)` : `FAILED (${row.failed} of ${row.passed + row.failed})`}`,
  );
  for (const check of row.checks.filter((c) => !c.ok))
    console.log(`    ✗ ${check.check}: ${check.detail.split("\n").slice(0, 4).join(" / ")}`);
}
const record = `${JSON.stringify({ date: new Date().toISOString(), rows }, null, 2)}\n`;
writeFileSync(join(here, "last-run.json"), record);
if (process.argv.includes("--record")) writeFileSync(join(here, "results.json"), record);
const failed = rows.filter((row) => row.failed > 0).length;
console.log(`\nruntimes: ${rows.length - failed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
