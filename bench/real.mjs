// `npm run bench:real`: real agent sessions (`../shared/data/sessions`, else the trimmed copies in
// test/fixtures/sessions) replayed call by call through the library, as each agent would run it:
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
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { SUMMARY_PREFIX } from "../dist/expert.js";
import { compactor, extractiveSummary, statefulCompactor } from "../dist/index.js";
import { toTransformContext } from "../dist/pi.js";
import { factsOf, messageFacts, visibleFacts, writtenFacts } from "./facts.mjs";
import { billedList, fixedPart, loadSessions, piToAnthropic, signedBlocks } from "./sessions.mjs";

const shared = fileURLToPath(new URL("../../shared/data/sessions", import.meta.url));
const source = existsSync(shared) ? shared : fileURLToPath(new URL("../test/fixtures/sessions", import.meta.url));
const only = process.env.BENCH_SESSIONS?.split(",");
const sessions = loadSessions(source).filter((s) => !only || only.some((name) => s.name.startsWith(name)));

// The validators are TypeScript under test/: bundled here by esbuild (the build's own compiler), in memory.
const bundled = await build({ entryPoints: [fileURLToPath(new URL("../test/support/provider-rules/index.ts", import.meta.url))], bundle: true, format: "esm", platform: "neutral", write: false, logLevel: "silent" });
const { anthropicViolations } = await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString("base64")}`);

// --- Facts of Anthropic and pi messages ----------------------------------------------------------

const summaryText = (request) =>
  request
    .flatMap((m) => (typeof m.content === "string" ? [m.content] : Array.isArray(m.content) ? m.content.map((b) => b?.text ?? "") : []))
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
  for (const message of session.stream.slice(point.at, end)) for (const fact of writtenFacts(message)) if (before.has(fact)) needed.add(fact);
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

const summarize = (older, context) => extractiveSummary(older, { maxTokens: context.maxSummaryTokens, previousSummary: context.previousSummary, keptSummary: context.keptSummary });

async function replay(session, kind, window, fixed) {
  const pi = session.kind === "pi";
  const format = pi ? "pi-agent" : "anthropic";
  const row = { session: session.name, partial: isPartial(session, fixed), kind, window, requests: 0, changed: 0, violations: 0, signedBlocks: 0, signedChanged: 0, overWindow: 0, overReported: 0, overReportedNext: 0, overNotReported: 0, worstOver: 0, errors: 0, examples: [], points: [] };
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
  const transform = kind === "adapter" ? toTransformContext({ maxTokens: window, reserveTokens: Math.min(fixed, window - 1), summarize, events, conversationId: `${session.name}/${window}` }) : undefined;
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
        result = await hook({ messages: input, ...(previous ? { usage: { inputTokens: previous.truth, messageCount: previous.count } } : {}) });
      } else if (stateful) {
        input = history.slice();
        result = await stateful(input, { conversationId: `${session.name}/${window}`, ...(previous ? { usage: { inputTokens: previous.truth, messageCount: previous.count } } : {}) });
      } else {
        input = history.slice();
        const messages = await transform(input);
        result = messages === input ? null : { messages, ...(said?.overBudget ? { overBudget: true, overBudgetCause: said.cause } : {}) };
      }
    } catch (error) {
      row.errors++;
      if (row.examples.length < 5) row.examples.push(`call ${k}: ${error?.code ?? ""} ${String(error?.message ?? error).slice(0, 200)}`);
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
    if (violations.length > 0 && row.examples.length < 5) row.examples.push(`call ${k}: [${violations[0].rule}] ${violations[0].detail.slice(0, 200)}`);
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
      row.points.push({ call: k, preTokens: session.compactions[point].preTokens, needed: needed.size, ownSummary: count(own), request: count(shown), librarySummary: summary.size > 0 ? count(summary) : null });
    }

    // pi's reply carries the usage of the request just sent (the log's, while that request was the log's own).
    const reply = session.stream[call.at];
    if (pi && !untouched && reply?.role === "assistant") stamped.set(call.at, { ...reply, usage: { ...reply.usage, input: truth, cacheRead: 0, cacheWrite: 0 } });
    working = request;
    previous = { truth, count: hook ? request.length : input.length };
  }
  return row;
}

// --- Run ----------------------------------------------------------------------------------------

const started = Date.now();
const rows = [];
const sessionsOut = [];
for (const session of sessions) {
  const fixed = fixedPart(session);
  const ownPoints = session.compactions.map((c) => c.preTokens).filter((t) => typeof t === "number" && t > 0);
  const windows = [100_000, 50_000, ...(ownPoints.length > 0 ? [Math.min(...ownPoints)] : [])];
  const kinds = session.kind === "pi" ? ["hook", "stateful", "adapter"] : ["hook", "stateful"];
  // How the provider's own count of the session's requests compares with o200k plus the fixed part, on the requests it sent as logged.
  const own = session.calls.slice(0, session.compactions[0]?.firstCall ?? session.calls.length).filter((c) => c.usage.total > 0 && c.messages);
  const reportedOverO200k = own.length > 0 ? own.reduce((s, c) => s + c.usage.total, 0) / own.reduce((s, c) => s + fixed + billedList(c.messages), 0) : null;
  sessionsOut.push({ name: session.name, reportedOverO200k, kind: session.kind, calls: session.calls.length, fixed, partial: isPartial(session, fixed), ownCompactions: session.compactions.length, reader: session.counts });
  const begun = Date.now();
  for (const window of windows) for (const kind of kinds) rows.push(await replay(session, kind, window, fixed));
  process.stderr.write(`${session.name}: ${session.calls.length} calls × ${windows.length * kinds.length} replays, ${((Date.now() - begun) / 1000).toFixed(1)} s\n`);
}
const seconds = (Date.now() - started) / 1000;

const share = (part, whole) => (whole === 0 ? "-" : `${((100 * part) / whole).toFixed(1)}%`);
const windowName = (row) => (row.window === 100_000 ? "100k" : row.window === 50_000 ? "50k" : `own ${Math.round(row.window / 1000)}k`);
const header = ["session", "entry", "window", "requests", "changed", "violations", "signed", "changed", "over", "unreported", "needed", "own sum.", "lib req.", "lib sum."];
const line = (cells) => cells.map((cell, i) => String(cell).padStart(i < 2 ? 0 : 8)).join("  ");
const total = (list) => {
  const sum = (key) => list.reduce((s, r) => s + r[key], 0);
  const points = list.flatMap((r) => r.points);
  const p = (key) => points.reduce((s, x) => s + (x[key] ?? 0), 0);
  const summarized = points.filter((x) => x.librarySummary !== null);
  return { requests: sum("requests"), changed: sum("changed"), violations: sum("violations"), signedBlocks: sum("signedBlocks"), signedChanged: sum("signedChanged"), overWindow: sum("overWindow"), overNotReported: sum("overNotReported"), overReportedNext: sum("overReportedNext"), overNotReportedPartial: list.filter((r) => r.partial).reduce((s, r) => s + r.overNotReported, 0), errors: sum("errors"), points: points.length, needed: p("needed"), ownSummary: p("ownSummary"), request: p("request"), librarySummary: p("librarySummary"), summarizedNeeded: summarized.reduce((s, x) => s + x.needed, 0) };
};
console.log(`Real sessions from ${source}: ${sessions.length} sessions, ${rows.reduce((s, r) => s + r.requests, 0)} requests checked in ${seconds.toFixed(0)} s\n`);
console.log(line(header));
for (const row of rows) {
  const t = total([row]);
  console.log(line([`${row.session}${row.partial ? "*" : ""}`.padEnd(20), row.kind.padEnd(8), windowName(row), t.requests, t.changed, t.violations, t.signedBlocks, t.signedChanged, t.overWindow, t.overNotReported, t.needed || "", t.points ? share(t.ownSummary, t.needed) : "", t.points ? share(t.request, t.needed) : "", t.summarizedNeeded ? share(t.librarySummary, t.summarizedNeeded) : ""]));
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
  console.log(line([`total ${name}`.padEnd(29), "", t.requests, t.changed, t.violations, t.signedBlocks, t.signedChanged, t.overWindow, t.overNotReported, t.needed || "", t.points ? share(t.ownSummary, t.needed) : "", t.points ? share(t.request, t.needed) : "", t.summarizedNeeded ? share(t.librarySummary, t.summarizedNeeded) : ""]));
}
console.log(`\nOver the window: ${totals.all.overWindow} requests; said by their own call ${totals.all.overWindow - totals.all.overNotReported - totals.all.overReportedNext}, by the next call from the provider's usage ${totals.all.overReportedNext}, never ${totals.all.overNotReported}.`);
console.log(`\n* a partial log (its fixed part, ${PARTIAL_LOG_FIXED.toLocaleString("en-US")}+ tokens, holds history the log lacks): ${totals.all.overNotReportedPartial} of the ${totals.all.overNotReported} unreported requests over the window are theirs.`);
const failures = rows.filter((r) => r.examples.length > 0).slice(0, 8);
if (failures.length > 0) console.log(`\nFirst problems:\n${failures.map((r) => `  ${r.session} ${r.kind} ${windowName(r)}: ${r.examples.join(" | ")}`).join("\n")}`);

writeFileSync(new URL("./real.json", import.meta.url), JSON.stringify({ date: new Date().toISOString(), source: existsSync(shared) ? "../shared/data/sessions" : "test/fixtures/sessions", seconds, sessions: sessionsOut, totals, rows }, null, 2) + "\n");
