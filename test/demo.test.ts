// The README's main command works from the repository alone: real transcripts, stub model, no network.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

describe("the demo", () => {
  it("replays the shift, compacts, and reports no broken request", () => {
    const result = spawnSync(process.execPath, [new URL("../examples/demo.mjs", import.meta.url).pathname, "--max-tokens", "6000"], { encoding: "utf8", timeout: 60_000 });
    expect(result.status, result.stderr).toBe(0);
    const chart = result.stdout.split("\n").filter((line) => line.startsWith("turn "));
    expect(chart.length).toBeGreaterThanOrEqual(10);
    expect(result.stdout).toMatch(/compactions: [1-9]\d*/);
    expect(result.stdout).toContain("↳ compacted");
    expect(result.stdout).toContain("requests with a broken tool pair: 0; system prompt first in every request: yes");
  });
});
