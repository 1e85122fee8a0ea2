// Rewrites the README's performance section from bench/results.json, so the README quotes exactly
// what the last `npm run bench` printed. Run: npm run bench:readme
import { readFileSync, writeFileSync } from "node:fs";

const results = JSON.parse(readFileSync(new URL("./results.json", import.meta.url), "utf8"));
const readmeUrl = new URL("../README.md", import.meta.url);
const readme = readFileSync(readmeUrl, "utf8");
const { suites: s, accuracy, machine, data } = results;
const ms = (value) => `${value >= 100 ? value.toFixed(0) : value.toFixed(2)} ms`;
const n = (value) => value.toLocaleString("en-US");
const times = (value) => `${value.toFixed(0)}× faster`;

const rows = [
  [`\`estimateTokens\` over all ${data.transcripts} transcripts (${n(s.estimateTokens.tokens)} tokens)`, `\`Σ ceil(Buffer.byteLength(JSON.stringify(m)) / 4)\`: ${ms(s.estimateTokens.native.median)}`, `${ms(s.estimateTokens.estimateTokens.median)}, identical counts`, `${s.estimateTokens.ratio.toFixed(2)}×`],
  [`tail search, ${n(s.tailSearch.messages)}-message session, \`keepTail\` ${n(s.tailSearch.keepTail)}`, `recount \`countTokens(messages.slice(i))\` at every step: ${ms(s.tailSearch.reference.median)}`, `\`splitAtUserBoundary\`: ${ms(s.tailSearch.splitAtUserBoundary.median)}, same split`, `**${times(s.tailSearch.speedup)}**`],
  ["the same with a custom whole-list `countTokens`", `${ms(s.tailSearch.reference.median)}, ${s.tailSearch.reference.calls} counter calls`, `${ms(s.tailSearch.customCounter.median)}, ${s.tailSearch.customCounter.calls} counter calls`, times(s.tailSearch.customCounter.speedup)],
  ["the same with a real tokenizer (o200k)", `${ms(s.realTokenizer.splitReference.ms)}, ${n(s.realTokenizer.splitReference.tokenized)} tokens tokenized`, `${ms(s.realTokenizer.splitWholeList.ms)}, ${n(s.realTokenizer.splitWholeList.tokenized)} tokens tokenized`, times(s.realTokenizer.speedup)],
  ["a hook turn over budget with a real tokenizer", `whole-list tokenizer: ${ms(s.realTokenizer.hookWholeList.ms)}`, `\`createCachedCounter\`, next turn: ${ms(s.realTokenizer.hookCachedNextTurn.ms)} (${s.realTokenizer.hookCachedNextTurn.tokenized} tokens tokenized)`, times(s.realTokenizer.hookWholeList.ms / s.realTokenizer.hookCachedNextTurn.ms)],
  [`a no-op hook call, ${n(s.noOpHook.tokens)}-token transcript`, `one \`estimateTokens\`: ${ms(s.noOpHook.estimateTokens.median)}`, `\`hook({ messages })\`: ${ms(s.noOpHook.hook.median)}`, `${s.noOpHook.ratio.toFixed(2)}×`],
  [`a stateful call that continues from its stored compaction, ${n(s.statefulCall.tokens)}-token input`, `one \`estimateTokens\`: ${ms(s.statefulCall.estimateTokens.median)}`, `\`statefulCompactor\` call, digest checked: ${ms(s.statefulCall.stateful.median)}`, `${s.statefulCall.ratio.toFixed(2)}×`],
  ["keep-the-recent-tail decision, same session", `\`@langchain/core\` \`trimMessages\`: ${ms(s.peers.trimMessages.median)}`, `\`splitAtUserBoundary\`: ${ms(s.peers.splitAtUserBoundary.median)}`, `**${times(1 / s.peers.trimRatio)}**`],
  ["model-free reduction, same session as AI SDK messages", `\`ai\` \`pruneMessages\` (drops old tool calls): ${ms(s.peers.pruneMessages.median)}, ${n(s.peers.tokensBefore)} → ${n(s.peers.pruneMessages.tokensAfter)} tokens`, `\`maskToolResults\` (keeps calls and ids): ${ms(s.peers.maskToolResults.median)}, → ${n(s.peers.maskToolResults.tokensAfter)} tokens`, `${(s.peers.maskToolResults.median / s.peers.pruneMessages.median).toFixed(2)}×`],
];

const section = `<!-- bench:start -->
Measured by \`npm run bench\` on ${results.date.slice(0, 10)}, Node ${machine.node}, ${machine.cpu} (${machine.cores} cores), over ${data.transcripts} real transcripts; every ratio is against a baseline timed in the same run, and \`bench/results.json\` holds every figure.

| what | baseline | context-compactor | ratio |
| --- | --- | --- | --- |
${rows.map((row) => `| ${row.join(" | ")} |`).join("\n")}

Masking alone on the ${s.maskingSavings.transcripts} moatless coding runs (\`keepRecent: 3\`): ${n(s.maskingSavings.tokensBefore)} → ${n(s.maskingSavings.tokensAfter)} tokens, ${(s.maskingSavings.saved * 100).toFixed(0)}% saved.

Estimator accuracy, \`estimateTokens\` ÷ o200k tokens (of each message's text plus 4 tokens of framing, roughly what a chat API bills):

| dataset | all transcripts | per transcript |
| --- | --- | --- |
${Object.entries(accuracy).map(([name, a]) => `| ${name} | ${a.estimatePerBilledToken.toFixed(2)} | ${a.lowest.toFixed(2)}–${a.highest.toFixed(2)} |`).join("\n")}
<!-- bench:end -->`;

const start = readme.indexOf("<!-- bench:start -->");
const end = readme.indexOf("<!-- bench:end -->");
if (start === -1 || end === -1) throw new Error("README.md has no <!-- bench:start --> … <!-- bench:end --> section");
writeFileSync(readmeUrl, readme.slice(0, start) + section + readme.slice(end + "<!-- bench:end -->".length));
console.log("README.md performance section updated from bench/results.json");
