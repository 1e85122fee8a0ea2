import { defineConfig } from "vitest/config";
import { endToEndSuites } from "./vitest.suites.js";

// `npm test`: unit, property and in-process integration tests. Nothing here starts a server,
// a browser or an install, and nothing asserts a wall-clock time, so the run is the same under load.
/** The library's once-per-process warnings (src/hook/over-budget-warning.ts). */
const onceWarnings = [
  "context-compactor: a request of ",
  "context-compactor: the provider counted ",
  "context-compactor: `usage` not counted by",
];

/**
 * The integration tests that set a process-wide default a framework keeps once used: the OpenAI
 * client and API of @openai/agents (its provider keeps the first client it was given), and
 * OpenTelemetry's global tracer provider and context manager (registered once per process; Genkit
 * registers its own when it starts).
 */
const ownProcess = [
  "test/integration/context-overflow-errors.test.ts",
  "test/integration/openai-agents.test.ts",
  "test/integration/state-across-requests.test.ts",
  "test/integration/otel.test.ts",
];

export default defineConfig({
  test: {
    exclude: ["**/node_modules/**", ...endToEndSuites],
    // vitest's default is one worker per core but one; on two cores that runs every file in turn,
    // though many of them wait on child processes, stub servers and timers as much as on the CPU.
    maxWorkers: 2,
    // A guard against a hang, not a measure: the slowest test (a million messages) takes about 3 s
    // on an idle machine and 25 s on a loaded one, and a pattern that backtracks takes minutes.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Each source file as transformed for the tests is kept on disk (in node_modules, so a new
    // install of the tree drops it) and read back by the next run while the file is unchanged.
    experimental: { fsModuleCache: true },
    projects: [
      {
        extends: true,
        // The library's own tests share their workers' module cache: loading the sources and the
        // framework packages once per worker instead of once per file halves this project's time.
        // They keep no state between files (fake timers are restored after each test).
        test: { name: "unit", include: ["test/*.test.ts"], isolate: false },
      },
      {
        extends: true,
        // The real frameworks, loaded once per worker as the unit tests load the sources: a file
        // that sets an environment variable or registers a provider puts it back in its afterAll.
        test: { name: "integration", include: ["test/integration/**/*.test.ts"], exclude: ownProcess, isolate: false },
      },
      {
        extends: true,
        // Each of these in a process of its own: they set a default that a framework keeps for the
        // whole process once it has used it, which no file can put back.
        test: { name: "integration-isolated", include: ownProcess },
      },
      {
        extends: true,
        // The type tests (expectTypeOf) fail the compile itself, so `npm run typecheck` (tsc over
        // tsconfig.json, which includes test/) checks them, and `npm run test:unit` leaves this
        // project out rather than run the same compiler again. `npx vitest run --project types`
        // runs them as tests.
        test: {
          name: "types",
          include: [],
          typecheck: { enabled: true, only: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
        },
      },
    ],
    // Many tests run a hook at a budget nothing fits, or with a stub's token usage, on purpose; the
    // library then says, once per process, that a request is still over budget, that the provider
    // counted one over it, or that a usage report cannot be counted by. Said in whichever test of a
    // worker comes first, each is noise in the gate's output: test/events.test.ts and
    // test/usage-reports.test.ts check the warnings themselves, with a spy.
    onConsoleLog: (log, type) => !(type === "stderr" && onceWarnings.some((start) => log.startsWith(start))),
    // The JSON report lets `npm test` and .ci/run print a plain "N passed, N failed" line.
    reporters: ["default", ["json", { outputFile: ".vitest/report.json" }]],
  },
});
