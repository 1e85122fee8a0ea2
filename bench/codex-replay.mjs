// One Codex session replayed call by call through the library, as an agent on the Responses API
// would run it. Shared by `bench/real.mjs` (the built package, the full sessions) and
// test/real-sessions.test.ts (the source, the trimmed copies): `lib` is the library to run.
//
// Two inputs:
// - "stream": the whole history with Codex's own compactions left out, as Claude Code's sessions
//   are replayed: the plain hook gets the agent loop's transcript (the last request it returned
//   plus what came since), `statefulCompactor` and the OpenAI Agents filter the whole history.
// - "sent": what Codex itself sent, its compactions applied (the replacement history, with its
//   encrypted `compaction` item, then what came after): the library compacting further a transcript
//   the provider already compacted (SPEC §28: the item is the summary in force, never cut or moved).
//
// The provider's count of a request: the session's report when the request is the session's own,
// else the fixed part plus the modelled input (bench/codex-sessions.mjs: visible o200k tokens,
// the hidden tokens of the current turn's reasoning and of compaction items). With `usage`, each
// call passes the last request's count as `usage` (`inputTokens` with `messageCount`), as an agent
// passes what its provider reported; `reserveTokens` is the fixed part. The OpenAI Agents filter
// (`toCallModelInputFilter`) gets Codex's base instructions as `modelData.instructions`; it takes
// no usage.
import { codexViolations, factView, isOpaqueItem, keptFacts, modelledInput } from "./codex-sessions.mjs";
import { factsOf, visibleFacts, writtenFacts } from "./facts.mjs";

/** The request's head: its leading developer and system messages, as the library keeps them. */
const headOf = (request) => {
  let end = 0;
  while (
    end < request.length &&
    (request[end]?.type ?? "message") === "message" &&
    (request[end].role === "developer" || request[end].role === "system")
  )
    end++;
  return request.slice(0, end);
};
const latestUser = (request) => {
  for (let i = request.length - 1; i >= 0; i--)
    if ((request[i]?.type ?? "message") === "message" && request[i].role === "user") return request[i];
  return undefined;
};

/**
 * The cause a request over the window has, by the provider's count (`OverBudgetCause`'s words):
 * what travels apart and the head alone exceed the window ("system-prompt"); with the latest user
 * message they do ("latest-user-message"); else what was kept ("kept-messages").
 */
export function trueCause(session, request, fixed, window) {
  const head = fixed + modelledInput(session, headOf(request));
  if (head > window) return "system-prompt";
  const user = latestUser(request);
  if (user && head + modelledInput(session, [user]) > window) return "latest-user-message";
  return "kept-messages";
}

/** Whether a set of facts shows `fact`, or for an absolute path, its last two segments or more (bench/real.mjs's rule). */
function shows(set, fact) {
  if (set.has(fact)) return true;
  if (!fact.startsWith("path:/")) return false;
  const segments = fact.slice(5).split("/").filter(Boolean);
  for (let start = 1; start <= segments.length - 2; start++)
    if (set.has(`path:${segments.slice(start).join("/")}`)) return true;
  return false;
}

/** Needed facts at Codex's compaction `index`: facts of the history before it that the agent writes after it, up to the next one. */
export function neededAtCodex(session, index) {
  const point = session.compactions[index];
  const end = session.compactions[index + 1]?.at ?? session.stream.length;
  const before = visibleFacts(session.stream.slice(0, point.at).map(factView));
  const needed = new Set();
  for (const item of session.stream.slice(point.at, end))
    for (const fact of writtenFacts(factView(item))) if (before.has(fact)) needed.add(fact);
  return needed;
}

/**
 * Replays `session` (calibrated: `fixed`, `hidden`) through `plan.entry` ("hook", "stateful",
 * "agents") at `plan.window`, from `plan.input` ("stream" or "sent"), with or without `plan.usage`;
 * `plan.reported: false` counts every request by the model, the session's own too (a trimmed copy's
 * reports are those of the full requests).
 * `lib`: `{ compactor, statefulCompactor, toCallModelInputFilter, summarize, SUMMARY_PREFIX,
 * responsesViolations, reference }` (`reference` is `codexReference(session)`).
 */
export async function replayCodex(lib, session, plan) {
  const { entry, window, fixed, input: from, usage, reported = true } = plan;
  const row = {
    session: session.name,
    kind: entry,
    input: from,
    usage,
    window,
    requests: 0,
    changed: 0,
    violations: 0,
    opaqueItems: 0,
    opaqueChanged: 0,
    overWindow: 0,
    overReported: 0,
    overReportedNext: 0,
    overNotReported: 0,
    falseCause: 0,
    causes: {},
    worstOver: 0,
    errors: 0,
    examples: [],
    overExamples: [],
    points: [],
  };
  let said;
  let saidLate = false;
  const events = {
    warnOverBudget: false,
    onCompacted: (event) =>
      void (said = {
        overBudget: event.overBudget,
        cause: event.overBudgetCause,
        tokensAfter: event.tokensAfter,
        strategy: event.strategy,
      }),
    onSkipped: (event) =>
      void (said = {
        overBudget: event.overBudget === true,
        cause: event.overBudgetCause,
        tokensAfter: event.tokensBefore,
        strategy: "skipped",
      }),
    // The provider's count of the last request put it over budget: said on this call (SPEC §34).
    onUsage: (event) => void (event.kind === "over-budget" && (saidLate = true)),
  };
  const conversationId = `${session.name}/${from}/${window}/${usage ? "usage" : "estimate"}`;
  const options = {
    maxTokens: window,
    format: "openai-responses",
    reserveTokens: Math.min(fixed, window - 1),
    summarize: lib.summarize,
    events,
  };
  const hook = entry === "hook" ? lib.compactor(options) : undefined;
  const stateful = entry === "stateful" ? lib.statefulCompactor(options) : undefined;
  // The run's context as `@openai/agents` keeps it: the runner adds each response's usage.
  const runContext = { usage: { requestUsageEntries: [] } };
  const filter =
    entry === "agents"
      ? lib.toCallModelInputFilter({ ...options, conversationId, ...(usage ? { runContext: () => runContext } : {}) })
      : undefined;
  let history = [];
  let working = [];
  let taken = 0;
  let previous;
  let lastUnreported = false; // the last request went over the window unsaid (its example, when one was kept)
  for (let k = 0; k < session.calls.length; k++) {
    const call = session.calls[k];
    let arriving;
    if (from === "stream") {
      arriving = session.stream.slice(taken, call.at);
      taken = call.at;
      history = history.concat(arriving);
    } else {
      const prior = session.calls[k - 1]?.messages;
      // Codex compacted since the last call: the agent's history is its replacement from here on.
      const replaced =
        prior === undefined ||
        call.messages.length < prior.length ||
        call.messages[prior.length - 1] !== prior[prior.length - 1];
      arriving = replaced ? call.messages : call.messages.slice(prior.length);
      // The last report describes a request this one no longer starts with: it is not passed.
      if (replaced && k > 0) {
        working = [];
        previous = undefined;
      }
      history = call.messages;
    }
    working = working.concat(arriving);
    said = undefined;
    saidLate = false;
    const report = previous && usage ? { usage: { inputTokens: previous.truth, messageCount: previous.count } } : {};
    let given;
    let result;
    try {
      if (hook) {
        given = working;
        result = await hook({ messages: given, ...report });
      } else if (stateful) {
        given = history.slice();
        result = await stateful(given, { conversationId, ...report });
      } else {
        given = history.slice();
        const data = await filter({ modelData: { input: given, instructions: session.instructions } });
        result =
          data.input === given
            ? null
            : { messages: data.input, ...(said?.overBudget ? { overBudget: true, overBudgetCause: said.cause } : {}) };
      }
    } catch (error) {
      row.errors++;
      if (row.examples.length < 5)
        row.examples.push(`call ${k}: ${error?.code ?? ""} ${String(error?.message ?? error).slice(0, 200)}`);
      result = null;
    }
    if (lastUnreported && saidLate) {
      row.overNotReported--;
      row.overReportedNext++;
      if (lastUnreported !== true) lastUnreported.said = "by the next call";
    }
    lastUnreported = false;
    const request = result?.messages ?? given;
    if (result && request !== given) row.changed++;
    // The session's own request, item for item: its report is the provider's count.
    const own =
      result === null && given.length === call.messages.length && given.every((item, i) => item === call.messages[i]);
    const truth = reported && own && call.usage.total > 0 ? call.usage.total : fixed + modelledInput(session, request);
    row.requests++;

    const violations = [...lib.responsesViolations({ messages: request }), ...codexViolations(request, lib.reference)];
    row.violations += violations.length;
    if (violations.length > 0 && row.examples.length < 5)
      row.examples.push(`call ${k}: [${violations[0].rule}] ${violations[0].detail.slice(0, 200)}`);
    for (const item of request) {
      if (!isOpaqueItem(item)) continue;
      row.opaqueItems++;
      if (!lib.reference.opaque.has(JSON.stringify(item))) row.opaqueChanged++;
    }
    if (truth > window) {
      row.overWindow++;
      row.worstOver = Math.max(row.worstOver, truth);
      if (result?.overBudget) {
        row.overReported++;
        const cause = result.overBudgetCause ?? "unsaid";
        row.causes[cause] = (row.causes[cause] ?? 0) + 1;
        const expected = trueCause(session, request, fixed, window);
        if (cause !== expected) {
          row.falseCause++;
          if (row.overExamples.length < 3)
            row.overExamples.push({
              call: k,
              said: cause,
              expected,
              provider: truth,
              libraryAfter: said?.tokensAfter,
              strategy: said?.strategy,
              input: fixed + modelledInput(session, given),
              headAndFixed: fixed + modelledInput(session, headOf(request)),
              lastUsage: report.usage?.inputTokens ?? null,
              items: request.length,
              summary: summaryText(lib, request).length > 0,
            });
        }
      } else {
        row.overNotReported++;
        lastUnreported = true;
        if (row.overExamples.length < 3)
          row.overExamples.push(
            (lastUnreported = {
              call: k,
              said: "nothing",
              provider: truth,
              libraryAfter: said?.tokensAfter,
              strategy: said?.strategy,
              lastUsage: report.usage?.inputTokens ?? null,
            }),
          );
      }
    }

    // Codex's own compaction points: the first call after each.
    const point = from === "stream" ? session.compactions.findIndex((c) => c.firstCall === k) : -1;
    if (point !== -1) {
      const needed = neededAtCodex(session, point);
      const kept = keptFacts(session.compactions[point]);
      const shown = visibleFacts(request.map(factView));
      const summary = new Set(factsOf(summaryText(lib, request)));
      const count = (set) => [...needed].filter((fact) => shows(set, fact)).length;
      row.points.push({
        call: k,
        preTokens: session.compactions[point].preTokens,
        needed: needed.size,
        ownSummary: count(kept),
        request: count(shown),
        librarySummary: summary.size > 0 ? count(summary) : null,
      });
    }
    working = request;
    previous = { truth, count: hook ? request.length : given.length };
    runContext.usage.requestUsageEntries.push({ inputTokens: truth });
  }
  return row;
}

function summaryText(lib, request) {
  return request
    .map((item) => (typeof item?.content === "string" ? item.content : ""))
    .filter((text) => text.startsWith(lib.SUMMARY_PREFIX))
    .join("\n");
}
