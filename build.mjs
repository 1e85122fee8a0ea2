// `npm run build` (and `prepare`): dist/ from src/, with esbuild and TypeScript alone, the only
// packages the root package.json installs. Installing the package from its git repository runs
// `npm install` in a clone and then this build, so every package it needs is downloaded by every
// such install: a bundler that brings its own bundler (rollup) for the declarations, or a
// framework installed only for its types, would be downloaded each time.
//
// - JavaScript: esbuild bundles each entry, ESM with its shared chunks and CommonJS each whole,
//   every package import left to the user's install (the package has no dependencies: each one is
//   an optional peer or a Node built-in).
// - Declarations: TypeScript emits one `.d.ts` per module of src/ into dist/types/, and a `.d.cts`
//   copy that imports the `.cjs` names, so a `require` sees CommonJS types. Each entry's own
//   `dist/<entry>.d.ts` and `.d.cts` re-export its module. They are emitted from src/ alone: no
//   package is visible to the compiler, so a declaration never carries a type inferred from a
//   framework (it would be `any` where that framework is not installed); a type of a framework is
//   named in src/ and resolves in the user's project. `test/build.test.ts` checks that the
//   declarations are the same with the packages visible. The typecheck of the development tree
//   (`npm run typecheck`) is where src/ is checked; the build does not check it again.
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import ts from "typescript";

const root = dirname(fileURLToPath(import.meta.url));
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

/** Each entry of dist/ and the module of src/ it is built from. */
export const entries = {
  index: "src/index.ts",
  "summary-kit": "src/summary-kit.ts",
  tools: "src/tools.ts",
  expert: "src/expert.ts",
  "ai-sdk": "src/adapters/ai-sdk.ts",
  "openai-agents": "src/adapters/openai-agents.ts",
  langchain: "src/adapters/langchain.ts",
  redis: "src/stores/redis.ts",
  mastra: "src/adapters/mastra.ts",
  genkit: "src/adapters/genkit.ts",
  pi: "src/adapters/pi.ts",
  otel: "src/telemetry/otel.ts",
  openai: "src/backends/openai.ts",
  anthropic: "src/backends/anthropic.ts",
  // Not a subpath of the package: an entry of its own makes the estimate and what it imports a
  // chunk of their own, which a user's bundler can take alone. In a chunk shared with the hook,
  // the estimate would bring along every top-level value of the hook's modules that a bundler
  // cannot prove unused (tables, compiled patterns, encoders).
  "estimate-tokens": "src/counting/estimate-tokens.ts",
};

/**
 * Entries that import no module of the others (only types): each is built apart, whole, so that
 * adding one leaves the chunks the others share as they were (a new entry in the split build
 * renames and reorders every chunk, which costs a user's bundle of the others tens of bytes).
 */
export const standaloneEntries = {
  cache: "src/cache.ts",
};

const common = { bundle: true, packages: "external", platform: "node", logLevel: "error", absWorkingDir: root };

async function javascript(outDir) {
  const entryPoints = Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, join(root, file)]));
  const standalone = Object.fromEntries(
    Object.entries(standaloneEntries).map(([name, file]) => [name, join(root, file)]),
  );
  await Promise.all([
    build({ ...common, entryPoints, outdir: outDir, format: "esm", splitting: true, target: "es2022" }),
    build({ ...common, entryPoints: standalone, outdir: outDir, format: "esm", target: "es2022" }),
    build({
      ...common,
      entryPoints: { ...entryPoints, ...standalone },
      outdir: outDir,
      format: "cjs",
      target: "es2022",
      outExtension: { ".js": ".cjs" },
    }),
    // The command: Node's own modules, and its version written in.
    build({
      ...common,
      entryPoints: { cli: join(root, "src/cli/main.ts") },
      outdir: outDir,
      format: "esm",
      target: "node20",
      define: { PACKAGE_VERSION: JSON.stringify(version) },
    }),
  ]);
  chmodSync(join(outDir, "cli.js"), 0o755);
}

/**
 * Emits the declarations of src/ into `outDir` (`<outDir>/types/…`), returning the diagnostics of
 * the emit. `packagesVisible: false` (the build) hides every installed package from the compiler
 * but TypeScript's own lib files; `true` shows them as the typecheck sees them (the test's twin).
 */
export function emitDeclarations(outDir, { packagesVisible = false } = {}) {
  const options = {
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    esModuleInterop: true,
    skipLibCheck: true,
    // No @types: the declarations need no Node types.
    types: [],
    declaration: true,
    emitDeclarationOnly: true,
    noCheck: true,
    rootDir: join(root, "src"),
    outDir: join(outDir, "types"),
  };
  const host = ts.createCompilerHost(options);
  const libDir = dirname(ts.getDefaultLibFilePath(options));
  const hidden = (path) => !packagesVisible && path.includes("/node_modules/") && !path.startsWith(libDir);
  const { fileExists, readFile, directoryExists } = host;
  host.fileExists = (path) => !hidden(path) && fileExists.call(host, path);
  host.readFile = (path) => (hidden(path) ? undefined : readFile.call(host, path));
  host.directoryExists = (path) => !hidden(path) && (directoryExists ? directoryExists.call(host, path) : true);
  const program = ts.createProgram({
    rootNames: Object.values({ ...entries, ...standaloneEntries }).map((file) => join(root, file)),
    options,
    host,
  });
  const { diagnostics } = program.emit();
  return diagnostics.map((diagnostic) =>
    ts.formatDiagnostic(diagnostic, {
      getCanonicalFileName: (f) => f,
      getCurrentDirectory: () => root,
      getNewLine: () => "\n",
    }),
  );
}

const files = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  );

/** The `.d.cts` twin of each `.d.ts` under `<outDir>/types`, and each entry's two re-exports. */
function declarationEntries(outDir) {
  // Relative specifiers only: a package's name is the user's to resolve.
  const toCjs = (text) => text.replace(/((?:from|import\()\s*["'])(\.{1,2}\/[^"']*)\.js(["'])/g, "$1$2.cjs$3");
  for (const file of files(join(outDir, "types")).filter((f) => f.endsWith(".d.ts"))) {
    writeFileSync(file.replace(/\.d\.ts$/, ".d.cts"), toCjs(readFileSync(file, "utf8")));
  }
  for (const [name, file] of Object.entries({ ...entries, ...standaloneEntries })) {
    const target = `./types/${relative("src", file).replace(/\.ts$/, "")}`;
    writeFileSync(join(outDir, `${name}.d.ts`), `export * from "${target}.js";\n`);
    writeFileSync(join(outDir, `${name}.d.cts`), `export * from "${target}.cjs";\n`);
  }
}

/** Builds dist/ (or `outDir`) from nothing. */
export async function buildPackage(outDir = join(root, "dist")) {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  await javascript(outDir);
  const problems = emitDeclarations(outDir);
  if (problems.length > 0) throw new Error(`The declarations could not be emitted:\n${problems.join("\n")}`);
  declarationEntries(outDir);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildPackage();
