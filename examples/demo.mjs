// A long-lived support agent: real tau-bench and tau2-bench conversations replayed back to back,
// as one shift, through the real `openai` SDK against a stub model on 127.0.0.1. The compactor is
// the agent's before-LLM hook; its summarizer is deterministic. Run: npm run demo [-- --max-tokens N]
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import OpenAI from "openai";
import { compactor, estimateTokens } from "../dist/index.js";
import { SUMMARY_PREFIX, findToolPairProblems } from "../dist/expert.js";

/** The summary this library wrote: a message whose text opens with its prefix. */
const isSummaryMessage = (message) => typeof message.content === "string" && message.content.startsWith(SUMMARY_PREFIX);
import { chatCompletion, startStubModel } from "./stub-model.mjs";

const { values } = parseArgs({ options: { "max-tokens": { type: "string" }, "keep-tail": { type: "string" } } });
const maxTokens = Number(values["max-tokens"] ?? 8000);
// A quarter of the budget as tail makes the sawtooth easy to see; the library's default is half.
const keepTail = values["keep-tail"] === undefined ? Math.floor(maxTokens / 4) : Number(values["keep-tail"]);
if (!Number.isInteger(maxTokens) || maxTokens < 1) {
  console.error(`demo: --max-tokens must be a positive integer, got "${values["max-tokens"]}"`);
  process.exit(2);
}

const data = new URL("./data/", import.meta.url);
const conversations = JSON.parse(readFileSync(new URL("index.json", data), "utf8")).map((entry) => ({
  name: entry.file,
  messages: JSON.parse(readFileSync(new URL(entry.file, data), "utf8")),
}));

// The summarizer a model would be: here, a deterministic digest that rolls the previous one forward.
function summarize(older, { previousSummary }) {
  const lines = previousSummary ? previousSummary.split("\n").filter((line) => line.startsWith("- ")) : [];
  const tools = new Map();
  for (const message of older) {
    if (isSummaryMessage(message)) continue;
    if (message.role === "user" && typeof message.content === "string")
      lines.push(`- customer: ${message.content.replace(/\s+/g, " ").slice(0, 90)}`);
    for (const call of message.tool_calls ?? [])
      tools.set(call.function.name, (tools.get(call.function.name) ?? 0) + 1);
  }
  if (tools.size > 0) lines.push(`- tools used: ${[...tools].map(([name, count]) => `${name} ×${count}`).join(", ")}`);
  return `Earlier in this shift (${older.length} messages summarized):\n${lines.slice(-12).join("\n")}`;
}

// The stub model answers each request with the next recorded assistant message, and checks what it receives.
const script = [];
const brokenRequests = [];
const stub = await startStubModel(({ body }) => {
  const problems = findToolPairProblems(body.messages);
  if (problems.length > 0) brokenRequests.push(problems);
  return chatCompletion(script.shift());
});
const client = new OpenAI({ baseURL: stub.baseURL, apiKey: "no-key-needed", maxRetries: 0 });

const width = 50;
let pendingNote = "";
const compactions = [];
const hook = compactor({
  maxTokens,
  keepTail,
  summarize,
  events: {
    onCompacted: (event) => {
      compactions.push(event);
      pendingNote = `  ↳ compacted ${event.summarized} messages: ${event.tokensBefore.toLocaleString("en-US")} → ${event.tokensAfter.toLocaleString("en-US")} tokens`;
    },
  },
});

function chartLine(turn, tokens) {
  const cells = Math.round((tokens / maxTokens) * width);
  let bar = "";
  for (let i = 0; i < Math.max(width + 1, cells); i++) bar += i === width ? "│" : i < cells ? "█" : " ";
  return `turn ${String(turn).padStart(3)} ${bar} ${tokens.toLocaleString("en-US").padStart(7)}`;
}

const n = (value) => value.toLocaleString("en-US");
console.log(`A support agent's shift: ${conversations.length} real conversations back to back.`);
console.log(
  `Budget ${n(maxTokens)} tokens (│), keepTail ${n(keepTail)}. Each line: the tokens of the turn's last request.\n`,
);
const started = performance.now();
let transcript = [];
let hookMs = 0;
let modelCalls = 0;
let turns = 0;
let sentTokens = 0;
let sentInTurn = false;
// What the transcript would be without compaction: every message appended, nothing removed.
let uncompactedTokens = 0;
let totalSent = 0;
let totalUncompacted = 0;
// The request sent right after the first compaction, shown in full (roles and sizes) at the end.
let firstCompacted;

async function callModel() {
  const hookStarted = performance.now();
  const compacted = await hook({ messages: transcript });
  hookMs += performance.now() - hookStarted;
  if (compacted) {
    transcript = compacted.messages;
    // A copy: the transcript grows on from this array.
    firstCompacted ??= { turn: turns, messages: [...compacted.messages] };
  }
  sentTokens = estimateTokens(transcript);
  sentInTurn = true;
  totalSent += sentTokens;
  totalUncompacted += uncompactedTokens;
  const response = await client.chat.completions.create({ model: "support-agent", messages: transcript });
  modelCalls++;
  append(response.choices[0].message);
}

// Recorded runs reuse tool-call ids across conversations; one shift needs each id once.
function uniqueId(conversation, id) {
  return `c${conversation}_${id}`;
}

function append(message) {
  transcript.push(message);
  uncompactedTokens += estimateTokens([message]);
}

/** Closes a turn: its row, or why it has none (`next` is what ended it: the customer again, or the end of a conversation). */
function endTurn(next) {
  if (pendingNote) console.log(pendingNote);
  pendingNote = "";
  if (sentInTurn) console.log(chartLine(turns, sentTokens));
  else if (turns > 0) {
    const why =
      next === "user"
        ? "the customer wrote again before the agent answered"
        : "the recorded conversation ends on the customer's message";
    console.log(`turn ${String(turns).padStart(3)} (no row: no request was sent, ${why})`);
  }
  sentInTurn = false;
}

/** One line per message of a request: its role, what it carries, and its tokens. */
function describeRequest(messages) {
  const line = (message, index) => {
    const what = isSummaryMessage(message)
      ? "summary"
      : message.tool_calls
        ? `${message.tool_calls.length} tool call${message.tool_calls.length > 1 ? "s" : ""}`
        : message.role === "tool"
          ? "tool result"
          : "text";
    return `  ${String(index).padStart(3)}  ${message.role.padEnd(9)} ${what.padEnd(12)} ${n(estimateTokens([message])).padStart(6)} tokens`;
  };
  const lines = messages.map(line);
  // A long request shows its beginning and its end: the summary sits at the beginning.
  return lines.length <= 14
    ? lines
    : [...lines.slice(0, 7), `       … ${lines.length - 12} more messages …`, ...lines.slice(-5)];
}

for (const [index, conversation] of conversations.entries()) {
  for (const message of conversation.messages) {
    if (message.role === "system") {
      // One agent, one system prompt: the first conversation's stays for the whole shift.
      if (index === 0) append(message);
      continue;
    }
    if (message.role === "user") {
      endTurn("user");
      turns++;
      append(message);
    } else if (message.role === "tool") {
      append({ ...message, tool_call_id: uniqueId(index, message.tool_call_id) });
    } else {
      const toolCalls = message.tool_calls?.map((call) => ({ ...call, id: uniqueId(index, call.id) }));
      script.push({ content: message.content ?? null, ...(toolCalls ? { tool_calls: toolCalls } : {}) });
      await callModel();
    }
  }
}
endTurn("end");
await stub.close();

if (firstCompacted !== undefined) {
  const summary = firstCompacted.messages.find(isSummaryMessage);
  console.log(
    `\nThe first summary, as the model received it at turn ${firstCompacted.turn}:\n${summary.content
      .split("\n")
      .map((text) => `  │ ${text}`)
      .join("\n")}`,
  );
  console.log(
    `\nThe request it went out in: ${firstCompacted.messages.length} messages, ${n(estimateTokens(firstCompacted.messages))} tokens (budget ${n(maxTokens)})`,
  );
  console.log(describeRequest(firstCompacted.messages).join("\n"));
}

const before = compactions.reduce((sum, event) => sum + event.tokensBefore, 0);
const after = compactions.reduce((sum, event) => sum + event.tokensAfter, 0);
const systemKept = stub.requests.every(
  (request) => request.body.messages[0]?.content === conversations[0].messages[0].content,
);
const average = (total) => n(Math.round(total / Math.max(1, compactions.length)));
const perCompaction = compactions.length > 0 ? ` (on average ${average(before)} → ${average(after)} tokens)` : "";
console.log(`
turns: ${turns}, model calls: ${modelCalls}, compactions: ${compactions.length}${perCompaction}
tokens sent over the shift: ${n(totalSent)} with compaction, ${n(totalUncompacted)} without (${Math.round((1 - totalSent / totalUncompacted) * 100)}% fewer); final transcript ${n(estimateTokens(transcript))} tokens instead of ${n(uncompactedTokens)}
time in the hook: ${hookMs.toFixed(1)} ms over ${modelCalls} calls (${((hookMs / modelCalls) * 1000).toFixed(0)} µs per call); the demo ran in ${((performance.now() - started) / 1000).toFixed(1)} s
requests with a broken tool pair: ${brokenRequests.length}; system prompt first in every request: ${systemKept ? "yes" : "no"}`);
if (brokenRequests.length > 0 || !systemKept) process.exitCode = 1;
