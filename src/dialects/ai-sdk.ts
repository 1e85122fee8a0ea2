// Vercel AI SDK `ModelMessage`: an assistant `{ type: "tool-call", toolCallId }` part answered by a
// `{ type: "tool-result", toolCallId }` part of a `tool` message (or of the same assistant message
// when the provider ran the tool).
import {
  argumentText,
  carriesSignature,
  contentAsText,
  cutArgumentsObject,
  indicesWhere,
  leadingContentText,
  records,
  replaceEntries,
  someRecord,
  stringField,
  stringify,
  textParts,
} from "./content-parts.js";
import type { Dialect, MessagePart, MessageRecord, MessageView } from "./dialect.js";
import { aiSdkClaims, aiSdkToolPartTypes as toolPartTypes } from "./format-claims.js";

const aiSdkRoles: ReadonlySet<unknown> = new Set(["system", "user", "assistant", "tool"]);

const parts = (m: MessageRecord): readonly MessageRecord[] => records(m["content"]);
const resultIndices = (m: MessageRecord): number[] =>
  indicesWhere(m["content"], (part) => part["type"] === "tool-result");

/** A tool output (`{ type: "text" | "json" | "error-text" | "error-json" | "content", value }`) as text. */
function outputText(output: unknown): string {
  if (typeof output === "object" && output !== null && !Array.isArray(output)) {
    const o = output as MessageRecord;
    if (Object.hasOwn(o, "value") && typeof o["type"] === "string") {
      const value = o["value"];
      const text = Array.isArray(value)
        ? contentAsText(value, toolPartTypes)
        : typeof value === "string"
          ? value
          : stringify(value);
      return o["type"].startsWith("error") ? `(error) ${text}` : text;
    }
  }
  return typeof output === "string"
    ? output
    : Array.isArray(output)
      ? contentAsText(output, toolPartTypes)
      : stringify(output);
}

export const aiSdk: Dialect = {
  name: "ai-sdk",
  claims: aiSdkClaims,
  reads: (m) => aiSdkRoles.has(m["role"]),
  // Signatures travel in a part's `providerOptions` (`anthropic.signature`, `google.thoughtSignature`, …).
  signed: (m) => m["role"] === "assistant" && someRecord(m["content"], carriesSignature),
  role: (m) => stringField(m, "role"),
  forEachToolCall(m, visit) {
    for (const part of parts(m))
      if (part["type"] === "tool-call" && typeof part["toolCallId"] === "string") visit(part["toolCallId"]);
  },
  forEachToolResult(m, visit) {
    for (const part of parts(m))
      if (part["type"] === "tool-result" && typeof part["toolCallId"] === "string") visit(part["toolCallId"]);
  },
  leadingText: (m) => leadingContentText(m["content"]),
  opensToolGroup: (m) => m["role"] === "assistant",
  bindsToNext: () => false,
  resultTexts: (m) =>
    resultIndices(m).map((index) => outputText(((m["content"] as unknown[])[index] as MessageRecord)["output"])),
  replaceResults: (m, texts) =>
    replaceEntries(m, { field: "content", slots: resultIndices(m) }, texts, (part, text) => ({
      ...part,
      output: { type: "text", value: text },
    })),
  argumentTexts: (m) =>
    parts(m)
      .filter((part) => part["type"] === "tool-call")
      .map((part) => argumentText(part["input"] ?? part["args"])),
  replaceArguments: (m, texts) =>
    replaceEntries(
      m,
      { field: "content", slots: indicesWhere(m["content"], (part) => part["type"] === "tool-call") },
      texts,
      (part, text) => ({ ...part, input: cutArgumentsObject(text) }),
    ),
  describe: describeAiSdk,
  textMessage: (role, text) => ({ role, content: text }),
};

/** What an AI SDK message says, in dialect-free terms. */
export function describeAiSdk(m: MessageRecord): MessageView {
  const view: MessagePart[] = textParts(m["content"], toolPartTypes);
  for (const part of parts(m)) {
    if (part["type"] === "tool-call") {
      view.push({
        kind: "call",
        id: stringField(part, "toolCallId"),
        name: stringField(part, "toolName"),
        input: part["input"] ?? part["args"],
      });
    } else if (part["type"] === "tool-result") {
      const output = outputText(part["output"] ?? part["result"]);
      view.push({
        kind: "result",
        id: stringField(part, "toolCallId"),
        name: stringField(part, "toolName"),
        output,
        isError: false,
      });
    }
  }
  return { role: stringField(m, "role"), parts: view };
}
