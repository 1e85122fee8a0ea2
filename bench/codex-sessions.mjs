// Real OpenAI Codex CLI sessions (Responses API) read as the model calls they made. Shared by
// `bench/real.mjs` and test/real-sessions.test.ts, so both replay the same requests.
//
// A Codex rollout log is one JSON object a line, `{ timestamp, type, payload }`
// (../shared/data/sessions/README.md): `session_meta` holds the base instructions Codex sends as
// `instructions` with every request, apart from the input list; each `response_item` is one
// Responses input item as Codex sent it; `event_msg` `token_count` follows each response with
// `info.last_token_usage.input_tokens` (cached included); `compacted` is one of Codex's own
// compactions, whose `replacement_history` is the whole input after it.
//
// Codex's history is append-only between compactions and every request sends all of it, in log
// order, so a call's request is the history up to the first model item (reasoning, an assistant
// message, a tool call) logged after the previous call's `token_count`. A `token_count` whose
// running totals did not move reports no new response (Codex repeats the last one when a turn is
// interrupted): the call it closes has no usage of its own. An interrupted turn (`turn_aborted`) or
// a compaction also closes the call in flight.
//
// The recorder redacted every `encrypted_content` to "REDACTED", and in one log dropped the field
// from every reasoning item. Codex asks for `include: ["reasoning.encrypted_content"]` with
// `store: false` and sends each reasoning item back with it (the SDK's `ResponseReasoningItem`:
// "encrypted_content … populated when a response is generated with `reasoning.encrypted_content`
// in the `include` parameter"), so the reader gives such an item the same placeholder and counts it
// (`encryptedRestored`): the item is opaque in the request, as it was when Codex sent it.
//
// Where a log holds what the API refuses, the reader leaves it out and counts it: a reasoning item
// that no item of its response follows (the turn was interrupted after it; the API answers "Item
// 'rs_…' of type 'reasoning' was provided without its required following item.") is dropped when
// the next input item arrives (`orphanReasoning`).
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { basename, join } from "node:path";
import { countTokens as o200k } from "gpt-tokenizer/encoding/o200k_base";
import { factsOf } from "./facts.mjs";

const linesOf = (file) => {
  const raw = readFileSync(file);
  const text = file.endsWith(".gz") ? gunzipSync(raw).toString("utf8") : raw.toString("utf8");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
};

/** Items the model writes: each opens a call when no call is in flight. */
const MODEL_ITEMS = new Set([
  "reasoning",
  "function_call",
  "custom_tool_call",
  "web_search_call",
  "tool_search_call",
  "local_shell_call",
]);
const isModelItem = (item) => MODEL_ITEMS.has(item.type) || (item.type === "message" && item.role === "assistant");

/** The items of the provider's own that a request carries opaque: reasoning and Codex's compaction item. */
export const isOpaqueItem = (item) => item?.type === "reasoning" || item?.type === "compaction";

/**
 * A Codex session as its model calls. `calls[i].messages` is the input list Codex sent (after its
 * own compactions), `calls[i].at` where the call stands in `stream` (the whole history with Codex's
 * compactions left out: what a replay through another compactor starts from), `calls[i].usage` the
 * reported input (`total`, 0 when the call reported none) and the reasoning tokens the response
 * wrote (`reasoning`). `compactions` are Codex's own: where they stand in `stream`, the index of the
 * first call after them, the reported input of the last call before them (`preTokens`), and what
 * they kept (`kept`, the replacement history). `hidden` maps an opaque item (by its JSON) to the
 * tokens it carries that the log cannot show: for a reasoning item, the reasoning tokens of the
 * response that wrote it, shared among that response's reasoning items.
 */
export function readCodex(file) {
  const counts = { encryptedRestored: 0, orphanReasoning: 0, unreportedCalls: 0, staleReports: 0, compactionItems: 0 };
  const lines = linesOf(file);
  const meta = lines.find((line) => line.type === "session_meta")?.payload ?? {};
  const stream = [];
  let sent = [];
  const calls = [];
  const compactions = [];
  const hidden = new Map();
  let open; // the call in flight: its request and the reasoning items its response wrote
  let totals; // the running totals of the last token_count
  const close = () => {
    if (open && open.usage.total === 0) counts.unreportedCalls++;
    open = undefined;
  };
  for (const line of lines) {
    const payload = line.payload ?? {};
    if (line.type === "compacted") {
      close();
      const kept = (payload.replacement_history ?? []).map(restore);
      counts.compactionItems += kept.filter((item) => item.type === "compaction").length;
      compactions.push({
        at: stream.length,
        firstCall: calls.length,
        preTokens: calls.at(-1)?.usage.total ?? 0,
        kept,
        summary: kept.map(itemText).join("\n"),
      });
      sent = kept.slice();
      continue;
    }
    if (line.type === "response_item") {
      const item = restore(payload);
      if (!isModelItem(item) && sent.at(-1)?.type === "reasoning") {
        counts.orphanReasoning++;
        sent.pop();
        stream.pop();
      }
      if (isModelItem(item) && open === undefined) {
        open = { messages: sent.slice(), at: stream.length, usage: { total: 0, reasoning: 0 }, wrote: [] };
        calls.push(open);
      }
      if (item.type === "reasoning" && open) open.wrote.push(item);
      sent.push(item);
      stream.push(item);
      continue;
    }
    if (line.type !== "event_msg") continue;
    if (payload.type === "turn_aborted") close();
    if (payload.type !== "token_count" || !payload.info) continue;
    const running = JSON.stringify(payload.info.total_token_usage);
    const stale = running === totals;
    totals = running;
    if (stale) counts.staleReports++;
    if (open === undefined) continue;
    if (!stale) {
      const last = payload.info.last_token_usage ?? {};
      open.usage = { total: last.input_tokens ?? 0, reasoning: last.reasoning_output_tokens ?? 0 };
      for (const item of open.wrote)
        hidden.set(JSON.stringify(item), Math.round(open.usage.reasoning / open.wrote.length));
    }
    close();
  }
  for (const call of calls) delete call.wrote;
  return {
    name: basename(file).replace(/\.jsonl(\.gz)?$/, ""),
    kind: "codex",
    instructions: meta.base_instructions?.text ?? "",
    window: null,
    calls,
    stream,
    compactions,
    hidden,
    counts,
  };

  function restore(item) {
    if (item.type === "reasoning" && !("encrypted_content" in item)) {
      counts.encryptedRestored++;
      return { ...item, encrypted_content: "REDACTED" };
    }
    return item;
  }
}

/** Every Codex session file of a folder (`codex/` under the sessions folder), read. */
export function loadCodexSessions(dir) {
  const folder = join(dir, "codex");
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((f) => /\.jsonl(\.gz)?$/.test(f))
    .sort()
    .map((file) => readCodex(join(folder, file)));
}

// --- Text and facts of Responses items ----------------------------------------------------------

/** The values of a JSON arguments string, one a line (its key names are the schema's, not facts). */
function argumentValues(text) {
  try {
    const leaves = (value) =>
      typeof value === "string"
        ? value
        : typeof value === "number" || typeof value === "boolean"
          ? String(value)
          : Array.isArray(value)
            ? value.map(leaves).join("\n")
            : value && typeof value === "object"
              ? Object.values(value).map(leaves).join("\n")
              : "";
    return leaves(JSON.parse(text));
  } catch {
    return String(text ?? "");
  }
}
const partsText = (content) =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((part) => (typeof part?.text === "string" ? part.text : "")).join("\n")
      : "";

/**
 * The readable text of one Responses item (or of a summary message the library wrote): message
 * text, a call's name and argument values, a tool output's text. Images, reasoning and compaction
 * items have none a reader can see.
 */
export function itemText(item) {
  switch (item?.type ?? "message") {
    case "message":
      return partsText(item.content);
    case "function_call":
      return `${item.name ?? ""} ${argumentValues(item.arguments)}`;
    case "custom_tool_call":
      return `${item.name ?? ""} ${item.input ?? ""}`;
    case "function_call_output":
    case "custom_tool_call_output":
      return typeof item.output === "string" ? item.output : partsText(item.output);
    case "web_search_call":
      return Object.values(item.action ?? {})
        .filter((v) => typeof v === "string")
        .join(" ");
    case "tool_search_call":
      return argumentValues(JSON.stringify(item.arguments ?? {}));
    default:
      return "";
  }
}

const written = (item) => isModelItem(item) && item.type !== "reasoning";
const views = new WeakMap();
/** An item as `bench/facts.mjs` reads a message: its role (what the model wrote is the assistant's) and its text. */
export function factView(item) {
  let view = views.get(item);
  if (!view) {
    view = { role: written(item) ? "assistant" : (item.role ?? "tool"), content: itemText(item) };
    views.set(item, view);
  }
  return view;
}

/** The facts Codex's compaction kept readable: those of its replacement history's messages (its compaction item is encrypted). */
export const keptFacts = (compaction) => new Set(factsOf(compaction.summary));

// --- What the provider counts -------------------------------------------------------------------

/**
 * An image in a tool output, as the session's own reports bill Codex's screenshots: the reported
 * input rose by about 1,800–2,400 tokens a screenshot where the o200k count of its base64 text rose
 * by 23,000–50,000, at the two calls of these logs that first sent two at once.
 */
export const CODEX_IMAGE_TOKENS = 2_000;
const imageCount = (item) =>
  Array.isArray(item.output) ? item.output.filter((part) => part?.type === "input_image").length : 0;
const visibleCache = new WeakMap();
/** o200k tokens of an item's visible text (JSON for the hosted and tool-search items), 4 of framing, images as billed. */
export function visibleTokens(item) {
  let count = visibleCache.get(item);
  if (count !== undefined) return count;
  let text;
  if (item.type === "function_call_output" || item.type === "custom_tool_call_output")
    text = typeof item.output === "string" ? item.output : partsText(item.output);
  else if (item.type === "function_call") text = `${item.name ?? ""}${item.arguments ?? ""}`;
  else if (item.type === "custom_tool_call") text = `${item.name ?? ""}${item.input ?? ""}`;
  else if (item.type === "reasoning") text = (item.summary ?? []).map((s) => s?.text ?? "").join("\n");
  else if (item.type === "compaction") text = "";
  else if (item.type === "message" || item.type === undefined) text = partsText(item.content);
  else text = JSON.stringify(item.action ?? item.arguments ?? item.tools ?? "");
  count = 4 + o200k(text) + CODEX_IMAGE_TOKENS * imageCount(item);
  visibleCache.set(item, count);
  return count;
}

/** The index of the request's last user message: the current turn starts there. */
const turnStart = (request) => {
  for (let i = request.length - 1; i >= 0; i--)
    if (request[i]?.type === "message" && request[i].role === "user") return i;
  return 0;
};

/**
 * The model of the provider's count of a Codex request, without what travels beside the input:
 * each item's visible tokens, plus the hidden tokens of its reasoning items of the current turn
 * (after the last user message) and of its compaction items. Reasoning items of earlier turns add
 * nothing: the reports show the input fall back by about their size when a new turn starts (GPT-5.5
 * keeps reasoning of the current turn; OpenAI's "Preserved reasoning" guide: "The selected model
 * and reasoning.context setting determine which available reasoning items the model can use").
 */
export function modelledInput(session, request) {
  const start = turnStart(request);
  let sum = 0;
  for (let i = 0; i < request.length; i++) {
    const item = request[i];
    sum += visibleTokens(item);
    if (item?.type === "compaction" || (item?.type === "reasoning" && i > start))
      sum += session.hidden.get(JSON.stringify(item)) ?? 0;
  }
  return sum;
}

/**
 * Completes a session's count: its fixed part (the instructions and tool definitions sent beside
 * the input, which the log does not hold whole: the smallest reported input less the modelled
 * input, over the calls sent before Codex's first compaction) and the hidden size of each of
 * Codex's compaction items (the first report after it less the rest of that request). Returns the
 * fixed part and how the reports compare with the model on the session's own requests.
 */
export function calibrateCodex(session) {
  const firstOwn = session.compactions[0]?.firstCall ?? session.calls.length;
  let fixed = Infinity;
  for (const call of session.calls.slice(0, firstOwn))
    if (call.usage.total > 0) fixed = Math.min(fixed, call.usage.total - modelledInput(session, call.messages));
  fixed = Number.isFinite(fixed) ? Math.max(0, fixed) : 0;
  for (const compaction of session.compactions) {
    const item = compaction.kept.find((k) => k.type === "compaction");
    const after = session.calls
      .slice(compaction.firstCall)
      .find((call) => call.usage.total > 0 && call.messages.includes(item));
    if (item && after)
      session.hidden.set(
        JSON.stringify(item),
        Math.max(0, after.usage.total - fixed - modelledInput(session, after.messages)),
      );
  }
  const ratios = session.calls
    .filter((call) => call.usage.total > 0)
    .map((call) => call.usage.total / (fixed + modelledInput(session, call.messages)));
  const mean = ratios.reduce((s, r) => s + r, 0) / Math.max(1, ratios.length);
  return { fixed, reportedOverModel: { mean, min: Math.min(...ratios), max: Math.max(...ratios) } };
}

// --- Checks of a Responses request beyond the shared validator -----------------------------------

/**
 * What the shared Responses validator (test/support/provider-rules/openai-responses.ts) does not
 * check and a Codex request holds:
 * - `custom-call-has-output`: a `custom_tool_call` (Codex's apply_patch) answered by a
 *   `custom_tool_call_output` with its `call_id` later in the input. API error: "No tool output
 *   found for custom tool call call_…." (https://github.com/diegosouzapw/OmniRoute/issues/8946,
 *   a 400 Codex met when a proxy dropped the output).
 * - `opaque-unchanged`: every reasoning and compaction item is one the session sent, byte for
 *   byte (the SDK's `ResponseReasoningItem.encrypted_content` and `ResponseCompactionItem` are the
 *   provider's own ciphertext: an edited item cannot be read back).
 * - `reasoning-in-place`: a reasoning item is followed by the item that followed it in the session
 *   (API error: "Item 'rs_…' of type 'reasoning' was provided without its required following
 *   item."; OpenAI's "Preserved reasoning" guide: "keep the history that produced it intact").
 * - `compaction-in-place`: what precedes a compaction item is what preceded it when Codex sent it
 *   (its replacement history), so nothing of the older part moves before it.
 * `followers` maps each reasoning item's JSON to the JSON of the items after it in the session
 * (a set: two logs write reasoning items without an id, all alike);
 * `prefixes` a compaction item's JSON to the JSON of the items before it.
 */
export function codexViolations(request, { opaque, followers, prefixes }) {
  const out = [];
  const json = request.map((item) => (isOpaqueItem(item) ? JSON.stringify(item) : undefined));
  request.forEach((item, index) => {
    if (
      item?.type === "custom_tool_call" &&
      !request
        .slice(index + 1)
        .some((later) => later?.type === "custom_tool_call_output" && later.call_id === item.call_id)
    )
      out.push({
        rule: "codex/custom-call-has-output",
        index,
        detail: `No tool output found for custom tool call ${item.call_id}.`,
      });
    if (!isOpaqueItem(item)) return;
    if (!opaque.has(json[index])) {
      out.push({
        rule: "codex/opaque-unchanged",
        index,
        detail: `input[${index}]: a ${item.type} item the session never sent (${json[index].slice(0, 120)})`,
      });
      return;
    }
    if (item.type === "reasoning") {
      const next = request[index + 1];
      if (next === undefined || !followers.get(json[index])?.has(JSON.stringify(next)))
        out.push({
          rule: "codex/reasoning-in-place",
          index,
          detail: `input[${index}]: reasoning item ${item.id ?? ""} is followed by ${next === undefined ? "nothing" : `a ${next.type ?? next.role}`}, not the item it was sent with`,
        });
    }
    if (item.type === "compaction") {
      const before = prefixes.get(json[index]) ?? [];
      const held = request.slice(0, index).filter((m) => !(typeof m.content === "string" && m.role === "system"));
      const shown = new Set(before);
      if (held.some((m) => !shown.has(JSON.stringify(m))))
        out.push({
          rule: "codex/compaction-in-place",
          index,
          detail: `input[${index}]: the compaction item is preceded by an item it did not follow when Codex sent it`,
        });
    }
  });
  return out;
}

/** What `codexViolations` compares with: the session's opaque items, what followed each, and what preceded each compaction item. */
export function codexReference(session) {
  const opaque = new Set();
  const followers = new Map();
  const prefixes = new Map();
  const record = (list) =>
    list.forEach((item, index) => {
      if (!isOpaqueItem(item)) return;
      const key = JSON.stringify(item);
      opaque.add(key);
      if (item.type === "reasoning" && index + 1 < list.length)
        followers.set(key, (followers.get(key) ?? new Set()).add(JSON.stringify(list[index + 1])));
      if (item.type === "compaction")
        prefixes.set(
          key,
          list.slice(0, index).map((m) => JSON.stringify(m)),
        );
    });
  record(session.stream);
  for (const compaction of session.compactions) record(compaction.kept);
  return { opaque, followers, prefixes };
}

/** Every opaque item of a request, counted. */
export const opaqueItems = (request) => request.filter(isOpaqueItem);
