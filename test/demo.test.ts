// The README's main command works from the repository alone: real transcripts, stub model, no network.
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { describe, expect, it } from "vitest";

describe("the demo", () => {
  // One run, read by both tests: the demo is deterministic (its summarizer and its model are stubs).
  let run: SpawnSyncReturns<string> | undefined;
  const demo = () =>
    (run ??= spawnSync(
      process.execPath,
      [new URL("../examples/demo.mjs", import.meta.url).pathname, "--max-tokens", "6000"],
      { encoding: "utf8", timeout: 60_000 },
    ));

  it("replays the shift, compacts, and reports no broken request", () => {
    const result = demo();
    expect(result.status, result.stderr).toBe(0);
    const chart = result.stdout.split("\n").filter((line) => line.startsWith("turn "));
    expect(chart.length).toBeGreaterThanOrEqual(10);
    expect(result.stdout).toMatch(/compactions: [1-9]\d*/);
    expect(result.stdout).toContain("↳ compacted");
    expect(result.stdout).toContain("requests with a broken tool pair: 0; system prompt first in every request: yes");
  });

  it("shows one summary and the compacted request it went out in, and says why a turn has no row", () => {
    const result = demo();
    expect(result.status, result.stderr).toBe(0);
    const lines = result.stdout.split("\n");
    // Every turn is accounted for: a row, or a line saying why there is none.
    const turns = lines.filter((line) => line.startsWith("turn ")).map((line) => Number(/^turn +(\d+)/.exec(line)![1]));
    expect(turns).toEqual(turns.map((_, index) => index + turns[0]!));
    const missing = lines.filter((line) => line.includes("(no row: no request was sent, "));
    expect(missing.length).toBeGreaterThan(0);
    expect(result.stdout).toMatch(
      /The first summary, as the model received it at turn \d+:\n {2}│ \[Summary of earlier conversation\]\n {2}│ Earlier in this shift \(\d+ messages summarized\):/,
    );
    const request = /The request it went out in: (\d+) messages, ([\d,]+) tokens \(budget 6,000\)\n((?: .*\n)+)/.exec(
      result.stdout,
    )!;
    expect(Number(request[2]!.replace(/,/g, ""))).toBeLessThanOrEqual(6_000);
    const rows = request[3]!.trimEnd().split("\n");
    expect(rows[0]).toMatch(/^ +0 {2}system +text +[\d,]+ tokens$/);
    expect(rows[1]).toMatch(/^ +1 {2}system +summary +[\d,]+ tokens$/);
    expect(rows.length).toBeLessThanOrEqual(14);
  });
});
