// Real agent sessions (trimmed copies in test/fixtures/sessions: two Claude Code sessions, each
// with one of Claude Code's own compactions and signed thinking, and a pi session with one of pi's)
// replayed call by call through the hook, as `npm run bench:real` replays the full sessions.
//
// The copies' long tool results are cut, so the usage they logged is that of the full requests:
// here the provider's count of a request is the session's fixed part (its system prompt and tools,
// which the log does not hold) plus the o200k count of the messages, and each call passes the last
// request's count as `usage`, as an agent passes what its provider reported.
import { describe, expect, it, test } from "vitest";
import { compactor, extractiveSummary, statefulCompactor, type AnyMessage, type CompactionResult, type Summarize } from "../src/index.js";
import { toTransformContext } from "../src/adapters/pi.js";
import { billedList, fixedPart, loadSessions, piToAnthropic, signedBlocks } from "../bench/sessions.mjs";
import { anthropicViolations } from "./support/provider-rules/index.js";

const sessions = loadSessions(new URL("./fixtures/sessions", import.meta.url).pathname);

const summarize: Summarize = (older, context) => extractiveSummary(older, { maxTokens: context.maxSummaryTokens, previousSummary: context.previousSummary, keptSummary: context.keptSummary });

interface Replayed {
  requests: number;
  changed: number;
  violations: string[];
  signedChecked: number;
  signedChanged: number;
  /** Requests over the window, by the provider's count, that the library did not report `overBudget`. */
  overNotReported: string[];
}

type Session = ReturnType<typeof loadSessions>[number];
type Entry = "hook" | "stateful" | "pi adapter";

async function replay(session: Session, entry: Entry, window: number, fixed: number): Promise<Replayed> {
  const pi = session.kind === "pi";
  const out: Replayed = { requests: 0, changed: 0, violations: [], signedChecked: 0, signedChanged: 0, overNotReported: [] };
  const signed = new Set(signedBlocks(session.stream).map((block: unknown) => JSON.stringify(block)));
  let overBudgetSaid = false;
  const events = {
    warnOverBudget: false,
    onCompacted: (event: { overBudget: boolean }) => void (overBudgetSaid = event.overBudget),
    onSkipped: (event: { overBudget?: boolean }) => void (overBudgetSaid = event.overBudget === true),
    // The provider's count of the last request put it over budget: said on the next call (§34).
    onUsage: (event: { kind: string }) => void (event.kind === "over-budget" && (saidLate = true)),
  };
  let saidLate = false;
  let unsaid: string | undefined;
  const options = { maxTokens: window, reserveTokens: fixed, summarize, events, format: pi ? ("pi-agent" as const) : ("anthropic" as const) };
  const hook = compactor(options);
  const stateful = statefulCompactor(options);
  const transform = toTransformContext({ maxTokens: window, reserveTokens: fixed, summarize, events });
  const history: AnyMessage[] = [];
  let working: AnyMessage[] = [];
  let taken = 0;
  let previous: { inputTokens: number; messageCount: number } | undefined;
  const stamped = new Map<number, AnyMessage>();
  for (const [k, call] of session.calls.entries()) {
    const arriving = session.stream.slice(taken, call.at).map((m: AnyMessage, i: number) => stamped.get(taken + i) ?? m);
    taken = call.at;
    history.push(...arriving);
    working = working.concat(arriving);
    overBudgetSaid = false;
    let input: AnyMessage[];
    let result: CompactionResult<AnyMessage> | null;
    if (entry === "hook") {
      input = working;
      result = await hook({ messages: input, ...(previous ? { usage: previous } : {}) });
    } else if (entry === "stateful") {
      input = history.slice();
      result = await stateful(input, { conversationId: `${session.name}/${window}`, ...(previous ? { usage: previous } : {}) });
    } else {
      input = history.slice();
      const messages = await transform(input);
      result = messages === input ? null : { messages, ...(overBudgetSaid ? { overBudget: true as const } : {}) };
    }
    // A request over the window its own call let through is said by this call, from the provider's usage of it.
    if (unsaid !== undefined && !saidLate) out.overNotReported.push(unsaid);
    unsaid = undefined;
    saidLate = false;
    const request = result?.messages ?? input;
    out.requests++;
    if (request !== input) out.changed++;
    for (const v of anthropicViolations({ messages: pi ? piToAnthropic(request) : request })) out.violations.push(`call ${k}: [${v.rule}] ${v.detail}`);
    for (const block of signedBlocks(request)) {
      out.signedChecked++;
      if (!signed.has(JSON.stringify(block))) out.signedChanged++;
    }
    const truth = fixed + billedList(request);
    if (truth > window && result?.overBudget !== true) unsaid = `call ${k}: ${truth} > ${window}`;
    // pi's reply carries the usage of the request that produced it; the adapter reads it from there.
    const reply = session.stream[call.at] as { role?: string; usage?: object } | undefined;
    if (pi && reply?.role === "assistant") stamped.set(call.at, { ...reply, usage: { ...reply.usage, input: truth, cacheRead: 0, cacheWrite: 0 } } as AnyMessage);
    working = request;
    previous = { inputTokens: truth, messageCount: entry === "hook" ? request.length : input.length };
  }
  // The last request has no next call to say it.
  if (unsaid !== undefined) out.overNotReported.push(unsaid);
  return out;
}

/** The session's entries, and windows at which it compacts several times: its fixed part plus a half and a quarter of its messages at their largest. */
function plans(session: Session) {
  const fixed = fixedPart(session);
  const peak = Math.max(...session.calls.map((call: { at: number }) => billedList(session.stream.slice(0, call.at))));
  // pi's adapter is `statefulCompactor` with pi's usage: it stands for the stateful path there.
  const entries: Entry[] = session.kind === "pi" ? ["hook", "pi adapter"] : ["hook", "stateful"];
  return entries.flatMap((entry) => [0.5, 0.25].map((share) => ({ entry, share, window: fixed + Math.floor(peak * share), fixed })));
}

const cases = sessions.flatMap((session: Session) => plans(session).map((plan) => [`${session.name}, ${plan.entry} at ${plan.share}`, session, plan] as const));

// Each replay runs once; both describes read its result.
const runs = new Map<string, Promise<Replayed>>();
const replayed = (name: string, session: Session, plan: ReturnType<typeof plans>[number]) => {
  let run = runs.get(name);
  if (!run) runs.set(name, (run = replay(session, plan.entry, plan.window, plan.fixed)));
  return run;
};

describe("real sessions, replayed call by call", () => {
  it("the copies hold what the replay is for: an own compaction and signed thinking", () => {
    expect(sessions.map((s: Session) => s.kind).sort()).toEqual(["claude-code", "claude-code", "pi"]);
    for (const session of sessions) {
      expect(session.compactions.length, session.name).toBeGreaterThan(0);
      expect(session.compactions[0].summary.length, session.name).toBeGreaterThan(1000);
      expect(signedBlocks(session.stream).length, session.name).toBeGreaterThan(0);
      // Every request the session itself sent passes the validator: a violation below is the library's.
      for (const call of session.calls) {
        const messages = session.kind === "pi" ? piToAnthropic(session.stream.slice(0, call.at)) : call.messages;
        expect(anthropicViolations({ messages })).toEqual([]);
      }
    }
  });

  it.each(cases)("%s: every request passes the Anthropic Messages checks and keeps signed blocks byte-identical", async (name, session, plan) => {
    const run = await replayed(name, session, plan);
    expect(run.changed).toBeGreaterThan(0);
    expect(run.signedChecked).toBeGreaterThan(0);
    expect(run.violations.slice(0, 5)).toEqual([]);
    expect(run.signedChanged).toBe(0);
  });
});

// What a request over the window must be: said. Usage counts what travels beside the messages
// (the system prompt and tools the log does not hold) as a fixed part of every request, and a
// request the provider's count puts over the window is reported \`overBudget\` by its own call, or,
// when the estimate of what arrived since the last report let it through, by the next call from
// the provider's count of it (\`events.onUsage\` "over-budget"), as SPEC §34 and \`bench:real\` count it.
describe("real sessions: requests over the window", () => {
  test("no request over the window, in any of these replays, is reported as fitting", async () => {
    const unreported: string[] = [];
    for (const [name, session, plan] of cases) for (const over of (await replayed(name, session, plan)).overNotReported) unreported.push(`${name}, ${over}`);
    expect(unreported.slice(0, 5)).toEqual([]);
  });
});
