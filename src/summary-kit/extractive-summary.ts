import { utf8ByteLength } from "../counting/utf8-length.js";
import { countWordPieces } from "../counting/word-pieces.js";
import { stringify } from "../dialects/content-parts.js";
import type { MessageRecord } from "../dialects/dialect.js";
import { messagesToSummarize } from "./build-summary-prompt.js";
import { dialectOf } from "../dialects/registry.js";
import { SUMMARY_PREFIX } from "../ground/constants.js";
import type { AnyMessage } from "../ground/types.js";
import { REDACTED, isSecretName, redactSecrets, secretTest } from "../text/redact-secrets.js";
import { scanIdentifiers } from "../text/scan-identifiers.js";
import { expectedMessage } from "../ground/describe-value.js";
import { rejectUnknownKeys } from "../ground/unknown-keys.js";

/** Options of `extractiveSummary`. */
export interface ExtractiveSummaryOptions {
  /** The longest summary, in tokens as `estimateTokens` counts text in a message (UTF-8 bytes / 4 of its JSON string), and never below its word pieces. */
  maxTokens: number;
  /** The earlier summary, carried forward first. */
  previousSummary?: string | undefined;
}

// Counted as the estimate counts the text inside a message (JSON-escaped: a newline is two bytes),
// and never below its word pieces: a list of ids and amounts is far denser in tokens than bytes / 4
// says, and a summary that fills its budget by bytes alone would overflow the window it was made for.
const tokensOf = (text: string): number => Math.max(Math.ceil(utf8ByteLength(JSON.stringify(text)) / 4), countWordPieces(text));

/**
 * One line of text, shortened to `max` characters with an ellipsis, its secrets redacted. Only a
 * window at the start is read: enough to hold `max` characters after whitespace is collapsed, and
 * any secret that starts within them whole.
 */
function short(text: string, max: number): string {
  const window = text.length > max * 4 + 600 ? text.slice(0, max * 4 + 600) : text;
  const flat = redactSecrets(window.replace(/\s+/g, " ").trim());
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1))}…`;
}

/** Tool-call arguments with the values of secret-named fields (`password`, `api_key`, `token`, …) redacted. */
function withoutSecretFields(value: unknown, depth = 0): unknown {
  if (depth > 8 || typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.slice(0, 100).map((item) => withoutSecretFields(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value).slice(0, 100)) copy[key] = isSecretName(key) ? REDACTED : withoutSecretFields(item, depth + 1);
  return copy;
}

const errorPattern = /\b(error|exception|traceback|failed|failure|not found|denied|invalid)\b/i;

/**
 * A summary made without a model: deterministic, within `maxTokens`, from what the messages say
 * in any dialect. It ranks facts, not characters: the identifiers the user and the agent wrote
 * (their messages, the tool calls' arguments) first, then those of tool results the agent went on
 * to act on, then the rest, newest first within each; each with the few words that say what it is
 * (`order_id #W2378156`, `amount 250`, read by key from JSON results). Around them: the user's
 * requests quoted, the tool calls made with their outcome, and the errors seen; what is left of the
 * budget goes to facts. A rolled summary of its own merges in section by section; any other
 * previous summary is carried forward as one block. Secrets are redacted. Usable as a `summarize`
 * that needs no model, and what `onError: "fallback"` uses when `summarize` fails.
 *
 * @param older - the messages to summarize; any array (what cannot be read is skipped)
 * @param options - `maxTokens`, and `previousSummary` to carry forward
 * @returns the summary text
 * @example
 * ```ts
 * const beforeLlm = compactor({ maxTokens: 100_000, summarize: (older, { maxSummaryTokens, previousSummary }) => extractiveSummary(older, { maxTokens: maxSummaryTokens, previousSummary }) });
 * ```
 */
export function extractiveSummary(older: readonly AnyMessage[], options: ExtractiveSummaryOptions): string {
  if (!Array.isArray(older)) throw new TypeError(expectedMessage("older", "an array of messages", older));
  if (typeof options !== "object" || options === null) throw new TypeError(expectedMessage("options", "an object", options));
  rejectUnknownKeys(options, ["maxTokens", "previousSummary"], "");
  const { maxTokens, previousSummary } = options;
  if (typeof maxTokens !== "number" || !Number.isInteger(maxTokens) || maxTokens < 1) {
    throw new (typeof maxTokens === "number" ? RangeError : TypeError)(expectedMessage("maxTokens", "a positive integer", maxTokens));
  }

  const requests: string[] = [];
  const calls: string[] = [];
  const errors: string[] = [];
  const facts: Fact[] = [];
  const names = new Map<string, string>();
  const callLines = new Map<string, number>();
  // Where the agent last wrote each identifier: a result's identifier the agent wrote after it is one it acted on.
  const agentWrote = new Map<string, number>();
  const earlier = earlierSections(previousSummary);
  // The earlier summary comes in as `previousSummary`: the message that holds it is not read again.
  const messages = messagesToSummarize(older, { previousSummary });
  for (let order = 0; order < messages.length; order++) {
    const message = messages[order];
    if (typeof message !== "object" || message === null) continue;
    let view;
    try {
      view = dialectOf(message).describe(message as MessageRecord);
    } catch {
      continue;
    }
    for (const part of view.parts) {
      if (part.kind === "text" && (view.role === "user" || view.role === "assistant")) {
        if (view.role === "user") requests.push(`- "${short(part.text, 200)}"`);
        for (const fact of textFacts(part.text, view.role === "user" ? "user" : "agent", 0, order)) {
          facts.push(fact);
          if (view.role === "assistant") agentWrote.set(fact.identifier, order);
        }
      } else if (part.kind === "call") {
        let args: string;
        try {
          args = stringify(withoutSecretFields(part.input ?? ""));
          for (const fact of valueFacts(part.input, `${part.name ?? "tool"}()`, 0, order)) {
            facts.push(fact);
            agentWrote.set(fact.identifier, order);
          }
        } catch {
          // arguments that cannot be walked (a throwing getter) give no facts
          args = stringify(part.input ?? "");
        }
        if (part.id !== undefined && part.name !== undefined) names.set(part.id, part.name);
        if (part.id !== undefined) callLines.set(part.id, calls.length);
        calls.push(`- ${part.name ?? "tool"}(${short(args, 80)})`);
      } else if (part.kind === "result") {
        const name = part.name ?? (part.id ? names.get(part.id) : undefined) ?? "tool";
        const outcome = short(part.output, 100);
        const at = part.id === undefined ? undefined : callLines.get(part.id);
        if (at !== undefined) calls[at] = `${calls[at]} → ${outcome}`;
        else calls.push(`- ${name} → ${outcome}`);
        if (part.isError || errorPattern.test(part.output.slice(0, 2000))) errors.push(`- ${name}: ${short(part.output, 160)}`);
        facts.push(...resultFacts(part.output, `${name} result`, order));
      }
    }
  }
  // Identifiers of results rank above the rest when the agent wrote them after the result: it acted on them.
  for (const fact of facts) if (fact.tier === 2 && (agentWrote.get(fact.identifier) ?? -1) > fact.order) fact.tier = 1;
  facts.push(...earlier.facts);

  // Each kind in turn takes what it needs of what is left, up to its share; the newest lines first.
  // A rolled summary of this function's own merges section by section; another one is kept as a block.
  const sections: { title: string; lines: string[]; share: number }[] = [
    { title: "Earlier summary", lines: earlier.foreign === undefined ? [] : [earlier.foreign], share: 0.35 },
    { title: REQUESTS, lines: [...earlier.sections.get(REQUESTS) ?? [], ...requests], share: 0.25 },
    { title: ERRORS, lines: [...earlier.sections.get(ERRORS) ?? [], ...errors], share: 0.1 },
    { title: CALLS, lines: [...earlier.sections.get(CALLS) ?? [], ...calls], share: 0.2 },
  ];
  let left = maxTokens - tokensOf(HEADER);
  const blocks: string[] = [];
  for (const { title, lines, share } of sections) {
    if (lines.length === 0 || left <= 0) continue;
    let room = Math.floor(left * share) - tokensOf(`\n\n${title}:`);
    if (title === "Earlier summary") {
      // A previous summary not written here is one block: cut at its end when it does not fit whole.
      const whole = lines[0] as string;
      const text = redactSecrets(whole.length > room * 4 + 600 ? whole.slice(0, room * 4 + 600) : whole);
      const kept = room >= tokensOf(text) ? text : `${text.slice(0, Math.max(0, room * 4 - 8))}…`;
      if (room > 2) {
        blocks.push(`${title}:\n${kept}`);
        left -= tokensOf(`\n\n${title}:\n${kept}`);
      }
      continue;
    }
    const kept: string[] = [];
    for (let index = lines.length - 1; index >= 0; index--) {
      const cost = tokensOf(`${lines[index] as string}\n`);
      if (cost > room) break;
      kept.unshift(lines[index] as string);
      room -= cost;
    }
    if (kept.length === 0) continue;
    const omitted = lines.length - kept.length;
    const block = `${title}:${omitted > 0 ? ` (${omitted} earlier left out)` : ""}\n${kept.join("\n")}`;
    blocks.push(block);
    left -= tokensOf(`\n\n${block}`);
  }
  const factBlock = factsBlock(facts, left - tokensOf(`\n\n${FACTS}:`));
  if (factBlock !== undefined) blocks.push(factBlock);
  let text = [HEADER, ...blocks].join("\n\n");
  // Rounding across lines may leave it a few tokens over: the end gives way.
  while (tokensOf(text) > maxTokens && text.length > 0) text = text.slice(0, Math.max(0, text.length - Math.max(1, (tokensOf(text) - maxTokens) * 4)));
  return text.startsWith(SUMMARY_PREFIX) ? text.slice(SUMMARY_PREFIX.length) : text;
}

const HEADER = "(A summary made without a model, from the messages themselves.)";
const REQUESTS = "User requests (their own words)";
const ERRORS = "Errors";
const CALLS = "Tool calls and outcomes";
const FACTS = "Facts (ids, names, amounts; what the user and the agent wrote first, then results the agent acted on)";

/** One identifier and the few words that say what it is, ranked for the summary. */
interface Fact {
  identifier: string;
  /** What is shown: `order_id #W2378156`, `amount 250`, or the identifier alone. */
  item: string;
  /** Where it came from, the heading of its line: `user`, `agent`, `get_order() `, `get_order result`. */
  source: string;
  /** 0: written by the user or the agent; 1: in a result the agent acted on; 2: in another result. */
  tier: number;
  /** Position of its message: newer ranks first within a tier. */
  order: number;
}

/** Identifiers of free text, each with the word before it when that word says what it is (`order #W2378156`). */
function textFacts(text: string, source: string, tier: number, order: number): Fact[] {
  const found: Fact[] = [];
  const window = text.length > 200_000 ? text.slice(0, 100_000) + text.slice(-100_000) : text;
  // Judged in context: `hunter2xyz` is a secret after `password: `, not alone.
  const inSecret = secretTest(window);
  scanIdentifiers(window, (identifier, start, end) => {
    if (inSecret(start, end)) return true;
    let wordEnd = start;
    while (wordEnd > 0 && (window.charCodeAt(wordEnd - 1) === 32 || window.charCodeAt(wordEnd - 1) === 58)) wordEnd--;
    let wordStart = wordEnd;
    while (wordStart > 0 && wordEnd - wordStart < 24 && /[A-Za-z]/.test(window.charAt(wordStart - 1))) wordStart--;
    const word = wordStart < wordEnd && wordEnd < start && (wordStart === 0 || !/[A-Za-z]/.test(window.charAt(wordStart - 1))) ? window.slice(wordStart, wordEnd) : "";
    found.push({ identifier, item: word.length >= 2 ? `${word} ${identifier}` : identifier, source, tier, order });
    return found.length < 500;
  });
  return found;
}

/** Identifiers of a structured value (arguments, a JSON result), each with its key: `order_id #W2378156`, `amount 250`. */
function valueFacts(value: unknown, source: string, tier: number, order: number): Fact[] {
  const found: Fact[] = [];
  const visit = (item: unknown, key: string | undefined, depth: number): void => {
    if (depth > 8 || found.length >= 500) return;
    if (typeof item === "string") {
      const trimmed = item.trim();
      if ((trimmed.startsWith("{") || trimmed.startsWith("[")) && trimmed.length < 1_000_000) {
        try {
          return visit(JSON.parse(trimmed), key, depth + 1);
        } catch {
          // not JSON after all: read as text
        }
      }
      for (const fact of textFacts(trimmed, source, tier, order)) {
        found.push(key !== undefined && fact.item === fact.identifier && !fact.identifier.includes(key) ? { ...fact, item: `${key} ${fact.identifier}` } : fact);
      }
    } else if (typeof item === "number" && Number.isFinite(item)) {
      const text = String(item);
      // A number is judged beside its key, as it would be in text: `card_number 4111111111111111` is a card's.
      const shown = key === undefined ? text : `${key} ${text}`;
      if (redactSecrets(shown) !== shown) return;
      if (text.length >= 3 || !Number.isInteger(item)) found.push({ identifier: text, item: shown, source, tier, order });
    } else if (Array.isArray(item)) {
      for (const entry of item.slice(0, 200)) visit(entry, key, depth + 1);
    } else if (typeof item === "object" && item !== null) {
      for (const [name, entry] of Object.entries(item).slice(0, 200)) {
        if (isSecretName(name)) continue;
        // A key that is itself an identifier (`gift_card_7480005`) names what its value describes.
        const keyFacts = textFacts(name, source, tier, order);
        found.push(...keyFacts);
        visit(entry, keyFacts.length > 0 ? keyFacts[0]?.identifier : name, depth + 1);
      }
    }
  };
  visit(value, undefined, 0);
  return found;
}

/** The facts of a tool result: by structure when it is JSON, else the identifiers of its text. */
function resultFacts(output: string, source: string, order: number): Fact[] {
  const trimmed = output.trim();
  if ((trimmed.startsWith("{") || trimmed.startsWith("[")) && trimmed.length < 1_000_000) {
    try {
      return valueFacts(JSON.parse(trimmed), source, 2, order);
    } catch {
      // not JSON: read as text
    }
  }
  return textFacts(output, source, 2, order);
}

/**
 * The facts section within `room` tokens: facts taken by rank (the user's and the agent's own
 * first, then those of results the agent acted on, then the rest; newest first within each), one
 * per identifier, then shown grouped by where they came from, oldest source first.
 */
function factsBlock(facts: Fact[], room: number): string | undefined {
  if (room <= 4 || facts.length === 0) return undefined;
  const ranked = facts.map((fact, index) => ({ fact, index })).sort((a, b) => a.fact.tier - b.fact.tier || b.fact.order - a.fact.order || a.index - b.index);
  const taken = new Set<string>();
  const chosen: { fact: Fact; index: number }[] = [];
  const sources = new Set<string>();
  let left = room;
  for (const entry of ranked) {
    const { identifier, item, source } = entry.fact;
    if (taken.has(identifier)) continue;
    const cost = tokensOf(`${item}; `) + (sources.has(`${entry.fact.order}:${source}`) ? 0 : tokensOf(`\n- ${source}: `));
    if (cost > left) continue;
    taken.add(identifier);
    sources.add(`${entry.fact.order}:${source}`);
    chosen.push(entry);
    left -= cost;
  }
  if (chosen.length === 0) return undefined;
  chosen.sort((a, b) => a.fact.order - b.fact.order || a.index - b.index);
  const lines: string[] = [];
  let current = "";
  for (const { fact } of chosen) {
    const heading = `${fact.order}:${fact.source}`;
    if (heading !== current) {
      lines.push(`- ${fact.source}: ${fact.item}`);
      current = heading;
    } else lines[lines.length - 1] += `; ${fact.item}`;
  }
  return `${FACTS}:\n${lines.join("\n")}`;
}

/**
 * A previous summary made here, split into its sections so that they merge into the new ones
 * (instead of nesting an "earlier summary" in each summary); any other previous summary is kept
 * whole (`foreign`).
 */
function earlierSections(previousSummary: string | undefined): { sections: Map<string, string[]>; facts: Fact[]; foreign: string | undefined } {
  const sections = new Map<string, string[]>();
  const facts: Fact[] = [];
  const text = previousSummary?.trim();
  if (!text) return { sections, facts, foreign: undefined };
  if (!text.startsWith(HEADER)) return { sections, facts, foreign: text };
  for (const block of text.slice(HEADER.length).split("\n\n")) {
    const newline = block.indexOf("\n");
    if (newline === -1) continue;
    const title = block.slice(0, block.indexOf(":"));
    const lines = block.slice(newline + 1).split("\n").filter((line) => line.trim() !== "");
    if (title === FACTS) {
      // Earlier facts rank with those of results the agent acted on, and older than any new one.
      for (const line of lines) {
        const colon = line.indexOf(": ");
        const source = colon === -1 ? "earlier" : line.slice(2, colon);
        for (const item of (colon === -1 ? line.slice(2) : line.slice(colon + 2)).split("; ")) {
          const identifier = item.slice(item.lastIndexOf(" ") + 1);
          if (identifier !== "") facts.push({ identifier, item, source, tier: 1, order: -1 });
        }
      }
    } else sections.set(title, lines);
  }
  return { sections, facts, foreign: undefined };
}
