// Real agent sessions read as the model calls they made. Shared by `bench/real.mjs` and the tests
// (test/real-sessions.test.ts), so both replay the same requests.
//
// A Claude Code log is one JSON object a line. `user` and `assistant` lines carry `message`, the
// Anthropic Messages `{ role, content }`; an assistant reply is written one content block a line,
// every line with the same `message.id`, and its reported `usage` on each. Each reply is one model
// call: its request is the history before it, as Messages `messages` (consecutive lines of one
// role merged into one message, tool results first in a user message). A `system` line with
// `subtype: "compact_boundary"` is one of Claude Code's own compactions: the history before it is
// replaced by the `isCompactSummary` user line that follows, and the calls after it are sent from
// there. Lines with `isSidechain: true` belong to a subagent's own conversation: they are skipped
// and counted (a subagent's calls are a separate conversation, not this one's history). Lines
// marked `isVisibleInTranscriptOnly` are shown to the user, never sent; `<synthetic>` assistant
// lines (Claude Code's own notices) are no model call and are not sent either.
//
// Claude Code runs a tool call while its reply still streams, so a reply's later blocks may be
// logged after the results of its first calls: they join the reply's message all the same.
//
// Where a log holds what the API refuses, the reader mends it as Claude Code does before it sends,
// and counts each repair: a tool call left without its result (the session compacted or was
// interrupted between the call and its result) gets an error result before the next reply; two
// replies with nothing between them get a user turn that says so; whitespace-only text blocks are
// left out, and so is a reply's trailing thinking when the reply was cut off after it (the API
// refuses an assistant message that ends on thinking); a result whose call is in an earlier log
// (a session resumed from another file) is left out.
//
// A pi log (`@mariozechner/pi-coding-agent`) holds `message` entries in pi's own format (user,
// assistant with `toolCall` and `thinking` parts and its reported `usage`, `toolResult`, and pi's
// `bashExecution`, which pi sends as a user message) and `compaction` entries
// `{ summary, firstKeptEntryIndex, tokensBefore }`. Each assistant entry is one model call.
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { basename, join } from "node:path";
import { o200k } from "./billed.mjs";

const linesOf = (file) => {
  const raw = readFileSync(file);
  const text = file.endsWith(".gz") ? gunzipSync(raw).toString("utf8") : raw.toString("utf8");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
};

const blocksOf = (content) =>
  typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content : [];

const noResult = (id) => ({
  type: "tool_result",
  tool_use_id: id,
  content: "[the session recorded no result for this call]",
  is_error: true,
});
const isBlankText = (block) => block.type === "text" && (typeof block.text !== "string" || block.text.trim() === "");

/** An Anthropic request's messages under construction; a message is never mutated once pushed, so a call's snapshot stays as it was. */
function anthropicHistory(counts) {
  const messages = [];
  let replyAt = -1; // where the reply being written stands
  const last = () => messages[messages.length - 1];
  /** The calls of the latest assistant message, when the messages after it are at most the user turn being written. */
  const callsOfLatest = () => {
    const index = last()?.role === "assistant" ? messages.length - 1 : messages.length - 2;
    const assistant = messages[index];
    return assistant?.role === "assistant"
      ? assistant.content.filter((b) => b.type === "tool_use").map((b) => b.id)
      : [];
  };
  const answered = () =>
    new Set(
      last()?.role === "user"
        ? last()
            .content.filter((b) => b.type === "tool_result")
            .map((b) => b.tool_use_id)
        : [],
    );
  const push = (role, blocks) => {
    if (blocks.length === 0) return;
    const previous = last();
    if (previous?.role === role) {
      // Tool results lead the user turn that answers calls (the API refuses text before them).
      const merged =
        role === "user"
          ? [...previous.content, ...blocks].sort((a, b) => (b.type === "tool_result") - (a.type === "tool_result"))
          : [...previous.content, ...blocks];
      messages[messages.length - 1] = { role, content: merged };
    } else messages.push({ role, content: blocks });
  };
  /** Every call of the latest assistant message gets a result before the next reply. */
  const answerOpenCalls = () => {
    const done = answered();
    const missing = callsOfLatest().filter((id) => !done.has(id));
    counts.missingResults += missing.length;
    push("user", missing.map(noResult));
  };
  /** A reply cut off after its thinking: the API refuses an assistant message that ends on thinking. */
  const endReply = () => {
    const previous = last();
    if (previous?.role !== "assistant") return;
    const content = previous.content;
    let end = content.length;
    while (end > 0 && content[end - 1].type === "thinking") end--;
    if (end === content.length) return;
    counts.trailingThinking += content.length - end;
    if (end === 0) messages.pop();
    else messages[messages.length - 1] = { role: "assistant", content: content.slice(0, end) };
  };
  return {
    messages,
    /** A user line: results of the open calls, or what the user (or Claude Code for them) says. */
    user(content) {
      endReply();
      let blocks = content.filter((block) => !isBlankText(block) || (counts.blankText++, false));
      const calls = new Set(callsOfLatest());
      // A result whose call is not in this history (the session was resumed from another log) is left out.
      blocks = blocks.filter(
        (block) => block.type !== "tool_result" || calls.has(block.tool_use_id) || (counts.orphanResults++, false),
      );
      // Results of calls still open come before it: `push` keeps tool results first in the turn.
      push("user", blocks);
    },
    /** Before a new reply: every open call has a result, and the request ends on a user turn. */
    closeTurn() {
      endReply();
      if (last()?.role === "assistant" && callsOfLatest().length === 0) {
        counts.joinedReplies++;
        push("user", [{ type: "text", text: "[the session recorded no user turn between these replies]" }]);
      }
      answerOpenCalls();
      replyAt = messages.length;
    },
    assistant(content) {
      push(
        "assistant",
        content.filter((block) => !isBlankText(block) || (counts.blankText++, false)),
      );
    },
    /** More blocks of the reply being written, after the results of its first calls came in (Claude Code runs a call while the reply streams). */
    continueReply(content) {
      const blocks = content.filter((block) => !isBlankText(block) || (counts.blankText++, false));
      // The reply's message is the one `closeTurn` made room for; it may not exist yet (its first blocks were blank).
      const reply = messages[replyAt];
      if (reply === undefined || replyAt === messages.length - 1) return push("assistant", blocks);
      counts.interleavedReplies++;
      messages[replyAt] = { role: "assistant", content: [...reply.content, ...blocks] };
    },
    reset() {
      messages.length = 0;
      replyAt = -1;
    },
  };
}

const totalInput = (usage) =>
  (usage?.input_tokens ?? 0) + (usage?.cache_creation_input_tokens ?? 0) + (usage?.cache_read_input_tokens ?? 0);

/**
 * A Claude Code session as its model calls. `calls[i].messages` is the Messages `messages` array
 * Claude Code sent (after its own compactions); `calls[i].at` is where the call stands in
 * `stream`, the whole history with Claude Code's compactions left out (what a replay through
 * another compactor starts from); `compactions` are Claude Code's own, each with the history it
 * replaced, `preTokens`, its summary text, and the index of the first call after it.
 */
export function readClaudeCode(file) {
  const counts = {
    sidechainLines: 0,
    synthetic: 0,
    transcriptOnly: 0,
    interleavedReplies: 0,
    missingResults: 0,
    joinedReplies: 0,
    blankText: 0,
    orphanResults: 0,
    trailingThinking: 0,
  };
  const sent = anthropicHistory({ ...counts });
  const stream = anthropicHistory(counts);
  const calls = [];
  const compactions = [];
  let open; // the reply being written: its message.id
  let pending; // a boundary waiting for its summary line
  for (const line of linesOf(file)) {
    if (line.isSidechain) {
      counts.sidechainLines++;
      continue;
    }
    if (line.type === "system" && line.subtype === "compact_boundary") {
      pending = {
        before: sent.messages.slice(),
        at: stream.messages.length,
        preTokens: line.compactMetadata?.preTokens,
        trigger: line.compactMetadata?.trigger,
        firstCall: calls.length,
        summary: "",
      };
      compactions.push(pending);
      sent.reset();
      open = undefined;
      continue;
    }
    if (line.type !== "user" && line.type !== "assistant") continue;
    const message = line.message;
    if (!message) continue;
    // The summary is shown in the transcript and sent as the first user turn after the boundary.
    if (line.type === "user" && line.isCompactSummary) {
      const blocks = blocksOf(message.content);
      if (pending) pending.summary = blocks.map((b) => b.text ?? "").join("\n");
      sent.user(blocks);
      continue;
    }
    if (line.isVisibleInTranscriptOnly) {
      counts.transcriptOnly++;
      continue;
    }
    if (line.type === "user") {
      const blocks = blocksOf(message.content);
      sent.user(blocks);
      stream.user(blocks);
      continue;
    }
    if (message.model === "<synthetic>") {
      counts.synthetic++;
      continue;
    }
    const blocks = blocksOf(message.content);
    if (message.id === open) {
      // The same reply: its blocks join its message, even when results of its first calls were logged in between.
      sent.continueReply(blocks);
      stream.continueReply(blocks);
      continue;
    }
    sent.closeTurn();
    stream.closeTurn();
    open = message.id;
    const usage = message.usage ?? {};
    calls.push({
      messages: sent.messages.slice(),
      at: stream.messages.length,
      usage: {
        input: usage.input_tokens ?? 0,
        cacheCreation: usage.cache_creation_input_tokens ?? 0,
        cacheRead: usage.cache_read_input_tokens ?? 0,
        total: totalInput(usage),
      },
    });
    pending = undefined;
    sent.assistant(blocks);
    stream.assistant(blocks);
  }
  return {
    name: basename(file).replace(/\.jsonl(\.gz)?$/, ""),
    kind: "claude-code",
    calls,
    stream: stream.messages,
    compactions,
    counts,
  };
}

/** pi sends a `bashExecution` entry as a user message (the command and what it printed). */
const piMessage = (message) =>
  message.role === "bashExecution"
    ? {
        role: "user",
        content: [{ type: "text", text: `Ran \`${message.command}\`\n\`\`\`\n${message.output ?? ""}\n\`\`\`` }],
        timestamp: message.timestamp,
      }
    : message;

/**
 * A pi session as its model calls: `stream` is every message entry (pi's compactions left out),
 * `calls[i].at` where assistant entry i stands in it with its reported input (input + cache read +
 * cache write), `compactions` pi's own with their summary and `tokensBefore`.
 */
export function readPi(file) {
  const stream = [];
  const calls = [];
  const compactions = [];
  for (const entry of linesOf(file)) {
    if (entry.type === "compaction") {
      compactions.push({
        at: stream.length,
        preTokens: entry.tokensBefore,
        summary: entry.summary ?? "",
        firstCall: calls.length,
      });
      continue;
    }
    if (entry.type !== "message" || !entry.message) continue;
    const message = piMessage(entry.message);
    if (message.role === "assistant") {
      const usage = message.usage ?? {};
      calls.push({
        at: stream.length,
        usage: {
          input: usage.input ?? 0,
          cacheCreation: usage.cacheWrite ?? 0,
          cacheRead: usage.cacheRead ?? 0,
          total: (usage.input ?? 0) + (usage.cacheWrite ?? 0) + (usage.cacheRead ?? 0),
        },
      });
    }
    stream.push(message);
  }
  return { name: basename(file).replace(/\.jsonl(\.gz)?$/, ""), kind: "pi", calls, stream, compactions, counts: {} };
}

/**
 * pi's messages as an Anthropic request, the way pi-ai's Anthropic provider sends them for the same
 * model (`convertMessages` after `transformMessages` in `@mariozechner/pi-ai`): text, `thinking`
 * with its `thinkingSignature`, redacted thinking as `redacted_thinking`, `toolCall` as `tool_use`,
 * consecutive `toolResult`s as one user message of `tool_result`s, failed or aborted replies left
 * out, and an error result ("No result provided") for a call whose result never came, before the
 * next reply. pi-ai adds nothing for a result whose call is gone, so such a result shows here.
 */
export function piToAnthropic(messages) {
  const out = [];
  const push = (role, blocks) => {
    if (blocks.length === 0) return;
    const last = out[out.length - 1];
    if (last?.role === role) out[out.length - 1] = { role, content: [...last.content, ...blocks] };
    else out.push({ role, content: blocks });
  };
  let pending = [];
  const answerPending = () => {
    const last = out[out.length - 1];
    const done = new Set(
      last?.role === "user" ? last.content.filter((b) => b.type === "tool_result").map((b) => b.tool_use_id) : [],
    );
    push(
      "user",
      pending
        .filter((id) => !done.has(id))
        .map((id) => ({
          type: "tool_result",
          tool_use_id: id,
          content: [{ type: "text", text: "No result provided" }],
          is_error: true,
        })),
    );
    pending = [];
  };
  for (const message of messages) {
    if (message.role === "assistant") {
      answerPending();
      if (message.stopReason === "error" || message.stopReason === "aborted") continue;
      const blocks = message.content.flatMap((part) => {
        if (part.type === "text") return part.text.trim() === "" ? [] : [{ type: "text", text: part.text }];
        if (part.type === "thinking") {
          if (part.redacted) return [{ type: "redacted_thinking", data: part.thinkingSignature }];
          if (part.thinking.trim() === "") return [];
          return part.thinkingSignature
            ? [{ type: "thinking", thinking: part.thinking, signature: part.thinkingSignature }]
            : [{ type: "text", text: part.thinking }];
        }
        if (part.type === "toolCall")
          return [{ type: "tool_use", id: part.id, name: part.name, input: part.arguments ?? {} }];
        return [];
      });
      pending = blocks.filter((b) => b.type === "tool_use").map((b) => b.id);
      push("assistant", blocks);
    } else if (message.role === "toolResult") {
      const content = message.content.map((part) =>
        part.type === "image"
          ? { type: "image", source: { type: "base64", media_type: part.mimeType, data: part.data } }
          : { type: "text", text: part.text },
      );
      push("user", [
        { type: "tool_result", tool_use_id: message.toolCallId, content, is_error: message.isError === true },
      ]);
    } else {
      answerPending();
      const parts = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
      push(
        "user",
        parts.flatMap((part) =>
          part.type === "image"
            ? [{ type: "image", source: { type: "base64", media_type: part.mimeType, data: part.data } }]
            : part.text.trim() === ""
              ? []
              : [{ type: "text", text: part.text }],
        ),
      );
    }
  }
  return out;
}

// --- What the provider counts ------------------------------------------------------------------

/** An image as Anthropic bills one of at most 1.15 megapixels (about 1,600 tokens). */
const IMAGE_TOKENS = 1600;
const partTokens = (part) => {
  if (typeof part === "string") return o200k(part);
  if (part?.type === "image") return IMAGE_TOKENS;
  if (typeof part?.text === "string") return o200k(part.text);
  if (typeof part?.thinking === "string") return o200k(part.thinking);
  if (part?.type === "redacted_thinking") return Math.ceil(String(part.data ?? "").length / 4);
  if (part?.type === "tool_use") return o200k(`${part.name}${JSON.stringify(part.input ?? {})}`);
  if (part?.type === "toolCall") return o200k(`${part.name}${JSON.stringify(part.arguments ?? {})}`);
  if (part?.type === "tool_result")
    return typeof part.content === "string"
      ? o200k(part.content)
      : (part.content ?? []).reduce((sum, inner) => sum + partTokens(inner), 0);
  return 0;
};
const counted = new WeakMap();
/**
 * o200k tokens of one message (Anthropic or pi), with 4 of framing: the stand-in for the provider's
 * count of a request's messages. Cached per message object, as replays send the same objects again.
 */
export function billed(message) {
  let count = counted.get(message);
  if (count !== undefined) return count;
  const content = message.content;
  count =
    4 +
    (typeof content === "string"
      ? o200k(content)
      : Array.isArray(content)
        ? content.reduce((sum, part) => sum + partTokens(part), 0)
        : 0);
  counted.set(message, count);
  return count;
}
/** `billed` of a list of messages. */
export const billedList = (messages) => messages.reduce((sum, m) => sum + billed(m), 0);

/**
 * What the session sent beside its messages (system prompt, tool definitions), which the log does
 * not hold: the smallest reported input less the count of the messages it covered, over the calls
 * sent as logged (before the session's first own compaction).
 */
export function fixedPart(session) {
  const firstOwn = session.compactions[0]?.firstCall ?? session.calls.length;
  let fixed = Infinity;
  for (const call of session.calls.slice(0, firstOwn)) {
    if (call.usage.total <= 0) continue;
    const messages = session.kind === "pi" ? piToAnthropic(session.stream.slice(0, call.at)) : call.messages;
    fixed = Math.min(fixed, call.usage.total - billedList(messages));
  }
  return Number.isFinite(fixed) ? Math.max(0, fixed) : 0;
}

/** The blocks a provider checks the signature of (Anthropic thinking with a signature and redacted_thinking; pi's signed or redacted thinking). */
export const signedBlocks = (messages) =>
  messages.flatMap((message) =>
    Array.isArray(message.content)
      ? message.content.filter(
          (b) =>
            (b?.type === "thinking" && (b.signature || b.thinkingSignature || b.redacted)) ||
            b?.type === "redacted_thinking",
        )
      : [],
  );

/** Every session file of a folder laid out as `claude-code/` and `pi/`, read. */
export function loadSessions(dir) {
  const sessions = [];
  for (const [kind, read] of [
    ["claude-code", readClaudeCode],
    ["pi", readPi],
  ]) {
    const folder = join(dir, kind);
    if (!existsSync(folder)) continue;
    for (const file of readdirSync(folder)
      .filter((f) => /\.jsonl(\.gz)?$/.test(f))
      .sort())
      sessions.push(read(join(folder, file)));
  }
  return sessions;
}

/**
 * Anthropic Messages `messages` (a Claude Code request, or pi's as `piToAnthropic` sends them) as
 * OpenAI chat messages, the format the cost and fit replays run on: a user message's
 * `tool_result` blocks become `tool` messages (in their order, before its text), an assistant's
 * `tool_use` blocks its `tool_calls` (arguments as JSON), text blocks its text. Thinking blocks are
 * left out (chat messages have no place for them) and an image is the text `[image]`, so a
 * replayed request counts a little less than the session sent. `prefix` keeps tool ids unique
 * when sessions are joined.
 */
export function anthropicToChat(messages, prefix = "") {
  const out = [];
  const textOf = (content) =>
    typeof content === "string"
      ? content
      : (content ?? []).map((b) => (b?.type === "text" ? b.text : b?.type === "image" ? "[image]" : "")).join("\n");
  for (const message of messages) {
    const blocks =
      typeof message.content === "string" ? [{ type: "text", text: message.content }] : (message.content ?? []);
    if (message.role === "assistant") {
      const text = blocks
        .filter((b) => b.type === "text")
        .map((b) => b.text)
        .join("\n");
      const calls = blocks
        .filter((b) => b.type === "tool_use")
        .map((b) => ({
          id: prefix + b.id,
          type: "function",
          function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) },
        }));
      if (text === "" && calls.length === 0) continue;
      out.push(
        calls.length > 0
          ? { role: "assistant", content: text, tool_calls: calls }
          : { role: "assistant", content: text },
      );
      continue;
    }
    for (const block of blocks)
      if (block.type === "tool_result")
        out.push({ role: "tool", tool_call_id: prefix + block.tool_use_id, content: textOf(block.content) });
    const text = blocks
      .filter((b) => b.type !== "tool_result")
      .map((b) => (b.type === "text" ? b.text : b.type === "image" ? "[image]" : ""))
      .join("\n");
    if (text.trim() !== "") out.push({ role: "user", content: text });
  }
  return out;
}
