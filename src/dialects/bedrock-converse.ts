// Amazon Bedrock Converse: content blocks are keyed by kind, with no `type` field. An assistant
// `{ toolUse: { toolUseId, name, input } }` block is answered by a `{ toolResult: { toolUseId,
// content, status? } }` block in the next user message, which is part of a tool group, not a user
// turn. The system prompt travels outside the messages (`system`), so a summary is a user message.
import {
  argumentText,
  asRecord as record,
  carriesSignature,
  cutArgumentsObject,
  indicesWhere,
  leadingContentText,
  records,
  replaceEntries,
  someRecord,
  stringField,
  stringify,
} from "./content-parts.js";
import { SUMMARY_REPLY } from "../ground/constants.js";
import type { Dialect, MessagePart, MessageRecord, MessageView } from "./dialect.js";
import { bedrockConverseClaims } from "./format-claims.js";

const blocks = (m: MessageRecord): readonly MessageRecord[] => records(m["content"]);
const resultIndices = (m: MessageRecord): number[] =>
  indicesWhere(m["content"], (block) => record(block["toolResult"]) !== undefined);

function blockNote(block: MessageRecord): string | undefined {
  if (record(block["image"])) return "[image]";
  const document = record(block["document"]);
  if (document) return `[file: ${stringField(document, "name") ?? "document"}]`;
  if (record(block["video"])) return "[video]";
  return undefined;
}

/** A tool result's content blocks (`text`, `json`, `image`, `document`) as text. */
function resultText(content: unknown): string {
  if (!Array.isArray(content)) return stringify(content ?? "");
  return content
    .map((block) => {
      const b = record(block);
      if (b === undefined) return stringify(block);
      if (typeof b["text"] === "string") return b["text"];
      if (Object.hasOwn(b, "json")) return stringify(b["json"]);
      return blockNote(b) ?? stringify(b);
    })
    .join("\n");
}

export const bedrockConverse: Dialect = {
  name: "bedrock-converse",
  claims: bedrockConverseClaims,
  // A leading system prompt is held in the caller's list and sent apart as `system`.
  reads: (m) =>
    Array.isArray(m["content"]) && (m["role"] === "user" || m["role"] === "assistant" || m["role"] === "system"),
  signed: (m) => m["role"] === "assistant" && someRecord(m["content"], carriesSignature),
  role: (m) => stringField(m, "role"),
  forEachToolCall(m, visit) {
    for (const block of blocks(m)) {
      const id = stringField(block["toolUse"], "toolUseId");
      if (id !== undefined) visit(id);
    }
  },
  forEachToolResult(m, visit) {
    for (const block of blocks(m)) {
      const id = stringField(block["toolResult"], "toolUseId");
      if (id !== undefined) visit(id);
    }
  },
  leadingText: (m) => leadingContentText(m["content"]),
  opensToolGroup: (m) => m["role"] === "assistant",
  bindsToNext: () => false,
  resultTexts: (m) =>
    resultIndices(m).map((index) =>
      resultText(record((m["content"] as MessageRecord[])[index]?.["toolResult"])?.["content"]),
    ),
  replaceResults: (m, texts) =>
    replaceEntries(m, { field: "content", slots: resultIndices(m) }, texts, (block, text) => ({
      ...block,
      toolResult: { ...(block["toolResult"] as MessageRecord), content: [{ text }] },
    })),
  argumentTexts: (m) =>
    blocks(m).flatMap((block) => (record(block["toolUse"]) ? [argumentText(record(block["toolUse"])?.["input"])] : [])),
  replaceArguments: (m, texts) =>
    replaceEntries(
      m,
      { field: "content", slots: indicesWhere(m["content"], (block) => record(block["toolUse"]) !== undefined) },
      texts,
      (block, text) => ({
        ...block,
        toolUse: { ...(block["toolUse"] as MessageRecord), input: cutArgumentsObject(text) },
      }),
    ),
  describe: describeBedrockConverse,
  textMessage: (_role, text) => ({ role: "user", content: [{ text }] }),
  // Converse refuses two user messages in a row ("A conversation must alternate between user and assistant roles").
  replyToSummary: () => ({ role: "assistant", content: [{ text: SUMMARY_REPLY }] }),
  withText: (m, text) => ({ ...m, content: [...records(record(m)?.["content"]), { text }] }),
};

/** What a Converse message says, in dialect-free terms. */
export function describeBedrockConverse(m: MessageRecord): MessageView {
  const texts: string[] = [];
  const tools: MessagePart[] = [];
  for (const block of blocks(m)) {
    const use = record(block["toolUse"]);
    const result = record(block["toolResult"]);
    if (typeof block["text"] === "string") texts.push(block["text"]);
    else if (use)
      tools.push({
        kind: "call",
        id: stringField(use, "toolUseId"),
        name: stringField(use, "name"),
        input: use["input"] ?? {},
      });
    else if (result) {
      tools.push({
        kind: "result",
        id: stringField(result, "toolUseId"),
        name: undefined,
        output: resultText(result["content"]),
        isError: result["status"] === "error",
      });
    } else {
      const note = blockNote(block);
      if (note) texts.push(note);
    }
  }
  if (typeof m["content"] === "string") texts.push(m["content"]);
  const text = texts.join("\n");
  return { role: stringField(m, "role"), parts: text.trim() === "" ? tools : [{ kind: "text", text }, ...tools] };
}
