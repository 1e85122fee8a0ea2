// The shared test builders write each format as the library reads it: the dialect is detected from
// their messages, every call they write is answered by the result written for its id, and a
// result written for another id leaves its call unanswered and is an orphan itself.
import { describe, expect, it } from "vitest";
import { detectDialect, findToolPairProblems } from "../src/expert.js";
import { renderTranscript } from "../src/summary-kit.js";
import { builders } from "./support/builders.js";
import { dialects } from "./support/transcripts.js";

function transcript(dialect: (typeof dialects)[number], resultId = "a"): object[] {
  const build = builders[dialect];
  return [
    ...("system" in build ? [build.system("Be brief.")] : []),
    build.user("Find A and B"),
    build.toolCall("a", "lookup", { q: "A" }, { text: "Looking." }),
    build.toolResult(resultId, "found A"),
    ...build.toolCalls([
      { id: "b", name: "lookup", input: { q: "B" } },
      { id: "c", name: "lookup" },
    ]),
    ...build.toolResults([
      { id: "b", output: "found B" },
      { id: "c", output: "found C" },
    ]),
    build.assistant("A and B are found."),
  ];
}

describe.each(dialects)("builders[%s]", (dialect) => {
  it("writes messages the library reads as this dialect", () => {
    expect(detectDialect(transcript(dialect))).toBe(dialect);
  });

  it("answers every call it writes, and the transcript renders its results", () => {
    const messages = transcript(dialect);
    expect(findToolPairProblems(messages)).toEqual([]);
    const text = renderTranscript(messages);
    for (const output of ["found A", "found B", "found C", "A and B are found."]) expect(text).toContain(output);
  });

  it("leaves the call unanswered and its result an orphan when the ids differ", () => {
    expect(findToolPairProblems(transcript(dialect, "z")).map((problem) => problem.kind)).toEqual([
      "missing-result",
      "orphan-result",
    ]);
  });
});
