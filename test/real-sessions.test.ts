// Real agent sessions (trimmed copies in test/fixtures/sessions: two Claude Code sessions, each
// with one of Claude Code's own compactions and signed thinking, and a pi session with one of pi's)
// replayed call by call through the hook, as `npm run bench:real` replays the full sessions.
//
// The copies' long tool results are cut, so the usage they logged is that of the full requests:
// here the provider's count of a request is the session's fixed part (its system prompt and tools,
// which the log does not hold) plus the o200k count of the messages, and each call passes the last
// request's count as `usage`, as an agent passes what its provider reported.
import { describe, expect, it, test } from "vitest";
import { SUMMARY_PREFIX } from "../src/expert.js";
import {
  compactor,
  extractiveSummary,
  statefulCompactor,
  type AnyMessage,
  type CompactionResult,
  type Summarize,
} from "../src/index.js";
import { toTransformContext } from "../src/adapters/pi.js";
import { toCallModelInputFilter } from "../src/adapters/openai-agents.js";
import { billedList, fixedPart, loadSessions, piToAnthropic, signedBlocks } from "../bench/sessions.mjs";
import {
  calibrateCodex,
  ciphertextChars,
  codexReference,
  codexViolations,
  loadCodexSessions,
  modelledInput,
} from "../bench/codex-sessions.mjs";
import { replayCodex } from "../bench/codex-replay.mjs";
import { anthropicViolations, openaiResponsesViolations } from "./support/provider-rules/index.js";

type CodexRow = Awaited<ReturnType<typeof replayCodex>>;

const sessions = loadSessions(new URL("./fixtures/sessions", import.meta.url).pathname);

const summarize: Summarize = (older, context) =>
  extractiveSummary(older, {
    maxTokens: context.maxSummaryTokens,
    previousSummary: context.previousSummary,
    keptSummary: context.keptSummary,
  });

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
  const out: Replayed = {
    requests: 0,
    changed: 0,
    violations: [],
    signedChecked: 0,
    signedChanged: 0,
    overNotReported: [],
  };
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
  const options = {
    maxTokens: window,
    reserveTokens: fixed,
    summarize,
    events,
    format: pi ? ("pi-agent" as const) : ("anthropic" as const),
  };
  const hook = compactor(options);
  const stateful = statefulCompactor(options);
  const transform = toTransformContext({ maxTokens: window, reserveTokens: fixed, summarize, events });
  const history: AnyMessage[] = [];
  let working: AnyMessage[] = [];
  let taken = 0;
  let previous: { inputTokens: number; messageCount: number } | undefined;
  const stamped = new Map<number, AnyMessage>();
  for (const [k, call] of session.calls.entries()) {
    const arriving = session.stream
      .slice(taken, call.at)
      .map((m: AnyMessage, i: number) => stamped.get(taken + i) ?? m);
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
      result = await stateful(input, {
        conversationId: `${session.name}/${window}`,
        ...(previous ? { usage: previous } : {}),
      });
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
    for (const v of anthropicViolations({ messages: pi ? piToAnthropic(request) : request }))
      out.violations.push(`call ${k}: [${v.rule}] ${v.detail}`);
    for (const block of signedBlocks(request)) {
      out.signedChecked++;
      if (!signed.has(JSON.stringify(block))) out.signedChanged++;
    }
    const truth = fixed + billedList(request);
    if (truth > window && result?.overBudget !== true) unsaid = `call ${k}: ${truth} > ${window}`;
    // pi's reply carries the usage of the request that produced it; the adapter reads it from there.
    const reply = session.stream[call.at] as { role?: string; usage?: object } | undefined;
    if (pi && reply?.role === "assistant")
      stamped.set(call.at, {
        ...reply,
        usage: { ...reply.usage, input: truth, cacheRead: 0, cacheWrite: 0 },
      } as AnyMessage);
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
  return entries.flatMap((entry) =>
    [0.5, 0.25].map((share) => ({ entry, share, window: fixed + Math.floor(peak * share), fixed })),
  );
}

const cases = sessions.flatMap((session: Session) =>
  plans(session).map((plan) => [`${session.name}, ${plan.entry} at ${plan.share}`, session, plan] as const),
);

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

  it.each(cases)(
    "%s: every request passes the Anthropic Messages checks and keeps signed blocks byte-identical",
    async (name, session, plan) => {
      const run = await replayed(name, session, plan);
      expect(run.changed).toBeGreaterThan(0);
      expect(run.signedChecked).toBeGreaterThan(0);
      expect(run.violations.slice(0, 5)).toEqual([]);
      expect(run.signedChanged).toBe(0);
    },
  );
});

// What a request over the window must be: said. Usage counts what travels beside the messages
// (the system prompt and tools the log does not hold) as a fixed part of every request, and a
// request the provider's count puts over the window is reported \`overBudget\` by its own call, or,
// when the estimate of what arrived since the last report let it through, by the next call from
// the provider's count of it (\`events.onUsage\` "over-budget"), as SPEC §34 and \`bench:real\` count it.
describe("real sessions: requests over the window", () => {
  test("no request over the window, in any of these replays, is reported as fitting", async () => {
    const unreported: string[] = [];
    for (const [name, session, plan] of cases)
      for (const over of (await replayed(name, session, plan)).overNotReported) unreported.push(`${name}, ${over}`);
    expect(unreported.slice(0, 5)).toEqual([]);
  });
});

// Real OpenAI Codex sessions on the Responses API (trimmed copies in test/fixtures/sessions/codex:
// one with two of Codex's own compactions, each leaving an encrypted `compaction` item, and one with
// web searches, tool search and reasoning items without ids), replayed as `npm run bench:real`
// replays the full sessions, by the same code (bench/codex-replay.mjs) run on the source. Every
// request passes the Responses checks (test/support/provider-rules and the Codex checks of
// bench/codex-sessions.mjs), every reasoning and compaction item is one Codex sent, byte for byte,
// in its place, and with usage no request over the window goes unsaid.
describe("real Codex sessions (Responses API), replayed call by call", () => {
  const codex = loadCodexSessions(new URL("./fixtures/sessions", import.meta.url).pathname);
  type CodexSession = (typeof codex)[number];
  const calibrated = new Map(codex.map((session: CodexSession) => [session, calibrateCodex(session).fixed]));
  const lib = (session: CodexSession) => ({
    compactor,
    statefulCompactor,
    toCallModelInputFilter,
    summarize,
    SUMMARY_PREFIX,
    responsesViolations: openaiResponsesViolations,
    reference: codexReference(session),
  });
  // Windows at which the copy compacts several times: its fixed part plus a half and a quarter of its largest request.
  const codexPlans = (session: CodexSession) => {
    const fixed = calibrated.get(session) as number;
    const peak = Math.max(
      ...session.calls.map((call: { messages: object[] }) => modelledInput(session, call.messages)),
    );
    const at = (share: number) => fixed + Math.floor(peak * share);
    const plans = [
      { entry: "hook", input: "stream", usage: true, share: 0.5, window: at(0.5) },
      { entry: "hook", input: "stream", usage: true, share: 0.25, window: at(0.25) },
      { entry: "stateful", input: "stream", usage: true, share: 0.25, window: at(0.25) },
      // The OpenAI Agents filter is `statefulCompactor` behind `modelData`, with usage read from the
      // run's context: on the copy without Codex's compactions; on the other, `statefulCompactor`
      // from what Codex sent, its compaction items in it.
      session.compactions.length === 0
        ? { entry: "agents", input: "stream", usage: true, share: 0.25, window: at(0.25) }
        : { entry: "stateful", input: "sent", usage: true, share: 0.25, window: at(0.25) },
    ];
    return plans.map((plan) => ({ ...plan, fixed, reported: false }));
  };
  const codexCases = codex.flatMap((session: CodexSession) =>
    codexPlans(session).map(
      (plan) =>
        [
          `${session.name}, ${plan.entry} from ${plan.input} at ${plan.share}${plan.usage ? " with usage" : ""}`,
          session,
          plan,
        ] as const,
    ),
  );
  const codexRuns = new Map<string, Promise<CodexRow>>();
  const codexReplayed = (name: string, session: CodexSession, plan: (typeof codexCases)[number][2]) => {
    let run = codexRuns.get(name);
    if (!run) codexRuns.set(name, (run = replayCodex(lib(session), session, plan)));
    return run;
  };

  it("the copies hold what the replay is for: Codex's compactions with their items, reasoning, custom tool calls, hosted tools", () => {
    expect(codex.map((s: CodexSession) => s.name)).toEqual(["a5-7b22d8d4bd-0", "f4-771ece9d37-0"]);
    const [searches, compacted] = codex as [CodexSession, CodexSession];
    expect(compacted.compactions.length).toBe(2);
    for (const compaction of compacted.compactions)
      expect(compaction.kept.filter((item: { type?: string }) => item.type === "compaction")).toHaveLength(1);
    expect(searches.stream.some((item: { type?: string }) => item.type === "web_search_call")).toBe(true);
    expect(searches.stream.some((item: { type?: string }) => item.type === "tool_search_call")).toBe(true);
    for (const session of codex) {
      expect(
        session.stream.filter((item: { type?: string }) => item.type === "reasoning").length,
        session.name,
      ).toBeGreaterThan(20);
      expect(
        session.stream.some((item: { type?: string }) => item.type === "custom_tool_call"),
        session.name,
      ).toBe(true);
      // Every request Codex itself sent passes the checks: a violation below is the library's.
      const reference = codexReference(session);
      for (const call of session.calls)
        expect([
          ...openaiResponsesViolations({ messages: call.messages }),
          ...codexViolations(call.messages, reference),
        ]).toEqual([]);
    }
  });

  it("every redacted ciphertext is rebuilt as the API's is shaped, as long as the reasoning its response reported", () => {
    for (const session of codex) {
      const opaque = [
        ...session.stream,
        ...session.compactions.flatMap((compaction: { kept: object[] }) => compaction.kept),
      ].filter((item: { type?: string }) => item.type === "reasoning" || item.type === "compaction");
      const texts = opaque.map((item: { encrypted_content?: unknown }) => item.encrypted_content as string);
      // A Fernet token: base64url with its padding of version 0x80 and an 8-byte time (gAAAAAB…), 57 bytes and whole AES blocks.
      for (const text of texts) {
        expect(text, session.name).toMatch(/^gAAAAAB[\w-]+=*$/);
        expect((Buffer.from(text, "base64url").length - 57) % 16, session.name).toBe(0);
      }
      // Each item is its own (the logs without ids wrote all of theirs alike, "REDACTED").
      expect(new Set(texts).size, session.name).toBe(texts.length);
      expect(session.counts.encryptedRebuilt, session.name).toBe(texts.length + session.counts.orphanReasoning);
      // A reasoning item is as long as a real ciphertext of its share of the reasoning its response reported, to one AES block.
      let checked = 0;
      session.calls.forEach((call: { at: number; usage: { total: number; reasoning: number } }, k: number) => {
        const wrote = session.stream
          .slice(call.at, session.calls[k + 1]?.at ?? session.stream.length)
          .filter((item: { type?: string }) => item.type === "reasoning");
        if (call.usage.total === 0 || wrote.length === 0) return;
        for (const item of wrote as Array<{ encrypted_content: string }>) {
          const expected = ciphertextChars(Math.round(call.usage.reasoning / wrote.length));
          expect(Math.abs(item.encrypted_content.length - expected), `${session.name} call ${k}`).toBeLessThanOrEqual(
            24,
          );
          checked++;
        }
      });
      expect(checked, session.name).toBeGreaterThan(20);
    }
  });

  it("the checks catch what they are for: an edited or moved opaque item, an unanswered apply_patch", () => {
    const session = codex[1] as CodexSession;
    const reference = codexReference(session);
    const request = (session.calls[120] as { messages: Array<Record<string, unknown>> }).messages;
    const reasoning = request.findIndex((item) => item.type === "reasoning");
    const compaction = request.findIndex((item) => item.type === "compaction");
    const rules = (messages: object[]) => codexViolations(messages, reference).map((v: { rule: string }) => v.rule);
    expect(
      rules(request.map((item, i) => (i === reasoning ? { ...item, encrypted_content: "edited" } : item))),
    ).toContain("codex/opaque-unchanged");
    expect(
      rules([
        ...request.slice(0, reasoning),
        ...request.slice(reasoning + 1, reasoning + 2),
        request[reasoning],
        ...request.slice(reasoning + 2),
      ] as object[]),
    ).toContain("codex/reasoning-in-place");
    expect(
      rules([
        ...request.slice(0, compaction),
        request[compaction + 1],
        request[compaction],
        ...request.slice(compaction + 2),
      ] as object[]),
    ).toContain("codex/compaction-in-place");
    const patch = session.stream.findIndex((item: { type?: string }) => item.type === "custom_tool_call");
    expect(rules(session.stream.slice(0, patch + 1))).toContain("codex/custom-call-has-output");
  });

  it.each(codexCases)(
    "%s: every request passes the Responses checks, opaque items byte-identical and in place",
    async (name, session, plan) => {
      const run = await codexReplayed(name, session, plan);
      expect(run.errors, run.examples.join("\n")).toBe(0);
      expect(run.changed).toBeGreaterThan(0);
      expect(run.opaqueItems).toBeGreaterThan(0);
      expect(run.examples.slice(0, 5)).toEqual([]);
      expect(run.violations).toBe(0);
      expect(run.opaqueChanged).toBe(0);
    },
  );

  test("with usage, no request over the window goes unsaid", async () => {
    const unsaid: string[] = [];
    for (const [name, session, plan] of codexCases)
      if (plan.usage)
        for (const over of (await codexReplayed(name, session, plan)).overExamples as Array<{ said: string }>)
          if (over.said === "nothing") unsaid.push(`${name}, ${JSON.stringify(over)}`);
    expect(unsaid).toEqual([]);
  });
});
