// Anthropic Messages: an assistant `{ type: "tool_use", id }` block answered by a `{ type:
// "tool_result", tool_use_id }` block in the next *user* message, which is therefore part of a
// tool group and not a user turn.
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
  textParts,
} from "./content-parts.js";
import type { Dialect, MessagePart, MessageRecord, MessageView } from "./dialect.js";
import { anthropicClaims } from "./format-claims.js";

const toolPartTypes: ReadonlySet<string> = new Set(["tool_use", "tool_result"]);

const blocks = (m: MessageRecord): readonly MessageRecord[] => records(m["content"]);

/** Indices (in `content`) of the tool results whose payload can be replaced: those in user messages. */
const resultIndices = (m: MessageRecord): number[] =>
  m["role"] === "user" ? indicesWhere(m["content"], (part) => part["type"] === "tool_result") : [];

export const anthropic: Dialect = {
  name: "anthropic",
  claims: anthropicClaims,
  // A leading system prompt is held in the caller's list and sent apart as `system`.
  reads: (m) => m["role"] === "user" || m["role"] === "assistant" || m["role"] === "system",
  // A compaction block is sent back verbatim: its `signature` covers its `content` (SDK CompactionContentMismatchErrorDetails).
  signed: (m) =>
    someRecord(m["content"], (part) => part["type"] === "compaction") ||
    (m["role"] === "assistant" && someRecord(m["content"], carriesSignature)),
  role: (m) => stringField(m, "role"),
  forEachToolCall(m, visit) {
    for (const part of blocks(m)) if (part["type"] === "tool_use" && typeof part["id"] === "string") visit(part["id"]);
  },
  forEachToolResult(m, visit) {
    for (const part of blocks(m)) {
      if (part["type"] === "tool_result" && typeof part["tool_use_id"] === "string") visit(part["tool_use_id"]);
    }
  },
  leadingText: (m) => leadingContentText(m["content"]),
  opensToolGroup: (m) => m["role"] === "assistant",
  bindsToNext: () => false,
  resultTexts: (m) =>
    resultIndices(m).map((index) =>
      contentAsText(((m["content"] as unknown[])[index] as MessageRecord)["content"], toolPartTypes),
    ),
  replaceResults: (m, texts) =>
    replaceEntries(m, { field: "content", slots: resultIndices(m) }, texts, (part, text) => ({
      ...part,
      content: text,
    })),
  argumentTexts: (m) =>
    blocks(m)
      .filter((part) => part["type"] === "tool_use")
      .map((part) => argumentText(part["input"])),
  replaceArguments: (m, texts) =>
    replaceEntries(
      m,
      { field: "content", slots: indicesWhere(m["content"], (part) => part["type"] === "tool_use") },
      texts,
      (part, text) => ({ ...part, input: cutArgumentsObject(text) }),
    ),
  describe: describeAnthropic,
  // The Messages API holds no system message in `messages` (400 `Unexpected role "system"`).
  textMessage: (_role, text) => ({ role: "user", content: text }),
};

/** What an Anthropic message says, in dialect-free terms. */
export function describeAnthropic(m: MessageRecord): MessageView {
  const parts: MessagePart[] = textParts(m["content"], toolPartTypes);
  for (const part of blocks(m)) {
    if (part["type"] === "tool_use") {
      parts.push({
        kind: "call",
        id: stringField(part, "id"),
        name: stringField(part, "name"),
        input: part["input"],
      });
    } else if (part["type"] === "tool_result") {
      const output = contentAsText(part["content"], toolPartTypes);
      parts.push({
        kind: "result",
        id: stringField(part, "tool_use_id"),
        name: undefined,
        output,
        isError: part["is_error"] === true,
      });
    }
  }
  return { role: stringField(m, "role"), parts };
}
