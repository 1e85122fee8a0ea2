import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
    testTimeout: 30_000,
    // The JSON report lets .ci/run print a plain "N passed, N failed" line.
    reporters: ["default", ["json", { outputFile: ".vitest/report.json" }]],
  },
});
