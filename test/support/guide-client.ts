// The deployment guide's Redis client, set up as the guide's route prints it: its lines from
// `createClient` to `redisStore`, compiled as they are into a module that the test's workers
// import. A test that runs it measures the set-up the guide tells users to run.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { transform } from "esbuild";

const root = new URL("../..", import.meta.url).pathname;

/** The guide's client set-up, as written in its first TypeScript block. */
export function guideClientSetUp(): string {
  const page = readFileSync(join(root, "docs", "state-and-deployment.md"), "utf8");
  const lines = /```ts\n([\s\S]*?)```/.exec(page)![1]!.split("\n");
  const from = lines.findIndex((line) => line.includes("createClient("));
  const to = lines.findIndex((line) => line.includes("= redisStore("));
  if (from === -1 || to < from)
    throw new Error("The deployment guide's first block no longer sets up a client with createClient and redisStore");
  return lines.slice(from, to + 1).join("\n");
}

/**
 * Writes the guide's set-up as a module exporting `redis` (the client) and `store` (its
 * `redisStore`), under `.vitest/<name>/` so that it resolves the project's packages, and returns
 * its path. The client connects to `REDIS_URL`, as the guide's does.
 */
export async function guideClientModule(name: string): Promise<string> {
  const dir = join(root, ".vitest", name);
  mkdirSync(dir, { recursive: true });
  const source = [
    `import { createClient } from "redis";`,
    `import { redisStore } from ${JSON.stringify(pathToFileURL(join(root, "dist", "redis.js")).href)};`,
    guideClientSetUp(),
    "export { redis, store };",
    "",
  ].join("\n");
  const file = join(dir, "guide-client.mjs");
  writeFileSync(file, (await transform(source, { loader: "ts", format: "esm" })).code);
  return file;
}
