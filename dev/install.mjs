// Installs the tree a command needs, each from a manifest and lockfile of its own, so the first
// command of a fresh clone downloads what it runs and nothing more:
//
//   node dev/install.mjs          the tests' tree (dev/package.json: the SDKs, frameworks and tools
//                                 `npm test` uses, with the build tools), linked as node_modules
//   node dev/install.mjs demo     the demo's (dev/demo/package.json: the build tools and the openai
//                                 SDK), linked as node_modules; the tests' tree when it is installed
//   node dev/install.mjs bench    the tests' tree, and bench/package.json into bench/node_modules
//   node dev/install.mjs e2e      the tests' tree, and test/e2e/package.json into test/e2e/node_modules
//
// node_modules is a link to one tree, so every folder resolves one copy of each package, as it
// would from a single install. The benchmarks' and the end-to-end suites' own packages sit in a
// folder beside the files that import them, which Node's resolution reaches before the link.
//
// The root package.json holds only what `prepare` needs to build dist/: installing the package
// from its git repository runs `npm install` in a clone of it before `prepare`, and that installs
// every root devDependency. These trees are not npm workspaces because the clone's install would
// take them too: all workspaces by default, and with `workspaces=false` still 820 of the 931
// packages, those that satisfy the root's optional peer dependencies (ai, genkit, …) and theirs.
//
// Quick when current: a tree is installed again only when its manifest or lockfile changed since
// (their SHA-256 is kept in <tree>/node_modules/.installed-from). `npm ci` at the root replaces
// node_modules, and the next run links it again.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = dirname(here);
const link = join(root, "node_modules");

/** The folders of the trees, each with its package.json and package-lock.json. */
const trees = { test: here, demo: join(here, "demo"), bench: join(root, "bench"), e2e: join(root, "test/e2e") };

const wanted = (folder) =>
  createHash("sha256")
    .update(readFileSync(join(folder, "package.json")))
    .update(readFileSync(join(folder, "package-lock.json")))
    .digest("hex");
const stampOf = (folder) => join(folder, "node_modules", ".installed-from");
const current = (folder) => existsSync(stampOf(folder)) && readFileSync(stampOf(folder), "utf8") === wanted(folder);

function install(folder) {
  if (current(folder)) return;
  console.log(
    `Installing ${relative(root, join(folder, "package.json"))} (npm ci --prefix ${relative(root, folder)})…`,
  );
  execFileSync("npm", ["ci", "--prefix", folder, "--no-audit", "--no-fund"], { stdio: "inherit" });
  writeFileSync(stampOf(folder), wanted(folder));
}

function linkTo(folder) {
  const target = join(folder, "node_modules");
  try {
    if (lstatSync(link).isSymbolicLink() && resolve(root, readlinkSync(link)) === target) return;
  } catch {
    // No node_modules yet.
  }
  // The build-only tree of a root `npm ci`, or a link to another tree: every tree holds the same
  // build tools at the same versions (test/package.test.ts checks it).
  rmSync(link, { recursive: true, force: true });
  symlinkSync(relative(root, target), link, "dir");
}

const wantedTree = process.argv[2] ?? "test";
if (!(wantedTree in trees)) {
  console.error(`dev/install.mjs: expected one of ${Object.keys(trees).join(", ")}, got "${wantedTree}"`);
  process.exit(2);
}
if (wantedTree === "demo" && !current(trees.test)) {
  install(trees.demo);
  linkTo(trees.demo);
} else {
  install(trees.test);
  linkTo(trees.test);
  if (wantedTree === "bench" || wantedTree === "e2e") install(trees[wantedTree]);
}
