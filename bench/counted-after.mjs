// `npm run bench:counted` — the count the hook gives of the request it returns (`tokensAfter`),
// against the provider's count of that request, on every content class of docs/counting.md's table.
// o200k (gpt-tokenizer) stands in for the provider: a tool loop of one content class sends each
// request, the "provider" counts it (o200k of every message's text plus 4 tokens of framing, plus
// the system prompt and tools it sends apart, `reserveTokens` as the caller measured them), and the
// next call passes that count back as `usage`, as the documented loop does. Each compaction's
// `tokensAfter` is then set beside the provider's count of the request it returned. Through the
// plain hook and through the AI SDK's `toPrepareStep`. Target (SPEC §40): within 10% everywhere.
import { writeFileSync } from "node:fs";
import { countTokens as o200k } from "gpt-tokenizer/encoding/o200k_base";
import { compactor, memoryStore } from "../dist/index.js";
import { toPrepareStep } from "../dist/ai-sdk.js";
import {
  csvSamples,
  uuidSamples,
  hexSamples,
  base64Samples,
  cjkSamples,
  emojiSamples,
  seeded,
} from "./content-samples.mjs";

const FRAMING = 4;
/** What the provider receives apart from the messages: a system prompt and tool definitions. */
const FIXED_TEXT = `You are a careful coding agent. ${"Use the tools to read files and run commands; quote paths exactly. ".repeat(20)}`;
const FIXED = o200k(FIXED_TEXT) + FRAMING;

const textOf = (message) =>
  typeof message.content === "string"
    ? message.content
    : Array.isArray(message.content)
      ? message.content.map((part) => part.text ?? part.output?.value ?? JSON.stringify(part.input ?? "")).join("\n")
      : "";
/** The provider's count of a request: what travels apart, and each message's text. */
const providerCount = (messages) =>
  FIXED + messages.reduce((sum, message) => sum + o200k(textOf(message)) + FRAMING, 0);

function proseSamples(count = 40, seed = 7) {
  const random = seeded(seed);
  const words =
    "the order ships tomorrow customer asked refund policy because package arrived damaged and support agent checked tracking history before replying with options".split(
      " ",
    );
  return Array.from({ length: count }, () =>
    Array.from({ length: 500 }, () => words[Math.floor(random() * words.length)]).join(" "),
  );
}
function jsonSamples(count = 40, seed = 8) {
  const random = seeded(seed);
  return Array.from({ length: count }, (_, sample) =>
    JSON.stringify(
      Array.from({ length: 40 }, (_, row) => ({
        id: `ord_${sample}_${row}`,
        amount: Math.round(random() * 100000) / 100,
        status: random() > 0.5 ? "shipped" : "pending",
        items: Math.floor(random() * 9),
      })),
      null,
      1,
    ),
  );
}
function codeSamples(count = 40) {
  return Array.from({ length: count }, (_, sample) =>
    Array.from(
      { length: 80 },
      (_, line) =>
        `${String(line + 1).padStart(4)}  export function total${sample}_${line}(amount: number, fee: number): number { return amount + fee * ${line}; }`,
    ).join("\n"),
  );
}

const CLASSES = {
  prose: proseSamples(),
  code: codeSamples(),
  json: jsonSamples(),
  digits: csvSamples(),
  ids: [...uuidSamples(20), ...hexSamples(20)],
  base64: base64Samples(),
  cjk: cjkSamples(),
  emoji: emojiSamples(),
};

/** A chat tool loop of one class's outputs: user asks, the model calls a tool, the tool answers with a sample. */
function* turns(samples) {
  for (let index = 0; index < samples.length; index++) {
    yield [
      { role: "user", content: `Read part ${index}.` },
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: `c${index}`, toolName: "read", input: { part: index } }],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: `c${index}`,
            toolName: "read",
            output: { type: "text", value: samples[index] },
          },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: `Part ${index} read.` }] },
    ];
  }
}

const summarize = (older) =>
  `Read ${older.length} messages of tool output; nothing decided yet. ${"Notes on the parts read. ".repeat(40)}`;

/** One loop through `call`, which sends a request and gets `{ messages, tokensAfter? }` back. */
async function replay(samples, call) {
  const ratios = [];
  let messages = [];
  let usage;
  for (const turn of turns(samples)) {
    messages = [...messages, ...turn];
    const { sent, tokensAfter } = await call(messages, usage);
    if (tokensAfter !== undefined) ratios.push(tokensAfter / providerCount(sent));
    messages = sent;
    usage = { inputTokens: providerCount(sent), messageCount: sent.length };
  }
  return ratios;
}

// A window of a third of what the whole loop would send, so that every class compacts a few times.
const WINDOW_SHARE = 1 / 3;
const rows = [];
for (const [name, samples] of Object.entries(CLASSES)) {
  const maxTokens = Math.floor(WINDOW_SHARE * providerCount([...turns(samples)].flat()));
  // The plain hook.
  let after;
  const hook = compactor({
    maxTokens,
    reserveTokens: FIXED,
    summarize,
    events: { onCompacted: (event) => (after = event.tokensAfter), warnOverBudget: false },
  });
  const hookRatios = await replay(samples, async (messages, usage) => {
    after = undefined;
    const result = await hook(usage ? { messages, usage } : { messages });
    return { sent: result?.messages ?? messages, tokensAfter: after };
  });
  // The AI SDK's prepareStep, its usage as the AI SDK reports it.
  let adapterAfter;
  const prepareStep = toPrepareStep({
    maxTokens,
    reserveTokens: FIXED,
    summarize,
    store: memoryStore(),
    conversationId: name,
    events: { onCompacted: (event) => (adapterAfter = event.tokensAfter), warnOverBudget: false },
  });
  let steps = [];
  const adapterRatios = await replay(samples, async (messages, usage) => {
    adapterAfter = undefined;
    // As AI SDK 7 hands it over: the initial messages, and the last step's usage with the messages it added.
    if (usage)
      steps = [
        {
          usage: { inputTokens: usage.inputTokens, outputTokens: 10, totalTokens: usage.inputTokens + 10 },
          response: { messages: messages.slice(usage.messageCount) },
        },
      ];
    const result = await prepareStep({ messages, steps, stepNumber: steps.length, model: {}, initialMessages: [] });
    return { sent: result.messages ?? messages, tokensAfter: adapterAfter };
  });
  const summary = (ratios) =>
    ratios.length === 0
      ? { compactions: 0 }
      : {
          compactions: ratios.length,
          worst: Math.max(...ratios.map((ratio) => Math.abs(ratio - 1))),
          min: Math.min(...ratios),
          max: Math.max(...ratios),
        };
  rows.push({ class: name, maxTokens, hook: summary(hookRatios), aiSdk: summary(adapterRatios) });
}

const fmt = (side) =>
  side.compactions === 0
    ? "no compaction"
    : `${side.compactions} compactions, ×${side.min.toFixed(3)}–×${side.max.toFixed(3)}`;
console.log(
  `tokensAfter ÷ the provider's (o200k) count of the request returned, a window of a third of each loop, what travels apart ${FIXED} tokens:`,
);
console.log("| class | window | the hook | the AI SDK's toPrepareStep |");
console.log("| --- | --- | --- | --- |");
for (const row of rows) console.log(`| ${row.class} | ${row.maxTokens} | ${fmt(row.hook)} | ${fmt(row.aiSdk)} |`);
const worst = Math.max(...rows.flatMap((row) => [row.hook.worst ?? 0, row.aiSdk.worst ?? 0]));
console.log(`worst: ${(worst * 100).toFixed(1)}% from the provider's count (target ≤ 10%)`);
writeFileSync(
  new URL("./counted-after.json", import.meta.url),
  `${JSON.stringify({ windowShare: WINDOW_SHARE, fixed: FIXED, rows, worst }, null, 2)}\n`,
);
process.exitCode = worst <= 0.1 ? 0 : 1;
