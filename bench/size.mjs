// What a user pays in bundle bytes for each import of the built package, beside what the peers'
// own equivalents add to an app of their framework. Each import is bundled alone by esbuild for
// `--platform=neutral` (no Node, no browser assumed), minified, as ESM, then gzipped, the way
// size-limit measures a package's exports. The framework packages are external to our entries:
// an app that uses an adapter already has its framework. A peer ships inside its framework, so what
// it costs is what it adds: the app `import { generateText } from "ai"` bundled with and without it.
// Our adapters are measured that way too, for the ratio. Run: npm run bench:size (it builds first).
import { readFileSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = new URL("..", import.meta.url).pathname;
// Every framework the package has as a peer: never ours to ship.
const frameworks = [
  "ai",
  "langchain",
  "@langchain/*",
  "@openai/agents",
  "@opentelemetry/api",
  "@mariozechner/pi-agent-core",
  "genkit",
  "@mastra/core",
];

/** The imports a user may make of the package, each with the entry of `dist/` it comes from. */
export const imports = [
  { name: "compactor", from: "index.js" },
  { name: "estimateTokens", from: "index.js" },
  { name: "statefulCompactor", from: "index.js" },
  { name: "extractiveSummary", from: "index.js" },
  { name: "toPrepareStep", from: "ai-sdk.js", framework: "ai" },
  { name: "toCallModelInputFilter", from: "openai-agents.js" },
  { name: "toAgentMiddleware", from: "langchain.js", framework: "langchain" },
  { name: "redisStore", from: "redis.js" },
  { name: "otelEvents", from: "otel.js" },
];

/** The peers: the same job done by the framework itself, measured as what it adds to an app of it. */
const peers = [
  { name: "pruneMessages", framework: "ai", base: "generateText", for: "toPrepareStep" },
  { name: "summarizationMiddleware", framework: "langchain", base: "createAgent", for: "toAgentMiddleware" },
];

/**
 * Bundles `source` (ES module text, resolved from the repository's root) as a user's bundler would,
 * minified, for no platform in particular. Returns its minified and gzipped sizes in bytes,
 * esbuild's metafile (which modules went in, and how many bytes each) and the bundle's text.
 */
export async function measure(source, { external = [] } = {}) {
  const result = await build({
    stdin: { contents: source, resolveDir: root, loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    // `neutral` reads no package.json field of its own: take what a bundler for the web would.
    mainFields: ["module", "main"],
    conditions: ["import", "module", "default"],
    external,
    metafile: true,
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0].contents;
  return {
    minified: code.length,
    gzip: gzipSync(code, { level: 9 }).length,
    metafile: result.metafile,
    text: result.outputFiles[0].text,
  };
}

/** The source of an app that imports `names` from `from`, keeping each (a bundler drops an unused import). */
const appOf = (names, from) => `export { ${names.join(", ")} } from ${JSON.stringify(from)};`;

/** One import of the package, bundled alone with the frameworks left out. */
export const measureImport = (entry) => measure(appOf([entry.name], `./dist/${entry.from}`), { external: frameworks });

// The frameworks reach for Node's modules on some paths (the AI SDK's gateway reads its credentials
// from disk): a neutral bundle leaves them out, the same on both sides of a subtraction.
const nodeModules = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

/** What `name` from `from` adds to an app that already imports `base` from `framework`. */
async function added(base, framework, name, from) {
  const without = await measure(appOf([base], framework), { external: nodeModules });
  const withIt = await measure(`${appOf([base], framework)}\n${appOf([name], from)}`, { external: nodeModules });
  return { minified: withIt.minified - without.minified, gzip: withIt.gzip - without.gzip };
}

const kb = (bytes) => (bytes / 1024).toFixed(1);

/**
 * The parts of `compactor`'s bundle, each as the source modules that make it: what the default
 * path carries that a later section of the contract asked for, and the option checks any design
 * keeps. What a part weighs is what `compactor` loses when its modules are left out.
 */
export const compactorParts = [
  {
    part: "the eight formats besides OpenAI chat: telling each, reading each",
    modules: [
      "dialects/anthropic.ts",
      "dialects/bedrock-converse.ts",
      "dialects/google-genai.ts",
      "dialects/genkit.ts",
      "dialects/langchain.ts",
      "dialects/ai-sdk.ts",
      "dialects/openai-responses.ts",
      "dialects/pi-agent.ts",
    ],
  },
  {
    part: "the truncation rung: payloads cut by their JSON, markers naming the values cut",
    modules: ["plan/truncate-tool-payloads.ts", "text/shorten-json.ts", "text/scan-identifiers.ts"],
  },
  { part: "secret redaction (truncation markers, error excerpts)", modules: ["text/redact-secrets.ts"] },
  {
    part: "a response's usage and stop at the context window (the verdicts' mapping is `readProviderVerdicts`'s, passed in)",
    modules: ["dialects/provider-response.ts", "hook/request-length.ts"],
  },
  { part: "a provider's compaction placed where `summarize` returns one", modules: ["hook/place-replacement.ts"] },
  {
    part: "images and files counted as providers bill them",
    modules: ["dialects/media-parts.ts", "counting/media-tokens.ts"],
  },
  { part: "SHA-256 of the summary seal", modules: ["text/sha256.ts"] },
  { part: "the option checks and their messages", modules: ["ground/options.ts"], kept: true },
];

/**
 * `compactor` bundled from the source (esbuild reads the TypeScript) with the modules of `parts`
 * left out: each replaced by a module of the same exports that do nothing, so that every caller
 * still bundles and only the part's own code is gone.
 */
export async function compactorWithout(parts) {
  const modules = parts.flatMap((part) => part.modules);
  const leaveOut = {
    name: "leave-out",
    setup(builder) {
      builder.onLoad({ filter: /\/src\/.*\.ts$/ }, (args) => {
        if (!modules.some((module) => args.path.endsWith(`/src/${module}`))) return undefined;
        const names = [
          ...readFileSync(args.path, "utf8").matchAll(/export (?:async )?(?:function\*?|const|let|class) (\w+)/g),
        ].map((match) => match[1]);
        return { contents: names.map((name) => `export const ${name} = () => undefined;`).join("\n"), loader: "ts" };
      });
    },
  };
  const result = await build({
    stdin: { contents: `export { compactor } from "./src/index.ts";`, resolveDir: root, loader: "ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    external: frameworks,
    plugins: [leaveOut],
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0].contents;
  return { minified: code.length, gzip: gzipSync(code, { level: 9 }).length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = [];
  for (const entry of imports) {
    const { minified, gzip } = await measureImport(entry);
    const row = {
      import: entry.name,
      from: `context-compactor${entry.from === "index.js" ? "" : `/${entry.from.replace(/\.js$/, "")}`}`,
      minified,
      gzip,
    };
    if (entry.framework) {
      const peer = peers.find((p) => p.for === entry.name);
      row.addsToApp = await added(peer.base, peer.framework, entry.name, `./dist/${entry.from}`);
    }
    rows.push(row);
  }
  for (const peer of peers) {
    const adds = await added(peer.base, peer.framework, peer.name, peer.framework);
    rows.push({
      import: peer.name,
      from: peer.framework,
      peer: true,
      minified: adds.minified,
      gzip: adds.gzip,
      addsTo: `import { ${peer.base} } from "${peer.framework}"`,
    });
    const ours = rows.find((r) => r.import === peer.for);
    ours.peer = peer.name;
    ours.ratioToPeer = ours.addsToApp.gzip / adds.gzip;
  }
  console.log("| import | from | minified | gzip | ratio to the peer (gzip, added to an app) |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const r of rows) {
    const ratio = r.ratioToPeer === undefined ? "" : `${r.ratioToPeer.toFixed(1)}× \`${r.peer}\``;
    console.log(
      `| ${r.peer === true ? `peer: ${r.import}` : r.import} | ${r.from} | ${kb(r.minified)} KB | ${kb(r.gzip)} KB | ${ratio} |`,
    );
  }
  // What each part weighs in `compactor`, and what is left with every part out but the option checks.
  const whole = await compactorWithout([]);
  const parts = [];
  for (const part of compactorParts) {
    const without = await compactorWithout([part]);
    parts.push({
      part: part.part,
      modules: part.modules,
      kept: part.kept === true,
      minified: whole.minified - without.minified,
      gzip: whole.gzip - without.gzip,
    });
  }
  const floor = await compactorWithout(compactorParts.filter((part) => part.kept !== true));
  console.log(`\nWhat each part weighs in \`compactor\` (from the source, ${kb(whole.gzip)} KB gzipped whole):`);
  console.log("| part | minified | gzip |");
  console.log("| --- | --- | --- |");
  for (const p of parts) console.log(`| ${p.part} | ${kb(p.minified)} KB | ${kb(p.gzip)} KB |`);
  console.log(
    `| \`compactor\` with every part above out but the option checks | ${kb(floor.minified)} KB | ${kb(floor.gzip)} KB |`,
  );
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  // The peers are packages of the development tree (dev/package.json), the bundler the package's own.
  const devManifest = JSON.parse(readFileSync(new URL("../dev/package.json", import.meta.url), "utf8"));
  const versions = {
    esbuild: manifest.devDependencies.esbuild,
    ai: devManifest.devDependencies?.ai ?? devManifest.dependencies?.ai,
    langchain: devManifest.devDependencies?.langchain ?? devManifest.dependencies?.langchain,
  };
  writeFileSync(
    new URL("./size.json", import.meta.url),
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, versions, rows, compactorParts: { whole, parts, floor } }, null, 2)}\n`,
  );
  console.log("bench/size.json written");
}
