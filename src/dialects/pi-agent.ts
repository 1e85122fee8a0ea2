// pi (`@earendil-works/pi-agent-core` and `pi-ai`, formerly `@mariozechner/*`): an assistant
// message's `{ type: "toolCall", id, name, arguments }` content part is answered by a separate
// `{ role: "toolResult", toolCallId, toolName, content, isError }` message. Up to 0.85 the system
// prompt and the tools travel beside the messages (`systemPrompt`); from 0.86 they are the
// transcript's system messages (`{ role: "system", content, sections?, toolsAdded?, toolsRemoved? }`),
// the leading one and any later one that changes them, which pi replays in order. Either way a
// summary is a user message, with the `timestamp` every pi message carries; pi's default
// `convertToLlm` sends system, user, assistant and tool-result messages and drops any other.
import {
  argumentText,
  asRecord,
  carriesSignature,
  contentAsText,
  cutArgumentsObject,
  indicesWhere,
  leadingContentText,
  records,
  replaceEntries,
  someRecord,
  stringField,
  textParts,
} from "./content-parts.js";
import type { Dialect, MessagePart, MessageRecord, MessageView } from "./dialect.js";
import { piAgentClaims, isPiAssistant, isPiToolResult as isToolResult } from "./format-claims.js";

export { piPayload } from "./provider-payload.js";

const toolPartTypes: ReadonlySet<string> = new Set(["toolCall"]);

const callIndices = (m: MessageRecord): number[] => indicesWhere(m["content"], (part) => part["type"] === "toolCall");

export const piAgent: Dialect = {
  name: "pi-agent",
  claims: piAgentClaims,
  // pi's messages are extensible (an app declares its own kinds, which its `convertToLlm` drops or maps): any role is pi's.
  reads: (m) => typeof m["role"] === "string",
  signed: (m) => m["role"] === "assistant" && someRecord(m["content"], carriesSignature),
  role: (m) => (isToolResult(m) ? "tool" : stringField(m, "role")),
  forEachToolCall(m, visit) {
    for (const part of records(m["content"]))
      if (part["type"] === "toolCall" && typeof part["id"] === "string") visit(part["id"]);
  },
  forEachToolResult(m, visit) {
    if (isToolResult(m) && typeof m["toolCallId"] === "string") visit(m["toolCallId"]);
  },
  leadingText: (m) => (isToolResult(m) ? undefined : leadingContentText(m["content"])),
  opensToolGroup: (m) => m["role"] === "assistant",
  bindsToNext: () => false,
  resultTexts: (m) => (isToolResult(m) ? [contentAsText(m["content"], toolPartTypes)] : []),
  replaceResults: (m, texts) => {
    const text = texts.get(0);
    return isToolResult(m) && text !== undefined ? { ...m, content: [{ type: "text", text }] } : m;
  },
  argumentTexts: (m) =>
    callIndices(m).map((index) => argumentText(asRecord((m["content"] as unknown[])[index])?.["arguments"])),
  replaceArguments: (m, texts) =>
    replaceEntries(m, { field: "content", slots: callIndices(m) }, texts, (part, text) => ({
      ...part,
      arguments: cutArgumentsObject(text),
    })),
  describe: describePiAgent,
  textMessage: (_role, text) => ({ role: "user", content: text, timestamp: Date.now() }),
};

/** What a pi message says, in dialect-free terms. */
export function describePiAgent(m: MessageRecord): MessageView {
  if (isToolResult(m)) {
    const output = contentAsText(m["content"], toolPartTypes);
    return {
      role: "tool",
      parts: [
        {
          kind: "result",
          id: stringField(m, "toolCallId"),
          name: stringField(m, "toolName"),
          output,
          isError: m["isError"] === true,
        },
      ],
    };
  }
  const view: MessagePart[] = textParts(m["content"], toolPartTypes);
  for (const part of records(m["content"])) {
    if (part["type"] === "toolCall")
      view.push({
        kind: "call",
        id: stringField(part, "id"),
        name: stringField(part, "name"),
        input: part["arguments"] ?? {},
      });
  }
  return { role: stringField(m, "role"), parts: view };
}

/**
 * What the provider reported for the last request, from the transcript itself: every pi assistant
 * message carries the `usage` of the request that produced it, and that request held every message
 * before it. Input, cache reads and cache writes together are the request's input tokens.
 */
export function piReportedUsage(
  messages: readonly object[],
): { inputTokens: number; messageCount: number } | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const m = messages[index] as MessageRecord;
    if (!isPiAssistant(m)) continue;
    const usage = asRecord(m["usage"]);
    const total = [usage?.["input"], usage?.["cacheRead"], usage?.["cacheWrite"]].reduce<number>(
      (sum, value) => sum + (typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0),
      0,
    );
    // A failed or aborted request reports nothing: an earlier one may still have.
    if (total > 0) return { inputTokens: total, messageCount: index };
  }
  return undefined;
}

/**
 * The compacted request with every system message of the transcript it left out put back: pi
 * (from 0.86) replays the transcript's system messages in order into the prompt and tools of each
 * request, so a later one (added instructions, a replaced prompt section, a tool added or removed)
 * that fell in the summarized part would take its instructions or its tool out of every request
 * after it. Each comes back as the same object, in its order, right after the request's leading
 * system messages, where the summarized part began: the replayed prompt and tools are those of the
 * whole transcript. The request is unchanged when none was left out (always so up to 0.85).
 */
export function withPiSystemMessages<M extends object>(transcript: readonly M[], compacted: readonly M[]): M[] {
  const kept = new Set<object>(compacted);
  const left = transcript.filter((m) => (m as MessageRecord)["role"] === "system" && !kept.has(m));
  if (left.length === 0) return compacted as M[];
  let head = 0;
  while (head < compacted.length && (compacted[head] as MessageRecord)["role"] === "system") head++;
  return [...compacted.slice(0, head), ...left, ...compacted.slice(head)];
}
