// `npm run bench:real`: real agent sessions (`../shared/data/sessions`, else the trimmed copies in
// test/fixtures/sessions) replayed call by call through the library, as each agent would run it
// (OpenAI Codex's, on the Responses API, by bench/codex-replay.mjs: see the Codex part below):
// Claude Code's sessions through `compactor` (an agent loop: each request is the last one the hook
// returned plus what came since) and `statefulCompactor` (the whole history each call, the
// compaction kept in a store); pi's through both and through the pi adapter (`toTransformContext`).
// Windows: 100,000 and 50,000 tokens (200,000 × 0.5 and × 0.25), and the session's own compaction
// point (its smallest `preTokens`), with `extractiveSummary` as the summarizer, `format` pinned and
// the default summary role.
//
// The provider's truth for a request: what the session reported for it when it is the session's
// own request (input + cache writes + cache reads), else the o200k count of its messages plus the
// session's fixed part (the system prompt and tool definitions, which the log does not hold: the
// smallest reported input less the o200k count of the messages it covered). Each call passes the
// last request's truth as `usage`; `reserveTokens` is the fixed part, for the first call.
//
// On every request: the Anthropic Messages validator of test/support/provider-rules (pi's messages
// mapped to Anthropic as pi-ai sends them), signed blocks (thinking with a signature,
// redacted_thinking) that are not byte-identical to one of the session's, and requests over the
// window that the library said nothing of: neither its call's result (`overBudget`) nor the next
// call, from the provider's count of it (`events.onUsage`, "over-budget"). At each of the session's own compactions:
// the needed facts (identifiers of the history before that point that the agent writes after it,
// bench/facts.mjs) visible in the session's own summary, in the library's request for the call
// after it, and in the library's summary alone. Prints a table, writes bench/real.json.
import { existsSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { SUMMARY_PREFIX } from "../dist/expert.js";
import { compactor, estimateTokens, extractiveSummary, statefulCompactor } from "../dist/index.js";
import { toTransformContext } from "../dist/pi.js";
import { toCallModelInputFilter } from "../dist/openai-agents.js";
import { factsOf, visibleFacts, writtenFacts } from "./facts.mjs";
import { billedList, fixedPart, loadSessions, piToAnthropic, signedBlocks } from "./sessions.mjs";
import { calibrateCodex, codexReference, loadCodexSessions, modelledInput } from "./codex-sessions.mjs";
import { replayCodex, trueCause } from "./codex-replay.mjs";

const shared = fileURLToPath(new URL("../../shared/data/sessions", import.meta.url));
const source = existsSync(shared) ? shared : fileURLToPath(new URL("../test/fixtures/sessions", import.meta.url));
const only = process.env.BENCH_SESSIONS?.split(",");
const sessions = loadSessions(source).filter((s) => !only || only.some((name) => s.name.startsWith(name)));
const codexSessions = loadCodexSessions(source).filter((s) => !only || only.some((name) => s.name.startsWith(name)));

// The validators are TypeScript under test/: bundled here by esbuild (the build's own compiler), in memory.
const bundled = await build({
  entryPoints: [fileURLToPath(new URL("../test/support/provider-rules/index.ts", import.meta.url))],
  bundle: true,
  format: "esm",
  platform: "neutral",
  write: false,
  logLevel: "silent",
});
const { anthropicViolations, openaiResponsesViolations } = await import(
  `data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString("base64")}`
);

// --- Facts of Anthropic and pi messages ----------------------------------------------------------

const summaryText = (request) =>
  request
    .flatMap((m) =>
      typeof m.content === "string" ? [m.content] : Array.isArray(m.content) ? m.content.map((b) => b?.text ?? "") : [],
    )
    .filter((text) => text.startsWith(SUMMARY_PREFIX))
    .join("\n");

/**
 * Whether a text's facts show `fact`: as it is, or for an absolute path, as a path of at least two
 * of its last segments (a summary writes `cmd/entire/cli/config.go` for the agent's
 * `/Users/…/cmd/entire/cli/config.go`; the working directory is in the system prompt).
 */
function shows(set, fact) {
  if (set.has(fact)) return true;
  if (!fact.startsWith("/")) return false;
  const segments = fact.split("/").filter(Boolean);
  for (let start = 1; start <= segments.length - 2; start++) if (set.has(segments.slice(start).join("/"))) return true;
  return false;
}

/** Needed facts at a compaction point: facts of the history before it that the agent writes after it, up to the next point. */
function neededAt(session, index) {
  const point = session.compactions[index];
  const end = session.compactions[index + 1]?.at ?? session.stream.length;
  const before = visibleFacts(session.stream.slice(0, point.at));
  const needed = new Set();
  for (const message of session.stream.slice(point.at, end))
    for (const fact of writtenFacts(message)) if (before.has(fact)) needed.add(fact);
  return needed;
}

// --- One replay ---------------------------------------------------------------------------------

/**
 * A log that starts in the middle of its conversation: its first call reports far more than its
 * messages and a system prompt with tools (12,000–45,000 tokens in these sessions) can hold, so the
 * fixed part holds history the log lacks, and may alone exceed a window.
 */
const PARTIAL_LOG_FIXED = 60_000;
const isPartial = (session, fixed) => session.kind === "claude-code" && fixed > PARTIAL_LOG_FIXED;

const summarize = (older, context) =>
  extractiveSummary(older, {
    maxTokens: context.maxSummaryTokens,
    previousSummary: context.previousSummary,
    keptSummary: context.keptSummary,
  });

async function replay(session, kind, window, fixed) {
  const pi = session.kind === "pi";
  const format = pi ? "pi-agent" : "anthropic";
  const row = {
    session: session.name,
    partial: isPartial(session, fixed),
    kind,
    window,
    requests: 0,
    changed: 0,
    violations: 0,
    signedBlocks: 0,
    signedChanged: 0,
    overWindow: 0,
    overReported: 0,
    overReportedNext: 0,
    overNotReported: 0,
    worstOver: 0,
    errors: 0,
    examples: [],
    points: [],
  };
  const signed = new Set(signedBlocks(session.stream).map((b) => JSON.stringify(b)));
  let said; // what the events said about the call in flight
  const events = {
    warnOverBudget: false,
    onCompacted: (event) => {
      said = { overBudget: event.overBudget, cause: event.overBudgetCause };
    },
    onSkipped: (event) => {
      said = { overBudget: event.overBudget === true, cause: event.overBudgetCause };
    },
    // The provider's count of the last request said it went out over budget: said on the next call.
    onUsage: (event) => {
      if (event.kind === "over-budget") saidLate = true;
    },
  };
  let saidLate = false;
  let lastUnreported = false; // the last request was over the window and its own call did not say so
  const options = { maxTokens: window, format, reserveTokens: Math.min(fixed, window - 1), summarize, events };
  const hook = kind === "hook" ? compactor(options) : undefined;
  const stateful = kind === "stateful" ? statefulCompactor(options) : undefined;
  // The pi adapter reads usage from the assistant messages, so pi's replies carry the truth of the library's requests.
  const transform =
    kind === "adapter"
      ? toTransformContext({
          maxTokens: window,
          reserveTokens: Math.min(fixed, window - 1),
          summarize,
          events,
          conversationId: `${session.name}/${window}`,
        })
      : undefined;
  const firstOwn = session.compactions[0]?.firstCall ?? session.calls.length;
  const history = []; // the whole history, as the agent holds it
  let working = []; // the agent loop's transcript: the last request and what came since
  let taken = 0;
  let previous; // { truth, count } of the last request
  let untouched = true;
  const stamped = new Map(); // pi replies carrying the usage of the library's request that produced them
  for (let k = 0; k < session.calls.length; k++) {
    const call = session.calls[k];
    const arriving = session.stream.slice(taken, call.at).map((m, i) => stamped.get(taken + i) ?? m);
    taken = call.at;
    history.push(...arriving);
    working = working.concat(arriving);
    said = undefined;
    saidLate = false;
    let input;
    let result;
    try {
      if (hook) {
        input = working;
        result = await hook({
          messages: input,
          ...(previous ? { usage: { inputTokens: previous.truth, messageCount: previous.count } } : {}),
        });
      } else if (stateful) {
        input = history.slice();
        result = await stateful(input, {
          conversationId: `${session.name}/${window}`,
          ...(previous ? { usage: { inputTokens: previous.truth, messageCount: previous.count } } : {}),
        });
      } else {
        input = history.slice();
        const messages = await transform(input);
        result =
          messages === input
            ? null
            : { messages, ...(said?.overBudget ? { overBudget: true, overBudgetCause: said.cause } : {}) };
      }
    } catch (error) {
      row.errors++;
      if (row.examples.length < 5)
        row.examples.push(`call ${k}: ${error?.code ?? ""} ${String(error?.message ?? error).slice(0, 200)}`);
      result = null;
    }
    // A request over the window that its own call let through is said by the next call, from the provider's usage.
    if (lastUnreported && saidLate) {
      row.overNotReported--;
      row.overReportedNext++;
    }
    lastUnreported = false;
    const request = result?.messages ?? input;
    if (result && request !== input) row.changed++;
    untouched = untouched && result === null && k < firstOwn;
    const truth = untouched && call.usage.total > 0 ? call.usage.total : fixed + billedList(request);
    row.requests++;

    const violations = anthropicViolations({ messages: pi ? piToAnthropic(request) : request });
    row.violations += violations.length;
    if (violations.length > 0 && row.examples.length < 5)
      row.examples.push(`call ${k}: [${violations[0].rule}] ${violations[0].detail.slice(0, 200)}`);
    for (const block of signedBlocks(request)) {
      row.signedBlocks++;
      if (!signed.has(JSON.stringify(block))) row.signedChanged++;
    }
    if (truth > window) {
      row.overWindow++;
      row.worstOver = Math.max(row.worstOver, truth);
      if (result?.overBudget) row.overReported++;
      else {
        row.overNotReported++;
        lastUnreported = true;
      }
    }

    // The session's own compaction points: the first call after each.
    const point = session.compactions.findIndex((c) => c.firstCall === k);
    if (point !== -1) {
      const needed = neededAt(session, point);
      const own = new Set(factsOf(session.compactions[point].summary));
      const shown = visibleFacts(request);
      const summary = new Set(factsOf(summaryText(request)));
      const count = (set) => [...needed].filter((fact) => shows(set, fact)).length;
      // The library's summary alone, where its request holds one (it may not have compacted by then).
      row.points.push({
        call: k,
        preTokens: session.compactions[point].preTokens,
        needed: needed.size,
        ownSummary: count(own),
        request: count(shown),
        librarySummary: summary.size > 0 ? count(summary) : null,
      });
    }

    // pi's reply carries the usage of the request just sent (the log's, while that request was the log's own).
    const reply = session.stream[call.at];
    if (pi && !untouched && reply?.role === "assistant")
      stamped.set(call.at, { ...reply, usage: { ...reply.usage, input: truth, cacheRead: 0, cacheWrite: 0 } });
    working = request;
    previous = { truth, count: hook ? request.length : input.length };
  }
  return row;
}

// --- Run ----------------------------------------------------------------------------------------

const started = Date.now();
const loadStart = loadavg()[0];
const rows = [];
const sessionsOut = [];
for (const session of sessions) {
  const fixed = fixedPart(session);
  const ownPoints = session.compactions.map((c) => c.preTokens).filter((t) => typeof t === "number" && t > 0);
  const windows = [100_000, 50_000, ...(ownPoints.length > 0 ? [Math.min(...ownPoints)] : [])];
  const kinds = session.kind === "pi" ? ["hook", "stateful", "adapter"] : ["hook", "stateful"];
  // How the provider's own count of the session's requests compares with o200k plus the fixed part, on the requests it sent as logged.
  const own = session.calls
    .slice(0, session.compactions[0]?.firstCall ?? session.calls.length)
    .filter((c) => c.usage.total > 0 && c.messages);
  const reportedOverO200k =
    own.length > 0
      ? own.reduce((s, c) => s + c.usage.total, 0) / own.reduce((s, c) => s + fixed + billedList(c.messages), 0)
      : null;
  sessionsOut.push({
    name: session.name,
    reportedOverO200k,
    kind: session.kind,
    calls: session.calls.length,
    fixed,
    partial: isPartial(session, fixed),
    ownCompactions: session.compactions.length,
    reader: session.counts,
  });
  const begun = Date.now();
  for (const window of windows) for (const kind of kinds) rows.push(await replay(session, kind, window, fixed));
  process.stderr.write(
    `${session.name}: ${session.calls.length} calls × ${windows.length * kinds.length} replays, ${((Date.now() - begun) / 1000).toFixed(1)} s\n`,
  );
}

// --- Codex (Responses API) ----------------------------------------------------------------------
// Each session replayed from its whole history (Codex's compactions left out) through the plain
// hook (with and without usage), `statefulCompactor` with usage and the OpenAI Agents filter (which
// takes none), at 100,000 and 50,000 tokens and at Codex's own compaction point (the report of the
// last call before its first compaction); the sessions Codex compacted also from what Codex sent
// (its compaction item in the input) through the hook and `statefulCompactor` with usage at 50,000. Then the
// hook joined at the session's peak: given the request after the largest report, with that report
// as `usage` (as when the hook is added to a running agent, or its budget lowered), and without.
const codexRows = [];
const codexSessionsOut = [];
const codexJoined = [];
for (const session of codexSessions) {
  const { fixed, reportedOverModel } = calibrateCodex(session);
  const lib = {
    compactor,
    statefulCompactor,
    toCallModelInputFilter,
    summarize: summarize,
    SUMMARY_PREFIX,
    responsesViolations: openaiResponsesViolations,
    reference: codexReference(session),
  };
  const own = session.compactions[0]?.preTokens;
  const windows = [100_000, 50_000, ...(own ? [own] : [])];
  const plans = [];
  // The OpenAI Agents filter with usage reads it from the run's context, as the runner keeps it
  // (one `requestUsageEntries` entry per response); without, as a filter given no `runContext`.
  for (const window of windows)
    plans.push(
      { entry: "hook", window, input: "stream", usage: true },
      { entry: "hook", window, input: "stream", usage: false },
      { entry: "stateful", window, input: "stream", usage: true },
      { entry: "agents", window, input: "stream", usage: true },
      { entry: "agents", window, input: "stream", usage: false },
    );
  if (session.compactions.length > 0)
    for (const entry of ["hook", "stateful"]) plans.push({ entry, window: 50_000, input: "sent", usage: true });
  codexSessionsOut.push({
    name: session.name,
    calls: session.calls.length,
    items: session.stream.length,
    fixed,
    reportedOverModel,
    peak: Math.max(...session.calls.map((c) => c.usage.total)),
    ownCompactions: session.compactions.map((c) => ({
      firstCall: c.firstCall,
      preTokens: c.preTokens,
      kept: c.kept.length,
      compactionItem: c.kept.some((k) => k.type === "compaction"),
    })),
    reader: session.counts,
  });
  const begun = Date.now();
  for (const plan of plans)
    codexRows.push(await replayCodex(lib, session, { ...plan, fixed, reported: source === shared }));
  // Joined at the peak.
  // The largest report whose request the next call's extends (not the last before one of Codex's compactions).
  const extended = (k) =>
    session.calls[k + 1]?.messages[session.calls[k].messages.length - 1] === session.calls[k].messages.at(-1) &&
    session.calls[k + 1].messages.length > session.calls[k].messages.length;
  const peak = session.calls.reduce(
    (best, call, k) => (extended(k) && call.usage.total > (session.calls[best]?.usage.total ?? -1) ? k : best),
    -1,
  );
  const next = session.calls[peak + 1];
  if (peak !== -1 && next) {
    for (const window of [100_000, 50_000, 25_000]) {
      for (const usage of [true, false]) {
        let said;
        const hook = compactor({
          maxTokens: window,
          format: "openai-responses",
          reserveTokens: Math.min(fixed, window - 1),
          summarize: summarize,
          events: { warnOverBudget: false, onCompacted: (e) => void (said = e), onSkipped: (e) => void (said = e) },
        });
        const input = next.messages;
        const result = await hook({
          messages: input,
          ...(usage
            ? {
                usage: {
                  inputTokens: session.calls[peak].usage.total,
                  messageCount: session.calls[peak].messages.length,
                },
              }
            : {}),
        });
        const request = result?.messages ?? input;
        const provider = fixed + modelledInput(session, request);
        const summarized = request.some((m) => typeof m.content === "string" && m.content.startsWith(SUMMARY_PREFIX));
        codexJoined.push({
          session: session.name,
          call: peak + 1,
          report: session.calls[peak].usage.total,
          estimateOfReported: estimateTokens(session.calls[peak].messages),
          window,
          usage,
          provider,
          overWindow: provider > window,
          overBudget: result?.overBudget === true,
          cause: result?.overBudgetCause ?? null,
          trueCause: provider > window ? trueCause(session, request, fixed, window) : null,
          summary: summarized,
          strategy: said?.strategy ?? null,
          tokensAfter: said?.tokensAfter ?? null,
          items: `${input.length} → ${request.length}`,
        });
      }
    }
  }
  process.stderr.write(
    `${session.name}: ${session.calls.length} calls × ${plans.length} replays, ${((Date.now() - begun) / 1000).toFixed(1)} s\n`,
  );
}
const seconds = (Date.now() - started) / 1000;

const share = (part, whole) => (whole === 0 ? "-" : `${((100 * part) / whole).toFixed(1)}%`);
const windowName = (row) =>
  row.window === 100_000 ? "100k" : row.window === 50_000 ? "50k" : `own ${Math.round(row.window / 1000)}k`;
const header = [
  "session",
  "entry",
  "window",
  "requests",
  "changed",
  "violations",
  "signed",
  "changed",
  "over",
  "unreported",
  "needed",
  "own sum.",
  "lib req.",
  "lib sum.",
];
const line = (cells) => cells.map((cell, i) => String(cell).padStart(i < 2 ? 0 : 8)).join("  ");
const total = (list) => {
  const sum = (key) => list.reduce((s, r) => s + r[key], 0);
  const points = list.flatMap((r) => r.points);
  const p = (key) => points.reduce((s, x) => s + (x[key] ?? 0), 0);
  const summarized = points.filter((x) => x.librarySummary !== null);
  return {
    requests: sum("requests"),
    changed: sum("changed"),
    violations: sum("violations"),
    signedBlocks: sum("signedBlocks"),
    signedChanged: sum("signedChanged"),
    overWindow: sum("overWindow"),
    overNotReported: sum("overNotReported"),
    overReportedNext: sum("overReportedNext"),
    overNotReportedPartial: list.filter((r) => r.partial).reduce((s, r) => s + r.overNotReported, 0),
    errors: sum("errors"),
    points: points.length,
    needed: p("needed"),
    ownSummary: p("ownSummary"),
    request: p("request"),
    librarySummary: p("librarySummary"),
    summarizedNeeded: summarized.reduce((s, x) => s + x.needed, 0),
  };
};
console.log(
  `Real sessions from ${source}: ${sessions.length} Claude Code and pi sessions and ${codexSessions.length} Codex sessions, ${(rows.reduce((s, r) => s + r.requests, 0) + codexRows.reduce((s, r) => s + r.requests, 0)).toLocaleString("en-US")} requests checked in ${seconds.toFixed(0)} s (load average ${loadStart.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end, ${cpus().length} cores)\n`,
);
console.log(line(header));
for (const row of rows) {
  const t = total([row]);
  console.log(
    line([
      `${row.session}${row.partial ? "*" : ""}`.padEnd(20),
      row.kind.padEnd(8),
      windowName(row),
      t.requests,
      t.changed,
      t.violations,
      t.signedBlocks,
      t.signedChanged,
      t.overWindow,
      t.overNotReported,
      t.needed || "",
      t.points ? share(t.ownSummary, t.needed) : "",
      t.points ? share(t.request, t.needed) : "",
      t.summarizedNeeded ? share(t.librarySummary, t.summarizedNeeded) : "",
    ]),
  );
}
const totals = {};
for (const kind of ["hook", "stateful", "adapter"]) {
  for (const name of ["100k", "50k", "own"]) {
    const list = rows.filter((r) => r.kind === kind && windowName(r).startsWith(name));
    if (list.length > 0) totals[`${kind} ${name}`] = total(list);
  }
}
totals.all = total(rows);
console.log("");
for (const [name, t] of Object.entries(totals)) {
  console.log(
    line([
      `total ${name}`.padEnd(29),
      "",
      t.requests,
      t.changed,
      t.violations,
      t.signedBlocks,
      t.signedChanged,
      t.overWindow,
      t.overNotReported,
      t.needed || "",
      t.points ? share(t.ownSummary, t.needed) : "",
      t.points ? share(t.request, t.needed) : "",
      t.summarizedNeeded ? share(t.librarySummary, t.summarizedNeeded) : "",
    ]),
  );
}
console.log(
  `\nOver the window: ${totals.all.overWindow} requests; said by their own call ${totals.all.overWindow - totals.all.overNotReported - totals.all.overReportedNext}, by the next call from the provider's usage ${totals.all.overReportedNext}, never ${totals.all.overNotReported}.`,
);
console.log(
  `\n* a partial log (its fixed part, ${PARTIAL_LOG_FIXED.toLocaleString("en-US")}+ tokens, holds history the log lacks): ${totals.all.overNotReportedPartial} of the ${totals.all.overNotReported} unreported requests over the window are theirs.`,
);
const failures = rows.filter((r) => r.examples.length > 0).slice(0, 8);
if (failures.length > 0)
  console.log(
    `\nFirst problems:\n${failures.map((r) => `  ${r.session} ${r.kind} ${windowName(r)}: ${r.examples.join(" | ")}`).join("\n")}`,
  );

// --- Codex's table ---
const codexWindowName = (row) =>
  row.window === 100_000 ? "100k" : row.window === 50_000 ? "50k" : `own ${Math.round(row.window / 1000)}k`;
const codexHeader = [
  "session",
  "entry",
  "input",
  "usage",
  "window",
  "requests",
  "changed",
  "violations",
  "opaque",
  "changed",
  "over",
  "unsaid",
  "cause ✗",
  "needed",
  "Codex kept",
  "lib req.",
  "lib sum.",
];
const codexLine = (cells) => cells.map((cell, i) => String(cell).padStart(i < 4 ? 0 : 8)).join("  ");
const codexTotal = (list) => {
  const t = total(list);
  const sum = (key) => list.reduce((s, r) => s + r[key], 0);
  return {
    ...t,
    opaqueItems: sum("opaqueItems"),
    opaqueChanged: sum("opaqueChanged"),
    falseCause: sum("falseCause"),
    overReported: sum("overReported"),
  };
};
const codexCells = (t) => [
  t.requests,
  t.changed,
  t.violations,
  t.opaqueItems,
  t.opaqueChanged,
  t.overWindow,
  t.overNotReported,
  t.falseCause,
  t.needed || "",
  t.points ? share(t.ownSummary, t.needed) : "",
  t.points ? share(t.request, t.needed) : "",
  t.summarizedNeeded ? share(t.librarySummary, t.summarizedNeeded) : "",
];
const codexTotals = {};
if (codexRows.length > 0) {
  console.log(
    `\nCodex sessions (Responses API): ${codexSessions.length} sessions, ${codexRows.reduce((s, r) => s + r.requests, 0)} requests checked. "opaque": reasoning and compaction items in the requests (changed: not byte-identical to one the session sent); "unsaid": over the window and said by neither its call nor the next; "cause ✗": said overBudget with a cause the provider's count does not bear out; "Codex kept": needed facts in what Codex's compaction kept readable (its compaction item is encrypted).\n`,
  );
  console.log(codexLine(codexHeader));
  for (const row of codexRows)
    console.log(
      codexLine([
        row.session.padEnd(16),
        row.kind.padEnd(8),
        row.input.padEnd(6),
        (row.usage ? "yes" : "no").padEnd(5),
        codexWindowName(row),
        ...codexCells(codexTotal([row])),
      ]),
    );
  for (const input of ["stream", "sent"])
    for (const kind of ["hook", "stateful", "agents"])
      for (const usage of [true, false]) {
        const list = codexRows.filter((r) => r.input === input && r.kind === kind && r.usage === usage);
        if (list.length > 0) codexTotals[`${kind} ${input} ${usage ? "usage" : "estimate"}`] = codexTotal(list);
      }
  codexTotals.usage = codexTotal(codexRows.filter((r) => r.usage));
  codexTotals.estimate = codexTotal(codexRows.filter((r) => !r.usage));
  codexTotals.all = codexTotal(codexRows);
  console.log("");
  for (const [name, t] of Object.entries(codexTotals))
    console.log(codexLine([`total ${name}`.padEnd(41), "", "", "", "", ...codexCells(t)]));
  const a = codexTotals.all;
  console.log(
    `\nCodex, over the window: ${a.overWindow} requests; said by their own call ${a.overReported} (${a.falseCause} with a cause the provider's count does not bear out), by the next call from the provider's usage ${a.overReportedNext}, never ${a.overNotReported} (with usage ${codexTotals.usage.overNotReported}, on the estimate alone ${codexTotals.estimate.overNotReported}).`,
  );
  const causes = {};
  for (const row of codexRows)
    for (const [cause, n] of Object.entries(row.causes)) causes[cause] = (causes[cause] ?? 0) + n;
  if (Object.keys(causes).length > 0)
    console.log(
      `Causes said: ${Object.entries(causes)
        .map(([c, n]) => `${c} ${n}`)
        .join(", ")}.`,
    );
  const codexFailures = codexRows.filter((r) => r.examples.length > 0 || r.falseCause > 0).slice(0, 8);
  if (codexFailures.length > 0)
    console.log(
      `\nFirst problems:\n${codexFailures.map((r) => `  ${r.session} ${r.kind} ${r.input} ${r.usage ? "usage" : "estimate"} ${codexWindowName(r)}: ${[...r.examples, ...r.overExamples.filter((x) => x.expected).map((x) => JSON.stringify(x))].join(" | ")}`).join("\n")}`,
    );
  console.log(
    `\nCodex's fixed part (instructions and tools) and the report over the modelled count of its own requests: ${codexSessionsOut.map((s) => `${s.name} ${s.fixed.toLocaleString("en-US")}, ×${s.reportedOverModel.mean.toFixed(3)} (${s.reportedOverModel.min.toFixed(2)}–${s.reportedOverModel.max.toFixed(2)})`).join("; ")}.`,
  );
  if (codexJoined.length > 0) {
    console.log(
      `\nThe hook joined at each Codex session's peak (the request after its largest report; usage: that report), provider's count of what it sends:\n`,
    );
    console.log(
      codexLine(
        [
          "session",
          "call",
          "report",
          "estimate",
          "window",
          "usage",
          "sent",
          "over",
          "said",
          "cause",
          "true cause",
          "summary",
          "items",
        ].map((c, i) => (i < 4 ? String(c).padEnd(i === 0 ? 16 : 8) : c)),
      ),
    );
    for (const j of codexJoined)
      console.log(
        codexLine([
          j.session.padEnd(16),
          String(j.call).padEnd(8),
          String(j.report).padEnd(8),
          String(j.estimateOfReported).padEnd(8),
          j.window,
          j.usage ? "yes" : "no",
          j.provider,
          j.overWindow ? "over" : "-",
          j.overBudget ? "overBudget" : "-",
          j.cause ?? "-",
          j.trueCause ?? "-",
          j.summary ? "yes" : "no",
          j.items,
        ]),
      );
  }
}

writeFileSync(
  new URL("./real.json", import.meta.url),
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      source: existsSync(shared) ? "../shared/data/sessions" : "test/fixtures/sessions",
      seconds,
      loadAverage: { start: loadStart, end: loadavg()[0], cores: cpus().length },
      sessions: sessionsOut,
      totals,
      rows,
      codex: { sessions: codexSessionsOut, totals: codexTotals, rows: codexRows, joined: codexJoined },
    },
    null,
    2,
  )}\n`,
);
