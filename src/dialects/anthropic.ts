// Anthropic Messages: an assistant `{ type: "tool_use", id }` block answered by a `{ type:
// "tool_result", tool_use_id }` block in the next *user* message, which is therefore part of a
// tool group and not a user turn.
import { contentAsText, leadingContentText, stringField, textParts } from "./content-parts.js";
import type { Dialect, MessagePart, MessageRecord } from "./dialect.js";

const toolPartTypes: ReadonlySet<string> = new Set(["tool_use", "tool_result"]);
const claimedTypes = new Set(["tool_use", "tool_result", "thinking", "redacted_thinking"]);

function blocks(m: MessageRecord): MessageRecord[] {
  const content = m["content"];
  return Array.isArray(content) ? content.filter((part): part is MessageRecord => typeof part === "object" && part !== null) : [];
}

/** Indices (in `content`) of the tool results whose payload can be replaced: those in user messages. */
function resultIndices(m: MessageRecord): number[] {
  if (m["role"] !== "user" || !Array.isArray(m["content"])) return [];
  const indices: number[] = [];
  (m["content"] as unknown[]).forEach((part, index) => {
    if ((part as MessageRecord | null)?.["type"] === "tool_result") indices.push(index);
  });
  return indices;
}

export const anthropic: Dialect = {
  name: "anthropic",
  claims: (m) => blocks(m).some((part) => claimedTypes.has(part["type"] as string) || (part["type"] === "image" && "source" in part)),
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
    resultIndices(m).map((index) => contentAsText(((m["content"] as unknown[])[index] as MessageRecord)["content"], toolPartTypes)),
  replaceResults(m, texts) {
    if (texts.size === 0) return m;
    const indices = resultIndices(m);
    const content = (m["content"] as unknown[]).slice();
    for (const [slot, text] of texts) {
      const index = indices[slot];
      if (index !== undefined) content[index] = { ...(content[index] as MessageRecord), content: text };
    }
    return { ...m, content };
  },
  describe(m) {
    const parts: MessagePart[] = textParts(m["content"], toolPartTypes);
    for (const part of blocks(m)) {
      if (part["type"] === "tool_use") {
        parts.push({ kind: "call", id: stringField(part, "id"), name: stringField(part, "name"), input: part["input"] });
      } else if (part["type"] === "tool_result") {
        const output = contentAsText(part["content"], toolPartTypes);
        parts.push({ kind: "result", id: stringField(part, "tool_use_id"), name: undefined, output, isError: part["is_error"] === true });
      }
    }
    return { role: stringField(m, "role"), parts };
  },
  textMessage: (role, text) => ({ role, content: text }),
};
