import { readFileSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { interfacesOf, withOptionsTables } from "../docs/options-tables.mjs";

const page = readFileSync(new URL("../docs/api.md", import.meta.url), "utf8");
const exportsOf = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).exports as Record<
  string,
  unknown
>;
/** Where each subpath's source is: the typecheck resolves `context-compactor/<entry>` through these paths. */
const sourceOf = JSON.parse(readFileSync(new URL("../tsconfig.json", import.meta.url), "utf8")).compilerOptions
  .paths as Record<string, string[]>;

/** The interfaces the package exports whose names end in `Options`: what a caller passes to a factory. */
function exportedOptionInterfaces(): string[] {
  const entries = Object.keys(exportsOf)
    .filter((entry) => entry !== "./package.json")
    .map((entry) =>
      entry === "." ? "src/index.ts" : sourceOf[`context-compactor/${entry.slice(2)}`]![0]!.replace(/^\.\//, ""),
    );
  const names = new Set<string>();
  for (const entry of entries) {
    const source = ts.createSourceFile(
      entry,
      readFileSync(new URL(`../${entry}`, import.meta.url), "utf8"),
      ts.ScriptTarget.Latest,
      true,
    );
    source.forEachChild((node) => {
      if (ts.isExportDeclaration(node) && node.exportClause && ts.isNamedExports(node.exportClause)) {
        for (const element of node.exportClause.elements)
          if (element.name.text.endsWith("Options")) names.add(element.name.text);
      }
      if (
        ts.isInterfaceDeclaration(node) &&
        node.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword) &&
        node.name.text.endsWith("Options")
      ) {
        names.add(node.name.text);
      }
    });
  }
  return [...names].sort();
}

describe("docs/api.md", () => {
  it("gives each options table exactly as the TSDoc of its interface says (`npm run docs:api` rewrites them)", () => {
    expect(withOptionsTables(page)).toBe(page);
  });

  it("has an options table for every exported options interface", () => {
    const interfaces: Map<string, unknown> = interfacesOf();
    // What a framework passes to the adapter (not options a caller writes), and type aliases (an
    // adapter's options: those of `statefulCompactor` plus its own id function), are told in prose.
    const frameworkArguments = ["PrepareStepOptions", "RecallToolCallOptions"];
    const tables = new Set([...page.matchAll(/<!-- options: (\w+) -->/g)].map((match) => match[1]));
    const missing = exportedOptionInterfaces().filter(
      (name) => interfaces.has(name) && !frameworkArguments.includes(name) && !tables.has(name),
    );
    expect(missing).toEqual([]);
  });
});
