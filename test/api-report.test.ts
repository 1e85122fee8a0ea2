// The public surface is a reviewed artifact (SPEC §39): the report of each entry in etc/, made from
// the built declarations, must be what the declarations say now. A change to an export fails here
// until `npm run api:report` writes the reports again, and the diff of etc/ shows it for review.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { reports } from "../dev/api-report.mjs";

describe("the API report", () => {
  const made = reports() as Record<string, string>;

  it.each(Object.keys(made))("etc/%s.api.md is the surface the built declarations export", (name) => {
    const checkedIn = readFileSync(new URL(`../etc/${name}.api.md`, import.meta.url), "utf8");
    expect(made[name], "run `npm run api:report` and review the change to etc/").toBe(checkedIn);
  });

  it("the root export names what a typical user needs, and no more", () => {
    const values = [...made["index"]!.matchAll(/^\/\/ (\w+)\n(?:function|const|class) /gm)].map((match) => match[1]);
    expect(values.sort()).toEqual([
      "CompactionError",
      "compact",
      "compactor",
      "estimateTokens",
      "extractiveSummary",
      "isCompactionError",
      "memoryStore",
      "statefulCompactor",
      "summarizeWith",
    ]);
  });
});
