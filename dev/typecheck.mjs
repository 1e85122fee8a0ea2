// `npm run typecheck`: the compiler over tsconfig.json (src/, test/, bench/, examples/) and, in the
// same program, every TypeScript block of the README, CONTRIBUTING.md and docs/, each a module of
// its own served from memory as if it sat in examples/ beside the recipes, so its imports resolve
// as theirs do: `context-compactor` to the sources, each framework to the installed package. One
// program reads the frameworks' declarations once for both; a second one for the blocks (in
// test/readme.test.ts, before) read them all again, 20 to 30 s of CPU on two cores.
//
// Incremental: what the compiler learnt of each file is kept in
// node_modules/.cache/context-compactor/typecheck.tsbuildinfo, so a run after a change checks what
// the change can reach; a new install of the tree, which replaces node_modules, starts it afresh.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = dirname(dirname(fileURLToPath(import.meta.url)));

/** The pages whose TypeScript blocks must compile. */
export function documentationPages() {
  const markdown = (dir) =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? markdown(join(dir, entry.name)) : entry.name.endsWith(".md") ? [join(dir, entry.name)] : [],
    );
  return [join(root, "README.md"), join(root, "CONTRIBUTING.md"), ...markdown(join(root, "docs"))];
}

/** The TypeScript blocks of a page's markdown, in order. */
export function typescriptBlocks(markdown) {
  const blocks = [];
  let current = null;
  for (const line of markdown.split("\n")) {
    if (current === null && /^```(ts|typescript|tsx)\s*$/.test(line)) current = [];
    else if (current !== null && line.startsWith("```")) {
      blocks.push(current.join("\n"));
      current = null;
    } else current?.push(line);
  }
  return blocks;
}

/** Every block of every page by the path it is compiled at: examples/docs-block-<page>-<n>.ts. */
export function documentationBlocks() {
  return new Map(
    documentationPages().flatMap((page) =>
      typescriptBlocks(readFileSync(page, "utf8")).map((block, index) => [
        join(root, "examples", `docs-block-${relative(root, page).replace(/[/.]/g, "-")}-${index + 1}.ts`),
        block,
      ]),
    ),
  );
}

function typecheck() {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, "tsconfig.json"),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => report([diagnostic]) },
  );
  if (config === undefined) return 1;
  const options = {
    ...config.options,
    incremental: true,
    tsBuildInfoFile: join(root, "node_modules/.cache/context-compactor/typecheck.tsbuildinfo"),
  };
  const blocks = documentationBlocks();
  const host = ts.createIncrementalCompilerHost(options);
  const { readFile, fileExists } = host;
  host.readFile = (file) => blocks.get(file) ?? readFile.call(host, file);
  host.fileExists = (file) => blocks.has(file) || fileExists.call(host, file);
  const program = ts.createIncrementalProgram({
    rootNames: [...config.fileNames, ...blocks.keys()],
    options,
    host,
    configFileParsingDiagnostics: config.errors,
  });
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...program.emit().diagnostics];
  report(diagnostics);
  return diagnostics.length === 0 ? 0 : 1;
}

function report(diagnostics) {
  if (diagnostics.length === 0) return;
  const formatHost = { getCanonicalFileName: (file) => file, getCurrentDirectory: () => root, getNewLine: () => "\n" };
  const format = process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
  console.log(format(diagnostics, formatHost));
  console.log(`Found ${diagnostics.length} error${diagnostics.length === 1 ? "" : "s"}.`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = typecheck();
