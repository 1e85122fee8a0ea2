// The README's code is the code in examples/recipes (which the typecheck compiles), and it documents every export.
import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as core from "../src/index.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const recipes = new URL("../examples/recipes/", import.meta.url);

describe("README", () => {
  it.each(readdirSync(recipes))("shows examples/recipes/%s verbatim", (file) => {
    expect(readme).toContain(readFileSync(new URL(file, recipes), "utf8").trimEnd());
  });

  it("has an entry for every export", () => {
    for (const name of [...Object.keys(core), "toPrepareStep", "toCallModelInputFilter", "overflowRecovery", "withOverflowRecovery", "compactionMiddleware", "redisStore"]) expect(readme, name).toContain(`\`${name}`);
  });

  it("gives a newcomer the two commands", () => {
    expect(readme).toContain("npm run demo");
    expect(readme).toContain("npm test");
  });
});
