// The folders of src/ are layers, and no import runs from a lower one to a higher one: the ground
// (types, errors, constants, options) below everything, the CLI on top.
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/** Lowest first. */
const layers = [
  "ground",
  "text",
  "dialects",
  "validation",
  "counting",
  "plan",
  "summary-kit",
  "hook",
  "stores",
  "archive",
  "state",
  "recovery",
  "backends",
  "telemetry",
  "adapters",
  "cli",
];
const src = new URL("../src/", import.meta.url).pathname;
const folders = readdirSync(src, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** The files of a folder and of its subfolders, as paths relative to the folder. */
function filesOf(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesOf(join(folder, entry.name)).map((file) => join(entry.name, file)) : [entry.name],
  );
}

function importsOf(file: string): string[] {
  const code = readFileSync(file, "utf8");
  return [...code.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map((match) => match[1]!);
}

describe("layers", () => {
  it("every folder of src/ is a known layer, and only the entries that re-export sit beside them", () => {
    expect(folders.filter((folder) => !layers.includes(folder))).toEqual([]);
    expect(
      readdirSync(src, { withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => entry.name)
        .sort(),
    ).toEqual(["cache.ts", "expert.ts", "index.ts", "summary-kit.ts", "tools.ts"]);
  });

  it.each(folders)("%s imports nothing from a higher layer", (folder) => {
    const upward: string[] = [];
    for (const file of filesOf(join(src, folder))) {
      const path = join(src, folder, file);
      for (const specifier of importsOf(path)) {
        const target = relative(src, resolve(dirname(path), specifier)).split("/")[0]!;
        if (layers.indexOf(target) > layers.indexOf(folder)) upward.push(`${folder}/${file} → ${specifier}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it("catches an upward import (the check itself can fail)", () => {
    const target = relative(src, resolve(join(src, "ground"), "../cli/main.js")).split("/")[0]!;
    expect(layers.indexOf(target)).toBeGreaterThan(layers.indexOf("ground"));
  });
});
