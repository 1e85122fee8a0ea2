import type { InspectReport } from "./inspect.js";
import type { MessageEntry } from "./message-parts.js";
import { redactSecrets } from "../text/redact-secrets.js";

/**
 * The inspect report as one self-contained HTML page: no network, no external asset (its content
 * security policy forbids both), the transcript's text only ever set as text, never as markup. The
 * page draws the transcript as a token timeline coloured by what the plan does with each message,
 * the plan's parts, the tool-pair problems, and a message's JSON on click. What it quotes from the
 * transcript is redacted as the model-free summary is (keys, passwords, card numbers beside a card).
 */
export function htmlReport(report: InspectReport, entries: readonly MessageEntry[]): string {
  // A message's JSON comes redacted (`messageEntries`, before its cut); what else the page quotes
  // from the file, the ids of calls with a pairing problem, is redacted here.
  const redacted = {
    report: {
      ...report,
      toolPairProblems: report.toolPairProblems.map((problem) => ({
        ...problem,
        id: problem.id && redactSecrets(problem.id),
      })),
    },
    entries: entries.map((entry) => ({ ...entry, problems: entry.problems.map(redactSecrets) })),
  };
  // Inside <script>, "</script>" or "<!--" in a message would end or change the block: every "<" is
  // written as its JSON escape, and so are the two line separators older parsers end a line on.
  const data = JSON.stringify(redacted)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>context-compactor inspect: ${escapeHtml(report.file)}</title>
<style>${style}</style>
</head>
<body>
<header><h1>context-compactor inspect</h1><p id="summary"></p><p id="estimate" class="note"></p></header>
<section aria-labelledby="timeline-title">
<h2 id="timeline-title">Token timeline</h2>
<p class="note">One block per message, as wide as its tokens, in order; click one to see it.</p>
<div id="timeline"></div>
<div id="legend"></div>
</section>
<section aria-labelledby="plan-title"><h2 id="plan-title">Plan</h2><p id="plan-line"></p><table id="parts"></table><p id="room" class="note"></p></section>
<section aria-labelledby="pairs-title"><h2 id="pairs-title">Tool pairs</h2><ul id="problems"></ul></section>
<section class="split">
<div><h2>Messages</h2><div class="scroll"><table id="messages"><thead><tr><th>#</th><th>role</th><th>plan</th><th>tokens</th><th>start</th></tr></thead><tbody></tbody></table></div></div>
<aside id="detail" aria-live="polite"><h2>Message</h2><p class="note">Click a block of the timeline or a row.</p></aside>
</section>
<script type="application/json" id="report-data">${data}</script>
<script>${script}</script>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

const style = `
:root { --head: #6b7280; --kept: #2563eb; --summarized: #f59e0b; --masked: #8b5cf6; --cut: #ef4444; --problem: #dc2626; font-family: system-ui, sans-serif; color: #111827; }
body { margin: 0 auto; max-width: 1200px; padding: 16px 24px; }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 20px 0 8px; }
.note { color: #4b5563; font-size: 13px; margin: 4px 0; }
#timeline { position: relative; display: flex; height: 48px; margin-top: 24px; border: 1px solid #d1d5db; background: #f9fafb; }
#timeline .block { flex: var(--tokens) 1 0; min-width: 0; cursor: pointer; border-right: 1px solid rgba(255,255,255,.6); box-sizing: border-box; }
#timeline .block:hover, #timeline .block.selected { outline: 2px solid #111827; outline-offset: -2px; }
#timeline .block.problem { border-bottom: 6px solid var(--problem); }
#timeline .budget { position: absolute; top: -6px; bottom: -6px; width: 0; border-left: 2px dashed #111827; pointer-events: none; }
#timeline .budget span { position: absolute; top: -18px; left: 4px; font-size: 12px; white-space: nowrap; }
.head { background: var(--head); } .kept { background: var(--kept); } .summarized { background: var(--summarized); } .masked { background: var(--masked); } .cut { background: var(--cut); }
#legend { display: flex; gap: 16px; flex-wrap: wrap; font-size: 13px; margin-top: 8px; }
#legend span::before { content: ""; display: inline-block; width: 12px; height: 12px; margin-right: 6px; vertical-align: -1px; background: var(--swatch); }
table { border-collapse: collapse; font-size: 13px; } th, td { text-align: left; padding: 3px 10px 3px 0; } td.number { text-align: right; font-variant-numeric: tabular-nums; }
.split { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 24px; }
.scroll { max-height: 480px; overflow: auto; border: 1px solid #e5e7eb; }
#messages tbody tr { cursor: pointer; } #messages tbody tr:hover, #messages tbody tr.selected { background: #e0e7ff; }
#messages td.start { max-width: 260px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; color: #4b5563; }
.fate { display: inline-block; padding: 0 6px; border-radius: 8px; color: white; font-size: 12px; }
pre { white-space: pre-wrap; word-break: break-word; background: #f3f4f6; padding: 8px; font-size: 12px; max-height: 480px; overflow: auto; }
#problems li, .problem-text { color: var(--problem); } #problems li.ok { color: #047857; }
`;

// Runs in the page. Every string from the transcript goes through textContent.
const script = `
"use strict";
const { report, entries } = JSON.parse(document.getElementById("report-data").textContent);
const words = { head: "system prompt, kept", kept: "kept", summarized: "summarized", masked: "masked", cut: "cut" };
const make = (tag, text, className) => { const node = document.createElement(tag); if (text !== undefined) node.textContent = text; if (className) node.className = className; return node; };
const number = (n) => n.toLocaleString("en-US");
const total = entries.reduce((sum, entry) => sum + entry.tokens, 0);

document.getElementById("summary").textContent = report.file + ": " + report.dialect + ", " + number(report.messages) + " messages, " + number(report.tokens) + " tokens" + (report.budget ? ", budget " + number(report.budget.maxTokens) + " tokens" : "");
if (report.estimate && report.estimate.unsafe) document.getElementById("estimate").textContent = report.estimate.unsafe.message;

const timeline = document.getElementById("timeline");
const blocks = entries.map((entry) => {
  const block = make("div", undefined, "block " + entry.fate + (entry.problems.length ? " problem" : ""));
  block.style.setProperty("--tokens", String(Math.max(entry.tokens, 1)));
  block.dataset.index = String(entry.index);
  block.dataset.fate = entry.fate;
  block.title = "#" + entry.index + " " + entry.role + ", " + number(entry.tokens) + " tokens, " + words[entry.fate];
  block.addEventListener("click", () => select(entry.index));
  timeline.append(block);
  return block;
});
if (report.budget && total > report.budget.maxTokens) {
  const marker = make("div", undefined, "budget");
  marker.style.left = (100 * report.budget.maxTokens / total).toFixed(2) + "%";
  marker.append(make("span", "budget " + number(report.budget.maxTokens)));
  timeline.append(marker);
}
const legend = document.getElementById("legend");
for (const fate of Object.keys(words)) {
  const count = entries.filter((entry) => entry.fate === fate).length;
  if (count === 0) continue;
  const item = make("span", words[fate] + " (" + count + ")");
  item.style.setProperty("--swatch", "var(--" + fate + ")");
  legend.append(item);
}

const planLine = document.getElementById("plan-line");
const parts = document.getElementById("parts");
const room = document.getElementById("room");
if (!report.plan) {
  planLine.textContent = "No budget given: run inspect with --max-tokens N to see what a compaction would keep, summarize, mask and cut.";
} else {
  const shown = report.plan.action === "none" ? report.ifForced : report.plan;
  planLine.textContent = report.plan.action === "none"
    ? "none (" + report.plan.reason + "): the transcript fits. The timeline shows it as sent; a forced compaction would split it as below."
    : report.plan.action + " (" + report.plan.reason + ")";
  const header = parts.insertRow();
  for (const title of ["part", "messages", "tokens"]) header.append(make("th", title));
  for (const [name, part] of [["head", shown.head], ["older (summarized)", shown.older], ["tail (kept)", shown.tail]]) {
    const row = parts.insertRow();
    row.append(make("td", name), make("td", number(part.messages), "number"), make("td", number(part.tokens), "number"));
  }
  if (report.room) room.textContent = report.room;
}

const problems = document.getElementById("problems");
if (report.toolPairProblems.length === 0) problems.append(make("li", "none: every tool call has its result", "ok"));
for (const problem of report.toolPairProblems) problems.append(make("li", "message " + problem.index + ": " + problem.kind + " for call " + (problem.id || "without an id")));

const body = document.querySelector("#messages tbody");
const rows = entries.map((entry) => {
  const row = body.insertRow();
  row.dataset.index = String(entry.index);
  const fate = make("span", words[entry.fate], "fate " + entry.fate);
  const fateCell = make("td"); fateCell.append(fate);
  const start = entry.json.replace(/\\s+/g, " ").slice(0, 120);
  row.append(make("td", String(entry.index), "number"), make("td", entry.role), fateCell, make("td", number(entry.tokens), "number"), make("td", start, "start"));
  row.addEventListener("click", () => select(entry.index));
  return row;
});

let selected;
function select(index) {
  if (selected !== undefined) { blocks[selected].classList.remove("selected"); rows[selected].classList.remove("selected"); }
  selected = index;
  blocks[index].classList.add("selected");
  rows[index].classList.add("selected");
  rows[index].scrollIntoView({ block: "nearest" });
  const entry = entries[index];
  const detail = document.getElementById("detail");
  detail.replaceChildren(make("h2", "Message " + entry.index));
  detail.append(make("p", entry.role + " · " + words[entry.fate] + " · " + number(entry.tokens) + " tokens" + (entry.tokensAfter === undefined ? "" : " → " + number(entry.tokensAfter) + " as sent"), "facts"));
  for (const problem of entry.problems) detail.append(make("p", "Tool pair: " + problem, "problem-text"));
  detail.append(make("pre", entry.json, "message-json"));
  if (entry.jsonAfter !== undefined) { detail.append(make("h2", "As the plan sends it")); detail.append(make("pre", entry.jsonAfter, "message-after")); }
}
`;
