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
// in the `include` parameter"), so the request Codex sent held a ciphertext of hundreds to
// thousands of characters where the log holds eight. The reader rebuilds it (`encryptedRebuilt`;
// `encryptedRestored` counts the items whose field was dropped): an opaque string shaped as the
// API's is, a Fernet token (base64url of version 0x80, the 8-byte time, a 16-byte IV, AES-CBC
// blocks of 16 bytes and a 32-byte HMAC: "gAAAAAB…"), its time the log line's, its bytes a hash of
// the session's name and the item's line, and its length what the log bears out: the reasoning
// tokens the response that wrote it reported (`last_token_usage.reasoning_output_tokens`, shared
// among that response's reasoning items) at the length real ciphertexts have for that many tokens
// (`ciphertextChars`). A reasoning item whose response reported nothing (an interrupted turn) gets
// the length of none. Codex's own `compaction` item is rebuilt the same way once its size is known
// (`calibrateCodex`: the first report after it less the rest of that request). So the library
// estimates each request from what Codex's real request held, and every reasoning item of a log
// is one of its own, where two logs wrote all of theirs alike (no id, the same placeholder).
//
// Where a log holds what the API refuses, the reader leaves it out and counts it: a reasoning item
// that no item of its response follows (the turn was interrupted after it; the API answers "Item
// 'rs_…' of type 'reasoning' was provided without its required following item.") is dropped when
// the next input item arrives (`orphanReasoning`).
import { createHash } from "node:crypto";
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
 * The length, in characters, of the `encrypted_content` the Responses API returns with a reasoning
 * item of `tokens` reasoning tokens: 1,055 + 6.2 per token, the least-squares line through 102
 * recorded API responses that each hold one reasoning item, against the response's reported
 * `output_tokens_details.reasoning_tokens` (gpt-5, gpt-5-mini, gpt-5-pro, gpt-5.2, gpt-5.5 and
 * gpt-5.6-sol; 0–2,560 tokens; 888–18,276 characters, each within 2,610 of the line): 99 in
 * pydantic/pydantic-ai's tests/models/cassettes (test_openai_responses, test_multimodal_tool_returns,
 * test_tool_choice_matrix, test_tool_search …), 3 in vercel/ai's
 * packages/openai/src/responses/__fixtures__ and packages/azure/src/__fixtures__. Responses of 0
 * tokens hold 888–1,336 characters; of 1,024 tokens, 6,968–7,756; of 2,560 tokens, 18,276.
 * A compaction item is given the same length for the tokens it is counted at: pydantic-ai's one
 * pair of the two (test_openai_responses_compact_messages) holds 2,808 characters where the next
 * request counted 298 tokens with a 39-character message beside it, about 285 for the item (the
 * line: 2,822).
 */
export const ciphertextChars = (tokens) => Math.round(1_055 + 6.2 * Math.max(0, tokens));

/**
 * An opaque string of about `chars` characters shaped as the API's ciphertext: a Fernet token
 * (version 0x80, the time `seconds`, a 16-byte IV, whole AES blocks, a 32-byte HMAC), base64url
 * with its padding, its bytes drawn from SHA-256 of `seed` (the same log reads the same).
 */
export function fernetLike(seed, seconds, chars) {
  const blocks = Math.max(1, Math.round(((chars * 3) / 4 - 57) / 16));
  const bytes = Buffer.alloc(57 + 16 * blocks);
  bytes[0] = 0x80;
  bytes.writeBigUInt64BE(BigInt(Math.max(0, Math.floor(seconds))), 1);
  for (let at = 9, round = 0; at < bytes.length; round++)
    at += createHash("sha256").update(`${seed}/${round}`).digest().copy(bytes, at);
  const text = bytes.toString("base64url");
  return text.padEnd(Math.ceil(text.length / 4) * 4, "=");
}
const secondsOf = (timestamp) => {
  const ms = Date.parse(timestamp ?? "");
  return Number.isFinite(ms) ? ms / 1000 : 0;
};
const isRedacted = (item) =>
  (item.type === "reasoning" || item.type === "compaction") &&
  (item.encrypted_content === undefined || item.encrypted_content === "REDACTED");

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
  const name = basename(file).replace(/\.jsonl(\.gz)?$/, "");
  const counts = {
    encryptedRebuilt: 0,
    encryptedRestored: 0,
    orphanReasoning: 0,
    unreportedCalls: 0,
    staleReports: 0,
    compactionItems: 0,
  };
  const lines = linesOf(file);
  const meta = lines.find((line) => line.type === "session_meta")?.payload ?? {};
  const stream = [];
  let sent = [];
  const calls = [];
  const compactions = [];
  const hidden = new Map();
  const rebuilt = new WeakMap(); // a rebuilt opaque item → its seed and time, until its length is known
  let open; // the call in flight: its request and the reasoning items its response wrote
  let totals; // the running totals of the last token_count
  // Closes the call in flight: its reasoning items get their ciphertext, for the reasoning tokens its
  // response reported (none when it reported nothing), and their share of those tokens as `hidden`.
  const close = () => {
    if (open === undefined) return;
    if (open.usage.total === 0) counts.unreportedCalls++;
    const share = Math.round(open.usage.reasoning / Math.max(1, open.wrote.length));
    for (const item of open.wrote) {
      rebuild(item, share);
      if (open.usage.total > 0) hidden.set(JSON.stringify(item), share);
    }
    open = undefined;
  };
  lines.forEach((line, at) => {
    const payload = line.payload ?? {};
    if (line.type === "compacted") {
      close();
      const kept = (payload.replacement_history ?? []).map((item, i) => restore(item, `${at}.${i}`, line));
      counts.compactionItems += kept.filter((item) => item.type === "compaction").length;
      compactions.push({
        at: stream.length,
        firstCall: calls.length,
        preTokens: calls.at(-1)?.usage.total ?? 0,
        kept,
        summary: kept.map(itemText).join("\n"),
      });
      sent = kept.slice();
      return;
    }
    if (line.type === "response_item") {
      const item = restore(payload, `${at}`, line);
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
      return;
    }
    if (line.type !== "event_msg") return;
    if (payload.type === "turn_aborted") close();
    if (payload.type !== "token_count" || !payload.info) return;
    const running = JSON.stringify(payload.info.total_token_usage);
    const stale = running === totals;
    totals = running;
    if (stale) counts.staleReports++;
    if (open === undefined) return;
    if (!stale) {
      const last = payload.info.last_token_usage ?? {};
      open.usage = { total: last.input_tokens ?? 0, reasoning: last.reasoning_output_tokens ?? 0 };
    }
    close();
  });
  close();
  for (const call of calls) delete call.wrote;
  const session = {
    name,
    kind: "codex",
    instructions: meta.base_instructions?.text ?? "",
    window: null,
    calls,
    stream,
    compactions,
    hidden,
    counts,
  };
  // Codex's compaction items: their size is known only from the reports around them.
  session.calibration = calibrate(session, (item, tokens) => rebuild(item, tokens));
  return session;

  /** An item as Codex sent it: a redacted opaque item marked for its ciphertext, built when its size is known. */
  function restore(item, line, { timestamp }) {
    if (!isRedacted(item)) return item;
    if (!("encrypted_content" in item)) counts.encryptedRestored++;
    const copy = { ...item, encrypted_content: "" };
    rebuilt.set(copy, { seed: `${name}/${line}`, seconds: secondsOf(timestamp) });
    return copy;
  }
  function rebuild(item, tokens) {
    const pending = rebuilt.get(item);
    if (pending === undefined) return;
    rebuilt.delete(item);
    item.encrypted_content = fernetLike(pending.seed, pending.seconds, ciphertextChars(tokens));
    counts.encryptedRebuilt++;
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
 * A session's count, completed when it is read: its fixed part (the instructions and tool
 * definitions sent beside the input, which the log does not hold whole: the smallest reported input
 * less the modelled input, over the calls sent before Codex's first compaction) and the hidden size
 * of each of Codex's compaction items (the first report after it less the rest of that request), at
 * which its ciphertext is rebuilt. Returns the fixed part and how the reports compare with the model
 * on the session's own requests.
 */
export function calibrateCodex(session) {
  return session.calibration;
}

function calibrate(session, rebuild) {
  const firstOwn = session.compactions[0]?.firstCall ?? session.calls.length;
  let fixed = Infinity;
  for (const call of session.calls.slice(0, firstOwn))
    if (call.usage.total > 0) fixed = Math.min(fixed, call.usage.total - modelledInput(session, call.messages));
  fixed = Number.isFinite(fixed) ? Math.max(0, fixed) : 0;
  for (const compaction of session.compactions) {
    const item = compaction.kept.find((k) => k.type === "compaction");
    if (!item) continue;
    const after = session.calls
      .slice(compaction.firstCall)
      .find((call) => call.usage.total > 0 && call.messages.includes(item));
    const size = after ? Math.max(0, after.usage.total - fixed - modelledInput(session, after.messages)) : 0;
    rebuild(item, size);
    if (after) session.hidden.set(JSON.stringify(item), size);
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
