import { defineConfig } from "vitest/config";
import { endToEndSuites } from "./vitest.suites.js";

// `npm run test:e2e`: the suites that start redis-server, Chromium, forked processes or npm installs.
// One file at a time: each of them is heavy, and a second one beside it would only slow both.
export default defineConfig({
  test: {
    include: endToEndSuites,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // Its own report, which .ci/run adds to the unit report's counts.
    reporters: ["default", ["json", { outputFile: ".vitest/e2e-report.json" }]],
  },
});
