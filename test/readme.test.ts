// The README and docs/: the README short, the recipes shown verbatim, every TypeScript block
// compiling, every export documented, and every relative link resolving.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import ts from "typescript";
import * as core from "../src/index.js";

const root = new URL("../", import.meta.url).pathname;
const readme = readFileSync(join(root, "README.md"), "utf8");
const recipes = join(root, "examples/recipes");

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? markdownFiles(join(dir, entry.name)) : entry.name.endsWith(".md") ? [join(dir, entry.name)] : []));
}
const pages = [join(root, "README.md"), join(root, "CONTRIBUTING.md"), ...markdownFiles(join(root, "docs"))];
const text = (file: string) => readFileSync(file, "utf8");
const everything = pages.map(text).join("\n");

/** The anchors a page's headings make, as GitHub spells them. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6} (.*)$/.exec(line);
    if (heading) anchors.add(heading[1]!.trim().toLowerCase().replace(/[^\w\- ]/g, "").replace(/ /g, "-"));
  }
  return anchors;
}

/** The TypeScript blocks of a page, in order. */
function typescriptBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  let current: string[] | null = null;
  for (const line of markdown.split("\n")) {
    if (current === null && /^```(ts|typescript|tsx)\s*$/.test(line)) current = [];
    else if (current !== null && line.startsWith("```")) {
      blocks.push(current.join("\n"));
      current = null;
    } else current?.push(line);
  }
  return blocks;
}

/**
 * Every TypeScript block of every page compiled as a module of its own, with the repository's
 * compiler options: `context-compactor` resolves to the sources and the frameworks to the installed
 * packages. The blocks are served from memory at paths inside the repository, so nothing is written.
 */
function compileErrors(blocks: Map<string, string>): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(join(root, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (config === undefined) throw new Error("tsconfig.json could not be read");
  const host = ts.createCompilerHost(config.options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (file) => blocks.get(file) ?? readFile(file);
  host.fileExists = (file) => blocks.has(file) || fileExists(file);
  const program = ts.createProgram([...blocks.keys()], { ...config.options, noEmit: true }, host);
  return [...blocks.keys()].flatMap((file) =>
    [...program.getSyntacticDiagnostics(program.getSourceFile(file)), ...program.getSemanticDiagnostics(program.getSourceFile(file))].map((diagnostic) => {
      const { line } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      return `${relative(root, file)}:${line + 1}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`;
    }),
  );
}

describe("README and docs", () => {
  it("the README stays short, and gives a newcomer the two commands", () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(15 * 1024);
    expect(readme).toContain("npm run demo");
    expect(readme).toContain("npm test");
  });

  it.each(readdirSync(recipes))("shows examples/recipes/%s verbatim", (file) => {
    expect(everything).toContain(readFileSync(join(recipes, file), "utf8").trimEnd());
  });

  it("speaks of the library only, in words a reader can look up", () => {
    for (const page of pages) expect(text(page), relative(root, page)).not.toMatch(/\bpart (one|two|three)\b|\bSPEC\b|§|toolnexus/i);
  });

  it("the API reference has an entry for every export", () => {
    const api = text(join(root, "docs/api.md"));
    for (const name of [...Object.keys(core), "toPrepareStep", "toCallModelInputFilter", "overflowRecovery", "withOverflowRecovery", "toAgentMiddleware", "redisStore", "toTransformContext", "toModelMiddleware", "toInputProcessor", "otelEvents", "recordSummaryUsage", "recallTool", "openaiCompaction", "anthropicCompaction", "ANTHROPIC_COMPACTION_BETA"]) {
      expect(api, name).toContain(`\`${name}`);
    }
  });

  it("every TypeScript block compiles", { timeout: 120_000 }, () => {
    // Served as if they sat in examples/, beside the recipes, so imports resolve the same way.
    const blocks = new Map(pages.flatMap((page) => typescriptBlocks(text(page)).map((block, index) => [join(root, "examples", `docs-block-${relative(root, page).replace(/[/.]/g, "-")}-${index + 1}.ts`), block] as const)));
    expect(blocks.size).toBeGreaterThan(10);
    expect(compileErrors(blocks)).toEqual([]);
  });

  it.each(pages.map((file) => relative(root, file)))("every relative link of %s resolves", (page) => {
    const file = join(root, page);
    const broken: string[] = [];
    for (const [, target] of text(file).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:)/.test(target!)) continue;
      const [path, anchor] = target!.split("#") as [string, string | undefined];
      const destination = path === "" ? file : join(dirname(file), path);
      if (!existsSync(destination)) broken.push(target!);
      else if (anchor !== undefined && destination.endsWith(".md") && !anchorsOf(text(destination)).has(anchor)) broken.push(target!);
    }
    expect(broken).toEqual([]);
  });
});
