// pi (`@mariozechner/pi-agent-core` and `pi-ai`): an assistant message's `{ type: "toolCall", id,
// name, arguments }` content part is answered by a separate `{ role: "toolResult", toolCallId,
// toolName, content, isError }` message. The system prompt travels outside the messages
// (`systemPrompt`), so a summary is a user message, with the `timestamp` every pi message carries;
// pi's default `convertToLlm` sends user, assistant and tool-result messages and drops any other.
import { argumentText, asRecord, contentAsText, cutArgumentsObject, indicesWhere, jsonLength, leadingContentText, records, replaceEntries, someRecord, stringField, textParts } from "./content-parts.js";
import type { Dialect, MediaPart, MessagePart, MessageRecord } from "./dialect.js";

const toolPartTypes: ReadonlySet<string> = new Set(["toolCall"]);

const isToolResult = (m: MessageRecord) => m["role"] === "toolResult";
// Every pi assistant message says which API and why it stopped: no other format has both fields.
const isPiAssistant = (m: MessageRecord) => m["role"] === "assistant" && typeof m["api"] === "string" && typeof m["stopReason"] === "string";
const callIndices = (m: MessageRecord): number[] => indicesWhere(m["content"], (part) => part["type"] === "toolCall");

export const piAgent: Dialect = {
  name: "pi-agent",
  claims: (m) => isToolResult(m) || isPiAssistant(m) || someRecord(m["content"], (part) => part["type"] === "toolCall"),
  role: (m) => (isToolResult(m) ? "tool" : stringField(m, "role")),
  forEachToolCall(m, visit) {
    for (const part of records(m["content"])) if (part["type"] === "toolCall" && typeof part["id"] === "string") visit(part["id"]);
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
  argumentTexts: (m) => callIndices(m).map((index) => argumentText(asRecord((m["content"] as unknown[])[index])?.["arguments"])),
  replaceArguments: (m, texts) => replaceEntries(m, "content", callIndices(m), texts, (part, text) => ({ ...part, arguments: cutArgumentsObject(text) })),
  media(m) {
    // pi's images carry their base64 in `data`: billed as an image, not as bytes / 4 of it.
    const found: MediaPart[] = [];
    for (const part of records(m["content"])) if (part["type"] === "image") found.push({ kind: "image", dataLength: jsonLength(part["data"]) });
    return found;
  },
  describe(m) {
    if (isToolResult(m)) {
      const output = contentAsText(m["content"], toolPartTypes);
      return { role: "tool", parts: [{ kind: "result", id: stringField(m, "toolCallId"), name: stringField(m, "toolName"), output, isError: m["isError"] === true }] };
    }
    const view: MessagePart[] = textParts(m["content"], toolPartTypes);
    for (const part of records(m["content"])) {
      if (part["type"] === "toolCall") view.push({ kind: "call", id: stringField(part, "id"), name: stringField(part, "name"), input: part["arguments"] ?? {} });
    }
    return { role: stringField(m, "role"), parts: view };
  },
  textMessage: (_role, text) => ({ role: "user", content: text, timestamp: Date.now() }),
};
