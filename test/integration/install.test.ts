// Installed as a user installs it, in an empty project: from the git repository (npm clones it and
// runs `prepare`, which builds dist/) and from the tarball `npm pack` makes. Each install imports the
// package, with import and require, and compacts a transcript.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = new URL("../../", import.meta.url).pathname;
const npm = (cwd: string, ...args: string[]) => execFileSync("npm", [...args, "--no-audit", "--no-fund", "--prefer-offline"], { cwd, encoding: "utf8", stdio: "pipe" });

const useIt = `
import { compact, estimateTokens } from "context-compactor";
import { createRequire } from "node:module";
const { compactor } = createRequire(import.meta.url)("context-compactor");
const messages = [{ role: "system", content: "s" }, ...Array.from({ length: 20 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: "word ".repeat(50) }))];
const result = await compact(messages, { maxTokens: 300, summarize: async (older) => "summary of " + older.length });
console.log(JSON.stringify({ require: typeof compactor, before: estimateTokens(messages), after: estimateTokens(result.messages), first: result.messages[0].content, second: result.messages[1].content.slice(0, 60) }));
`;

function emptyProject(): string {
  const dir = mkdtempSync(join(tmpdir(), "install-"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "empty-project", version: "1.0.0", private: true, type: "module" }));
  writeFileSync(join(dir, "use.mjs"), useIt);
  return dir;
}

function used(dir: string) {
  const out = JSON.parse(execFileSync(process.execPath, ["use.mjs"], { cwd: dir, encoding: "utf8" }));
  expect(out.require).toBe("function");
  expect(out.after).toBeLessThanOrEqual(300);
  expect(out.before).toBeGreaterThan(300);
  expect(out.first).toBe("s");
  expect(out.second).toMatch(/^\[Summary of earlier conversation\]\nsummary of \d+/);
}

describe("installing the package", () => {
  it("from the tarball of npm pack", { timeout: 180_000 }, () => {
    const packs = mkdtempSync(join(tmpdir(), "pack-"));
    // dist/ is already built (npm test builds first); --ignore-scripts keeps pack from rebuilding it under the other tests.
    npm(root, "pack", "--ignore-scripts", "--pack-destination", packs);
    const tarball = readdirSync(packs).find((name) => name.endsWith(".tgz"))!;
    expect(tarball).toMatch(/^context-compactor-\d+\.\d+\.\d+\.tgz$/);
    const project = emptyProject();
    npm(project, "install", join(packs, tarball));
    used(project);
  });

  it("from the git repository (its last commit), built by prepare", { timeout: 300_000 }, () => {
    const project = emptyProject();
    npm(project, "install", `git+file://${root}`);
    expect(readdirSync(join(project, "node_modules/context-compactor/dist"))).toContain("index.js");
    used(project);
  });
});
