import { readFileSync } from "node:fs";
import { defineConfig } from "tsup";

const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };

// The two builds run side by side, so neither cleans `dist`: the build script does it first.
export default defineConfig([
  {
    entry: {
      index: "src/index.ts",
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
    },
    format: ["esm", "cjs"],
    // The declarations need no Node types: the root package.json leaves @types/node to the
    // development tree, so installing from git does not download it.
    dts: { compilerOptions: { types: [] } },
    target: "es2022",
  },
  {
    entry: { cli: "src/cli/main.ts" },
    format: ["esm"],
    target: "node20",
    platform: "node",
    define: { PACKAGE_VERSION: JSON.stringify(version) },
  },
]);
