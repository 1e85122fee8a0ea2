// The reviewed public surface of the package: one report per entry of package.json's `exports`
// (etc/<entry>.api.md), made from the built declarations (dist/<entry>.d.ts) with the TypeScript
// compiler, as api-extractor's report is: every exported name with its declaration, documentation
// comments left out. `npm test` compares the reports with the declarations (test/api-report.test.ts):
// a change to the public surface fails until `npm run api:report` writes the reports again and the
// change is reviewed in the diff.
//
//   node dev/api-report.mjs           writes etc/*.api.md
//   node dev/api-report.mjs --check   exits 1 and names the entries whose surface changed
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = dirname(dirname(fileURLToPath(import.meta.url)));

/** Each subpath of the package with the declaration file of its `import` condition. */
export function entries() {
  const { exports } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  return Object.entries(exports)
    .filter(([, target]) => typeof target === "object")
    .map(([subpath, target]) => ({
      name: subpath === "." ? "index" : subpath.slice(2),
      types: join(root, target.import.types),
    }));
}

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/** The reports of every entry, by entry name: one compiler program over all their declarations. */
export function reports() {
  const all = entries();
  const program = ts.createProgram(
    all.map((entry) => entry.types),
    {
      noEmit: true,
      skipLibCheck: true,
      types: [],
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
    },
  );
  return Object.fromEntries(all.map((entry) => [entry.name, reportOf(program, entry)]));
}

/** The report of one entry: its exported names, sorted, each with the declarations it stands for. */
function reportOf(program, { name, types }) {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(types);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error(`${types}: no module to report (is dist/ built?)`);
  const lines = [
    `# API report: context-compactor${name === "index" ? "" : `/${name}`}`,
    "",
    "Made by `npm run api:report` from the built declarations; `npm test` fails while it differs from them.",
    "",
    "```ts",
  ];
  const exported = checker.getExportsOfModule(moduleSymbol).sort((a, b) => a.name.localeCompare(b.name));
  for (const symbol of exported) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    for (const declaration of target.declarations ?? []) {
      const text = printer
        .printNode(ts.EmitHint.Unspecified, declaration, declaration.getSourceFile())
        .replace(/^export declare |^export /, "")
        .replace(/^declare /, "");
      lines.push(`// ${symbol.name}${symbol.name === target.name ? "" : ` (${target.name})`}`, text, "");
    }
  }
  lines.push("```", "");
  return lines.join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes("--check");
  const changed = [];
  mkdirSync(join(root, "etc"), { recursive: true });
  for (const [name, report] of Object.entries(reports())) {
    const file = join(root, "etc", `${name}.api.md`);
    if (check) {
      if (!existsSync(file) || readFileSync(file, "utf8") !== report) changed.push(name);
    } else writeFileSync(file, report);
  }
  if (changed.length > 0) {
    console.error(
      `The public surface of ${changed.join(", ")} differs from etc/: review the change, then run npm run api:report.`,
    );
    process.exit(1);
  }
}
