// Installs the development tree (dev/package.json: the SDKs, frameworks and tools the tests,
// benchmarks and examples use, with the build tools) and makes the project's node_modules a link
// to it, so every folder resolves one copy of each package, as it would from a single install.
//
// The root package.json holds only what `prepare` needs to build dist/: installing the package
// from its git repository runs `npm install` in a clone of it before `prepare`, and that installs
// every root devDependency. This tree is not an npm workspace because the clone's install would
// take it too: all workspaces by default, and with `workspaces=false` still 820 of the 931
// packages, those that satisfy the root's optional peer dependencies (ai, genkit, …) and theirs.
//
// Quick when current: it does nothing when node_modules already links here and the tree was
// installed from the lockfile and manifest as they are now. `npm ci` at the root replaces
// node_modules, and the next run installs the tree again.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = dirname(here);
const tree = join(here, "node_modules");
const link = join(root, "node_modules");
const stamp = join(tree, ".installed-from");

const wanted = createHash("sha256")
  .update(readFileSync(join(here, "package.json")))
  .update(readFileSync(join(here, "package-lock.json")))
  .digest("hex");

const linked = () => {
  try {
    return lstatSync(link).isSymbolicLink() && resolve(root, readlinkSync(link)) === tree;
  } catch {
    return false;
  }
};
const current = () => existsSync(stamp) && readFileSync(stamp, "utf8") === wanted;

if (!(linked() && current())) {
  if (!current()) {
    console.log("Installing the development tree (npm ci --prefix dev)…");
    execFileSync("npm", ["ci", "--prefix", here, "--no-audit", "--no-fund"], { stdio: "inherit" });
    writeFileSync(stamp, wanted);
  }
  // The build-only tree of a root `npm ci`, or an old link: the development tree holds the same
  // build tools at the same versions (test/package.test.ts checks it).
  rmSync(link, { recursive: true, force: true });
  symlinkSync("dev/node_modules", link, "dir");
}
