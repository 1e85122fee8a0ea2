// The built package as users get it (npm test builds before it tests).
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const dist = (file: string) => new URL(`../dist/${file}`, import.meta.url).pathname;

async function bundle(entry: string): Promise<string> {
  // A browser bundle fails to resolve any Node built-in, which proves the entry runs on every runtime.
  const result = await build({ entryPoints: [dist(entry)], bundle: true, minify: true, format: "esm", platform: "browser", write: false, logLevel: "silent" });
  return result.outputFiles[0]!.text;
}

describe("package", () => {
  it("the core and the adapters bundle for the browser, within a size budget", async () => {
    const core = await bundle("index.js");
    // Measured at 32.5 KB with nine dialects (each telling the messages it holds, its signed parts
    // and its media inside tool results), the stateful compactor with its keys and cache of own
    // writes, the fit ladder, the model-free summary that ranks facts, overflow detection, the
    // identifier scanner, secret redaction (with its key formats and secret-named settings in
    // context), cuts by JSON structure, fences that know their look-alikes and summary seals (with
    // their own SHA-256): the ceiling catches a regression, not a rounding change.
    // With the archive and its recall (the summary kit's renderer, fences and redaction come with
    // statefulCompactor) and the placing of a provider's own compaction, the core measured 38.2 KB;
    // with statefulCompactor in its parts (one object per concept where one closure held them all), 40.2 KB;
    // with the grouped options (each group checked, a moved key told where it went), recall's ranking
    // and the window that slides, 41.6 KB.
    expect(gzipSync(core).length).toBeLessThan(43 * 1024);
    for (const adapter of ["ai-sdk.js", "openai-agents.js", "redis.js", "pi.js", "genkit.js", "mastra.js", "openai.js", "anthropic.js"]) expect(gzipSync(await bundle(adapter)).length).toBeLessThan(40 * 1024);
  });

  it("has no runtime dependencies, and the adapters import no framework", () => {
    const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    expect(manifest.dependencies ?? {}).toEqual({});
    for (const peer of Object.keys(manifest.peerDependencies)) expect(manifest.peerDependenciesMeta[peer], peer).toEqual({ optional: true });
    expect(Object.keys(manifest.peerDependencies).sort()).toEqual(["@langchain/core", "@mariozechner/pi-agent-core", "@mastra/core", "@openai/agents", "@opentelemetry/api", "ai", "genkit", "langchain"]);
    for (const file of ["index.js", "index.cjs", "ai-sdk.js", "ai-sdk.cjs", "openai-agents.js", "openai-agents.cjs", "redis.js", "redis.cjs", "pi.js", "pi.cjs", "genkit.js", "genkit.cjs", "mastra.js", "mastra.cjs", "openai.js", "openai.cjs", "anthropic.js", "anthropic.cjs"]) {
      const code = readFileSync(dist(file), "utf8");
      expect(code).not.toMatch(/from ["'](?!\.\/)/);
      expect(code).not.toMatch(/require\(["'](?!\.\/)/);
    }
  });

  it("the development tree holds the build tools at the versions the package builds with", () => {
    // The root package.json holds only what `prepare` needs (installing from git installs it);
    // dev/install.mjs links node_modules to dev/node_modules, so the tests build with dev's copies.
    const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    const dev = JSON.parse(readFileSync(new URL("../dev/package.json", import.meta.url), "utf8"));
    for (const [name, version] of Object.entries(manifest.devDependencies)) expect(dev.devDependencies[name], name).toBe(version);
    expect(manifest.workspaces).toBeUndefined();
  });

  it("only the LangChain entry imports LangChain", () => {
    for (const file of ["langchain.js", "langchain.cjs"]) {
      const code = readFileSync(dist(file), "utf8");
      expect(code).toMatch(/["']langchain["']/);
      expect(code).toMatch(/["']@langchain\/core\/messages["']/);
    }
    for (const file of ["index.js", "index.cjs", "ai-sdk.js", "openai-agents.js"]) {
      expect(readFileSync(dist(file), "utf8")).not.toMatch(/(?:from|require\()\s*["'](?:langchain|@langchain\/)/);
    }
  });

  it("only the OpenTelemetry entry imports @opentelemetry/api", () => {
    for (const file of ["otel.js", "otel.cjs"]) {
      const code = readFileSync(dist(file), "utf8");
      expect(code).toMatch(/["']@opentelemetry\/api["']/);
      // Nothing else from outside the package.
      expect(code.match(/(?:from|require\()\s*["'](?!\.\/)[^"']+["']/g)).toEqual([expect.stringContaining("@opentelemetry/api")]);
    }
  });

  it("loads through require and import alike", async () => {
    const { createRequire } = await import("node:module");
    const required = createRequire(import.meta.url)(dist("index.cjs"));
    const imported = await import(dist("index.js"));
    expect(Object.keys(required).sort()).toEqual(Object.keys(imported).sort());
    expect(required.SUMMARY_PREFIX).toBe("[Summary of earlier conversation]\n");
    // An error made by one build is recognised by the other.
    expect(imported.isCompactionError(new required.CompactionError("TIMEOUT", "x"))).toBe(true);
  });
});
