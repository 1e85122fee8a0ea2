import type { MessagePart, MessageRecord } from "../dialects/dialect.js";
import { stringify } from "../dialects/content-parts.js";
import { libraryMessagesOf } from "../dialects/library-messages.js";
import { isSummaryMessage, roleOf } from "../dialects/messages.js";
import { dialectOf } from "../dialects/registry.js";
import { expectedMessage } from "../ground/describe-value.js";
import { FLUSH_TO_MEMORY_REMINDER, SUMMARY_PREFIX } from "../ground/constants.js";
import type { AnyMessage } from "../ground/types.js";
import { namedIn } from "../text/cut-middle.js";
import { cutPayload } from "../text/cut-payload.js";
import { withoutSecretIdentifiers } from "../text/redact-secrets.js";
import { withoutSeal } from "../text/summary-seal.js";
import { optionalInteger, optionsObject } from "../ground/checks.js";

/** Options of `renderTranscript`. */
export interface RenderTranscriptOptions {
  /**
   * Longest tool result (and call argument text) kept whole; longer ones are cut in the middle.
   * @default 2000
   */
  maxResultChars?: number;
}

const capitalized: ReadonlyMap<string, string> = new Map([
  ["user", "User"],
  ["assistant", "Assistant"],
  ["system", "System"],
  ["developer", "Developer"],
  ["tool", "Tool"],
]);

// The summarizing model should see every id, path and name of what is cut for it: the list may
// take twice as much as the kept text (a long test run or file listing names far more than its
// first and last lines show, and the agent goes back to them).
const listChars = (max: number): number => Math.max(400, 2 * max);
// The identifiers are judged in the payload they came from: `hunter2xyz` after `password: ` is left
// out. They were read from the cut's start on, at most 64 times what the list may hold.
const leftOutOf =
  (payload: string, max: number) =>
  (cut: number, identifiers: readonly string[]): string =>
    `[… ${cut} characters left out${namedIn(withoutSecretIdentifiers(identifiers, payload, Math.ceil(max / 2) + Math.max(65_536, listChars(max) * 64)))} …]`;
const cutForSummarizer = (payload: string, max: number): string =>
  cutPayload(payload, max, leftOutOf(payload, max), listChars(max));

/**
 * Renders a transcript of any dialect as plain text for a summarizing model: one block per message
 * (`User:`, `Assistant:`, `Tool call name(args)`, `Tool result (name): …`), each line of a message's
 * text after its first indented by two spaces, so that no text inside a message can start a block
 * of its own (a tool result's `\n\nUser: …` stays inside the result); earlier summaries as
 * `Earlier summary: …`; images and files as short placeholders. Tool results longer than
 * `maxResultChars` are cut in the middle with a marker saying how many characters were left out.
 *
 * @param messages - the messages to render, usually `older` in a `summarize`
 * @param options - `maxResultChars` (default 2000)
 * @returns the text; never throws on an array (a `TypeError` for anything else)
 * @example
 * ```ts
 * const summarize = async (older) => myModel(`Summarize:\n\n${renderTranscript(older)}`);
 * ```
 */
export function renderTranscript(messages: readonly AnyMessage[], options: RenderTranscriptOptions = {}): string {
  return renderMessages(messages, options, true);
}

/**
 * `renderTranscript`, and for `buildSummaryPrompt`, which takes the summary the hook vouched for
 * out itself: with `findSummary` false, every message is rendered as what its author wrote.
 */
export function renderMessages(
  messages: readonly AnyMessage[],
  options: RenderTranscriptOptions,
  findSummary: boolean,
): string {
  return renderBlocks(messages, options, findSummary).join("\n\n");
}

/** The rendered text of each message that shows anything, in order (tool names carry across messages). */
export function renderBlocks(
  messages: readonly AnyMessage[],
  options: RenderTranscriptOptions,
  findSummary: boolean,
): string[] {
  return renderEach(messages, options, findSummary).filter((block) => block !== "");
}

/** The rendered text of every message, in order, `""` for one that shows nothing (tool names carry across messages). */
export function renderEach(
  messages: readonly AnyMessage[],
  options: RenderTranscriptOptions,
  findSummary: boolean,
): string[] {
  if (!Array.isArray(messages)) throw new TypeError(expectedMessage("messages", "an array of messages", messages));
  optionsObject(options, "options", ["maxResultChars"]);
  const max = optionalInteger(options.maxResultChars, "maxResultChars", 0, 2000);
  const toolNames = new Map<string, string>();
  const blocks: string[] = [];
  // An earlier summary is only ever first (after a system prompt, if any), and only with the system
  // role, which a user's text cannot take: a message starting with the prefix anywhere else, or as
  // a user's, is shown as what it is, text of its author (the hook hands the summary it vouches for
  // to `summarize` as `previousSummary`).
  const first: unknown = messages[0];
  const leadingSystem =
    typeof first === "object" && first !== null && roleOf(first) === "system" && !isSummaryMessage(first);
  const made = findSummary ? libraryMessagesOf(messages, leadingSystem ? 1 : 0, "system") : new Set<object>();
  for (const message of messages) {
    if (typeof message !== "object" || message === null) {
      blocks.push("");
      continue;
    }
    let lines: string[];
    try {
      lines = renderMessage(message as MessageRecord, made.has(message), toolNames, max);
    } catch {
      // Never throws on any array: a message too deeply nested or too strange to read is named, not rendered.
      lines = ["[a message that could not be rendered]"];
    }
    blocks.push(lines.join("\n"));
  }
  return blocks;
}

function renderMessage(
  message: MessageRecord,
  madeHere: boolean,
  toolNames: Map<string, string>,
  max: number,
): string[] {
  const dialect = dialectOf(message);
  if (madeHere) {
    const lead = dialect.leadingText(message) ?? "";
    return lead === FLUSH_TO_MEMORY_REMINDER ? [] : [`Earlier summary: ${indented(lead.slice(SUMMARY_PREFIX.length))}`];
  }

  const { role, parts } = dialect.describe(message);
  // A seal tells the hook its own summary; it says nothing to a model.
  const first = parts[0];
  if (first?.kind === "text" && first.text.startsWith(SUMMARY_PREFIX))
    parts[0] = { kind: "text", text: withoutSeal(first.text) };
  const label =
    role === undefined ? undefined : (capitalized.get(role) ?? role.charAt(0).toUpperCase() + role.slice(1));
  const lines: string[] = [];
  for (const part of parts) lines.push(...renderPart(part, label, toolNames, max));
  if (lines.length === 0 && label !== undefined && role !== "tool") lines.push(`${label}: (empty)`);
  return lines;
}

// Every line break a reader may take for one: CR LF, CR, LF, NEL, and the Unicode line and paragraph separators.
const lineBreaks = /\r\n?|[\n\u0085\u2028\u2029]/g;

/**
 * Text of a message as lines of its block: every line after the first is indented by two spaces,
 * so that only the renderer's own labels start a line. A tool result cannot open a line with
 * `User:` and pose as the user.
 */
const indented = (text: string): string => text.replace(lineBreaks, "\n  ");

function renderPart(
  part: MessagePart,
  label: string | undefined,
  toolNames: Map<string, string>,
  max: number,
): string[] {
  switch (part.kind) {
    case "text":
      // Without a role, the text is still labelled: its first line must not be taken for a label.
      return [`${label ?? "Item"}: ${indented(part.text)}`];
    case "note":
      return [indented(part.text)];
    case "call":
      if (part.id !== undefined && part.name !== undefined) toolNames.set(part.id, part.name);
      return [
        `Tool call ${indented(part.name ?? "tool")}(${indented(cutForSummarizer(stringify(part.input ?? ""), max))})`,
      ];
    case "result": {
      const name = (part.id === undefined ? undefined : toolNames.get(part.id)) ?? part.name;
      return [
        `Tool result${name ? ` (${indented(name)})` : ""}${part.isError ? " (error)" : ""}: ${indented(cutForSummarizer(part.output, max))}`,
      ];
    }
  }
}
