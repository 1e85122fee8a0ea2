import { utf8ByteLength } from "../counting/utf8-length.js";
import { stringify } from "../dialects/content-parts.js";
import type { MessageRecord } from "../dialects/dialect.js";
import { messagesToSummarize } from "./build-summary-prompt.js";
import { dialectOf } from "../dialects/registry.js";
import { SUMMARY_PREFIX } from "../hook/constants.js";
import type { AnyMessage } from "../hook/types.js";
import { REDACTED, isSecretName, redactSecrets } from "../text/redact-secrets.js";
import { scanIdentifiers } from "../text/scan-identifiers.js";
import { expectedMessage } from "../validation/describe-value.js";
import { rejectUnknownKeys } from "../validation/unknown-keys.js";

/** Options of `extractiveSummary`. */
export interface ExtractiveSummaryOptions {
  /** The longest summary, in tokens as `estimateTokens` counts text in a message (UTF-8 bytes / 4 of its JSON string). */
  maxTokens: number;
  /** The earlier summary, carried forward first. */
  previousSummary?: string | undefined;
}

// Counted as the estimate counts the text inside a message: JSON-escaped (a newline is two bytes).
const tokensOf = (text: string): number => Math.ceil(utf8ByteLength(JSON.stringify(text)) / 4);

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

/** The identifiers of a tool call's arguments (ids, paths, URLs, amounts), walked through nested values; secrets left out. */
function collectIdentifiers(value: unknown, found: string[], depth = 0): void {
  if (depth > 8 || found.length > 1000) return;
  if (typeof value === "string") {
    const trimmed = value.trim();
    if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
      try {
        return collectIdentifiers(JSON.parse(trimmed), found, depth + 1);
      } catch {
        // not JSON after all: read as text
      }
    }
    scanIdentifiers(trimmed, (identifier) => {
      if (redactSecrets(identifier) === identifier) found.push(identifier);
      return found.length <= 1000;
    });
  } else if (typeof value === "number" && Number.isFinite(value) && !Number.isInteger(value)) {
    found.push(String(value));
  } else if (Array.isArray(value)) {
    for (const item of value.slice(0, 100)) collectIdentifiers(item, found, depth + 1);
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value).slice(0, 100)) if (!isSecretName(key)) collectIdentifiers(item, found, depth + 1);
  }
}
const errorPattern = /\b(error|exception|traceback|failed|failure|not found|denied|invalid)\b/i;

/**
 * A summary made without a model: deterministic, within `maxTokens`, from what the messages say
 * in any dialect. It carries the previous summary forward, quotes the opening words of each user
 * request, lists the tool calls made (name, a short form of the arguments) with their outcome,
 * the errors seen, and the identifiers (paths, URLs, ids, amounts) of the tool calls' arguments.
 * When the budget is short, the newest of each kind are kept. Usable as a `summarize` that needs
 * no model, and what `onError: "fallback"` uses when `summarize` fails.
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
  const identifiers: string[] = [];
  const names = new Map<string, string>();
  const callLines = new Map<string, number>();
  // The earlier summary comes in as `previousSummary`: the message that holds it is not read again.
  for (const message of messagesToSummarize(older, { previousSummary })) {
    if (typeof message !== "object" || message === null) continue;
    let view;
    try {
      view = dialectOf(message).describe(message as MessageRecord);
    } catch {
      continue;
    }
    for (const part of view.parts) {
      if (part.kind === "text" && view.role === "user") requests.push(`- "${short(part.text, 200)}"`);
      else if (part.kind === "call") {
        let args: string;
        try {
          collectIdentifiers(part.input, identifiers);
          args = stringify(withoutSecretFields(part.input ?? ""));
        } catch {
          // arguments that cannot be walked (a throwing getter) give no identifiers
          args = stringify(part.input ?? "");
        }
        if (part.id !== undefined && part.name !== undefined) names.set(part.id, part.name);
        if (part.id !== undefined) callLines.set(part.id, calls.length);
        calls.push(`- ${part.name ?? "tool"}(${short(args, 80)})`);
      } else if (part.kind === "result") {
        const outcome = short(part.output, 100);
        const at = part.id === undefined ? undefined : callLines.get(part.id);
        if (at !== undefined) calls[at] = `${calls[at]} → ${outcome}`;
        else calls.push(`- ${part.name ?? (part.id ? names.get(part.id) : undefined) ?? "tool"} → ${outcome}`);
        if (part.isError || errorPattern.test(part.output.slice(0, 2000))) {
          errors.push(`- ${part.name ?? (part.id ? names.get(part.id) : undefined) ?? "tool"}: ${short(part.output, 160)}`);
        }
      }
    }
  }

  // Each kind in turn takes what it needs of what is left, up to its share; the newest lines first.
  const sections: { title: string; lines: string[]; share: number }[] = [
    { title: "Earlier summary", lines: previousSummary?.trim() ? [previousSummary.trim()] : [], share: 0.35 },
    { title: "User requests (their own words)", lines: requests, share: 0.3 },
    { title: "Errors", lines: errors, share: 0.15 },
    { title: "Identifiers", lines: [...new Set(identifiers.reverse())].reverse().map((id) => `- ${id}`), share: 0.15 },
    { title: "Tool calls and outcomes", lines: calls, share: 1 },
  ];
  const header = "(A summary made without a model, from the messages themselves.)";
  let left = maxTokens - tokensOf(header);
  const blocks: string[] = [];
  for (const { title, lines, share } of sections) {
    if (lines.length === 0 || left <= 0) continue;
    let room = Math.floor(left * share) - tokensOf(`\n\n${title}:`);
    if (title === "Earlier summary") {
      // The previous summary is one block: cut at its end when it does not fit whole.
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
  let text = [header, ...blocks].join("\n\n");
  // Rounding across lines may leave it a few tokens over: the end gives way.
  while (tokensOf(text) > maxTokens && text.length > 0) text = text.slice(0, Math.max(0, text.length - Math.max(1, (tokensOf(text) - maxTokens) * 4)));
  return text.startsWith(SUMMARY_PREFIX) ? text.slice(SUMMARY_PREFIX.length) : text;
}
