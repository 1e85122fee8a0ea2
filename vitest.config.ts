import { defineConfig } from "vitest/config";
import { endToEndSuites } from "./vitest.suites.js";

// `npm test`: unit, property, type and in-process integration tests. Nothing here starts a server,
// a browser or an install, and nothing asserts a wall-clock time, so the run is the same under load.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["**/node_modules/**", ...endToEndSuites],
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
    testTimeout: 30_000,
    // The JSON report lets .ci/run print a plain "N passed, N failed" line.
    reporters: ["default", ["json", { outputFile: ".vitest/report.json" }]],
  },
});
