// For the summarizeInPlace recipes: the requests a stub model received, and the check that each
// summary request starts with the request sent just before it.
import { expect } from "vitest";
import { findToolPairProblems } from "../../src/expert.js";

export type RequestBody = { system?: unknown; messages: { role: string; content: unknown }[]; tools?: unknown };

/** True for the summary request: its last message holds the instructions of `summarizeInPlace`. */
export const isSummaryRequest = (body: RequestBody): boolean =>
  JSON.stringify(body.messages.at(-1)?.content ?? "").includes("Stop here:");

/**
 * Checks every summary request among `requests`: the request before it is a main request, and the
 * messages both send are the same bytes once `normalize` has removed what may differ (a cache
 * breakpoint), with at least `minShared` of them, every tool pair whole. Returns the summary requests.
 */
export function expectSummariesRepeatTheirPrefix(
  requests: RequestBody[],
  { minShared = 2, normalize = (value: unknown) => value } = {},
): RequestBody[] {
  const summaries = requests.map((body, index) => ({ body, index })).filter(({ body }) => isSummaryRequest(body));
  expect(summaries.length).toBeGreaterThan(0);
  for (const { body, index } of summaries) {
    const previous = requests[index - 1]!;
    expect(isSummaryRequest(previous)).toBe(false);
    const sent = body.messages.slice(0, -1);
    const shared = Math.min(sent.length, previous.messages.length);
    expect(shared).toBeGreaterThanOrEqual(minShared);
    expect(JSON.stringify(normalize(sent.slice(0, shared)))).toBe(
      JSON.stringify(normalize(previous.messages.slice(0, shared))),
    );
    expect(JSON.stringify(body.tools)).toBe(JSON.stringify(previous.tools));
    expect(body.system).toEqual(previous.system);
    expect(findToolPairProblems(sent)).toEqual([]);
  }
  return summaries.map(({ body }) => body);
}
