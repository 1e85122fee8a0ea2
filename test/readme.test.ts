// The README and docs/: the README short, the recipes shown verbatim, every TypeScript block
// compiled by the typecheck, every export documented, and every relative link resolving.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import * as core from "../src/index.js";
import { documentationBlocks, documentationPages, typescriptBlocks } from "../dev/typecheck.mjs";

const root = new URL("../", import.meta.url).pathname;
const readme = readFileSync(join(root, "README.md"), "utf8");
const recipes = join(root, "examples/recipes");

const pages = documentationPages();
const text = (file: string) => readFileSync(file, "utf8");
const everything = pages.map(text).join("\n");

/** The anchors a page's headings make, as GitHub spells them. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6} (.*)$/.exec(line);
    if (heading)
      anchors.add(
        heading[1]!
          .trim()
          .toLowerCase()
          .replace(/[^\w\- ]/g, "")
          .replace(/ /g, "-"),
      );
  }
  return anchors;
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
    for (const page of pages)
      expect(text(page), relative(root, page)).not.toMatch(/\bpart (one|two|three)\b|\bSPEC\b|§|toolnexus/i);
  });

  it("the API reference has an entry for every export", () => {
    const api = text(join(root, "docs/api.md"));
    for (const name of [
      ...Object.keys(core),
      "toPrepareStep",
      "toCallModelInputFilter",
      "overflowRecovery",
      "withOverflowRecovery",
      "toAgentMiddleware",
      "redisStore",
      "toTransformContext",
      "toModelMiddleware",
      "toInputProcessor",
      "otelEvents",
      "recordSummaryUsage",
      "recallTool",
      "openaiCompaction",
      "anthropicCompaction",
      "ANTHROPIC_COMPACTION_BETA",
    ]) {
      expect(api, name).toContain(`\`${name}`);
    }
  });

  it("every TypeScript block is compiled by the typecheck of npm test, as a module beside the recipes", () => {
    // dev/typecheck.mjs compiles them in the program of tsconfig.json (one program reads the
    // frameworks' declarations once): a block that does not compile fails `npm run typecheck`.
    expect(JSON.parse(text(join(root, "package.json"))).scripts.typecheck).toBe("node dev/typecheck.mjs");
    const blocks = documentationBlocks();
    expect(blocks.size).toBeGreaterThan(10);
    expect(blocks.size).toBe(everything.match(/^```(ts|typescript|tsx)\s*$/gm)!.length);
    for (const file of blocks.keys()) expect(dirname(file)).toBe(join(root, "examples"));
    for (const block of pages.flatMap((page) => typescriptBlocks(text(page))))
      expect([...blocks.values()]).toContain(block);
  });

  it.each(pages.map((file) => relative(root, file)))("every relative link of %s resolves", (page) => {
    const file = join(root, page);
    const broken: string[] = [];
    for (const [, target] of text(file).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:)/.test(target!)) continue;
      const [path, anchor] = target!.split("#") as [string, string | undefined];
      const destination = path === "" ? file : join(dirname(file), path);
      if (!existsSync(destination)) broken.push(target!);
      else if (anchor !== undefined && destination.endsWith(".md") && !anchorsOf(text(destination)).has(anchor))
        broken.push(target!);
    }
    expect(broken).toEqual([]);
  });
});
