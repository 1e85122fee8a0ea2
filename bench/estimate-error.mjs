// How far the estimate (UTF-8 bytes / 4 of each message's JSON) is from what a provider bills, per
// content class, against two public tokenizers that ship their vocabularies in their packages:
// o200k (gpt-tokenizer: GPT-4o, GPT-4.1, o-series) and Llama 3's (llama3-tokenizer-js). Nothing is
// downloaded at run time. Each text is the content of one tool message, as a tool's output reaches
// the hook; its estimate is `estimateTokens` of that message, its count the tokenizer's count of
// the text plus 4 tokens of framing (roughly what a chat API adds per message, as bench/billed.mjs
// counts it). Writes bench/estimate-error.json; `npm run bench:readme` puts the table in
// docs/counting.md. Run: npm run bench:estimate
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { countTokens as o200k } from "gpt-tokenizer/encoding/o200k_base";
import llama3Tokenizer from "llama3-tokenizer-js";
import { estimateTokens } from "../dist/index.js";
import { generatedSamples, sessionToolOutput, transcriptSamples } from "./content-samples.mjs";
import { loadTranscripts } from "./data.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const FRAMING = 4;
const llama3 = (text) => llama3Tokenizer.encode(text, { bos: false, eos: false }).length;

const { transcripts, source } = loadTranscripts();
const real = transcriptSamples(transcripts);
const generated = generatedSamples();
const sessionsRoot = join(here, "..", "..", "shared", "data", "sessions");
const sessions = existsSync(sessionsRoot) ? sessionToolOutput(sessionsRoot) : new Map();

/** The classes measured, in the order of the table: what each is, and its texts. */
const classes = [
  {
    name: "English prose",
    key: "prose",
    what: "the user's and the agent's own words in the tau-bench conversations",
    texts: real.prose,
  },
  { name: "code", key: "code", what: "the moatless runs' code views (line-numbered source)", texts: real.code },
  ...(sessions.has("claude-code")
    ? [
        {
          name: "code, line-numbered",
          key: "code-numbered",
          what: "Claude Code's file reads in the real sessions (`   12→` before each line)",
          texts: sessions.get("claude-code").filter((text) => /^\s*\d+→/.test(text)),
        },
      ]
    : []),
  {
    name: "JSON records",
    key: "json",
    what: "tau-bench's tool results (user, order and flight records)",
    texts: real.json,
  },
  {
    name: "CSV of timestamps and numbers",
    key: "csv",
    what: "a metrics export: ISO timestamps, then five numbers a row (generated)",
    texts: generated.csv,
  },
  { name: "UUIDs", key: "uuid", what: "version 4 UUIDs, one a line (generated)", texts: generated.uuid },
  { name: "hex ids", key: "hex", what: "40- and 24-digit hex ids, one a line (generated)", texts: generated.hex },
  { name: "base64", key: "base64", what: "random bytes in 76-character lines (generated)", texts: generated.base64 },
  {
    name: "CJK text",
    key: "cjk",
    what: "Japanese, Chinese and Korean sentences of a support conversation",
    texts: generated.cjk,
  },
  {
    name: "emoji-heavy text",
    key: "emoji",
    what: "chat lines of words and emoji: ZWJ sequences, flags, skin tones (generated)",
    texts: generated.emoji,
  },
  ...[...real.toolOutput].map(([dataset, texts]) => ({
    name: `tool output: ${dataset}`,
    key: `tool:${dataset}`,
    what: `every tool result of the ${dataset} transcripts`,
    texts,
  })),
  ...[...sessions].map(([agent, texts]) => ({
    name: `tool output: ${agent} sessions`,
    key: `tool:${agent}`,
    what: `every tool result of the real ${agent} sessions`,
    texts,
  })),
];

const rows = classes.map(({ name, key, what, texts }) => {
  let bytes = 0;
  let estimate = 0;
  let o200kTokens = 0;
  let llama3Tokens = 0;
  // The worst text: where one message alone is furthest under its o200k count.
  let worst = 0;
  texts.forEach((text, index) => {
    const messageEstimate = estimateTokens([{ role: "tool", tool_call_id: `call_${index}`, content: text }]);
    const count = o200k(text) + FRAMING;
    bytes += Buffer.byteLength(text);
    estimate += messageEstimate;
    o200kTokens += count;
    llama3Tokens += llama3(text) + FRAMING;
    worst = Math.max(worst, count / messageEstimate);
  });
  return {
    name,
    key,
    what,
    texts: texts.length,
    bytes,
    estimate,
    o200k: o200kTokens,
    llama3: llama3Tokens,
    o200kRatio: o200kTokens / estimate,
    llama3Ratio: llama3Tokens / estimate,
    worstO200kRatio: worst,
  };
});

const n = (value) => value.toLocaleString("en-US");
const header = [
  "class",
  "texts",
  "bytes",
  "estimate",
  "o200k",
  "Llama 3",
  "o200k ÷ estimate",
  "Llama 3 ÷ estimate",
  "worst text, o200k",
];
const table = rows.map((r) => [
  r.name,
  n(r.texts),
  n(r.bytes),
  n(r.estimate),
  n(r.o200k),
  n(r.llama3),
  `${r.o200kRatio.toFixed(2)}×`,
  `${r.llama3Ratio.toFixed(2)}×`,
  `${r.worstO200kRatio.toFixed(2)}×`,
]);
const widths = header.map((title, column) => Math.max(title.length, ...table.map((row) => row[column].length)));
const line = (cells) =>
  cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join("  ");
console.log(
  `Estimate against o200k and Llama 3, per content class (transcripts: ${source}${sessions.size > 0 ? ", sessions: ../shared/data/sessions" : ""})\n`,
);
console.log(line(header));
for (const row of table) console.log(line(row));
console.log("\nratio > 1: the tokenizer counts more than the estimate (the estimate is low, unsafe for a budget)");

const result = {
  date: new Date().toISOString(),
  node: process.versions.node,
  tokenizers: { o200k: "gpt-tokenizer 4.0.0, o200k_base", llama3: "llama3-tokenizer-js 1.2.0" },
  framing: FRAMING,
  transcripts: source,
  sessions: sessions.size > 0 ? "../shared/data/sessions" : null,
  rows,
};
writeFileSync(new URL("./estimate-error.json", import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
console.log("wrote bench/estimate-error.json");
