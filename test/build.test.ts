// The build (build.mjs) emits the declarations with no installed package visible to the compiler,
// as in the clone where npm prepares a git install (only esbuild and TypeScript are there). A type
// that src/ leaves to be inferred from a framework would then be emitted as `any`: the
// declarations must be the same as those emitted with every package of the development tree in view.
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { emitDeclarations } from "../build.mjs";

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  );

/** The `.d.ts` files under `<outDir>/types`, by their path from `outDir`. */
const declarations = (outDir: string): Map<string, string> =>
  new Map(
    files(join(outDir, "types"))
      .filter((file) => file.endsWith(".d.ts"))
      .map((file) => [relative(outDir, file), readFileSync(file, "utf8")]),
  );

describe("the build", () => {
  it("emits the same declarations without the installed packages as with them", { timeout: 60_000 }, () => {
    // What `npm run build` emitted, with no package visible (npm test builds before it tests), beside
    // an emit with every package of the development tree in view.
    const alone = declarations(new URL("../dist", import.meta.url).pathname);
    const dir = mkdtempSync(join(tmpdir(), "declarations-"));
    expect(emitDeclarations(dir, { packagesVisible: true })).toEqual([]);
    const withPackages = declarations(dir);
    expect([...alone.keys()].sort()).toEqual([...withPackages.keys()].sort());
    // The LangChain and OpenTelemetry entries name their frameworks' types, which resolve where they are installed.
    expect(alone.get("types/adapters/langchain.d.ts")).toMatch(/AgentMiddleware</);
    expect(alone.get("types/telemetry/otel.d.ts")).toMatch(/from "@opentelemetry\/api"/);
    for (const [file, text] of withPackages) expect(alone.get(file), file).toBe(text);
    // Nor does any declaration hold an `any` of its own (comments aside).
    for (const [file, text] of alone)
      expect(text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, ""), file).not.toMatch(/\bany\b/);
  });
});
