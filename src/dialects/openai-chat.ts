// OpenAI chat completions: `assistant.tool_calls[].id` answered by `{ role: "tool", tool_call_id }`.
// Plain text chats (`{ role, content: "…" }`) read the same in every format, so this is also the
// dialect of a message that no other one claims.
import {
  argumentText,
  asRecord,
  contentAsText,
  indicesWhere,
  leadingContentText,
  records,
  replaceEntries,
  stringField,
  textParts,
} from "./content-parts.js";
import type { Dialect, MessagePart, MessageRecord, MessageView } from "./dialect.js";
import { openaiChatClaims, isChatToolResult as isToolResult } from "./format-claims.js";

const noToolParts: ReadonlySet<string> = new Set();
const chatRoles: ReadonlySet<unknown> = new Set(["system", "developer", "user", "assistant", "tool", "function"]);

const toolCalls = (m: MessageRecord): readonly MessageRecord[] => records(m["tool_calls"]);

export const openaiChat: Dialect = {
  name: "openai-chat",
  claims: openaiChatClaims,
  reads: (m) => chatRoles.has(m["role"]),
  // Chat completions carry no signed content: reasoning is not sent back.
  signed: () => false,
  role: (m) => stringField(m, "role"),
  forEachToolCall(m, visit) {
    for (const call of toolCalls(m)) if (typeof call["id"] === "string") visit(call["id"]);
  },
  forEachToolResult(m, visit) {
    if (isToolResult(m)) visit(m["tool_call_id"] as string);
  },
  leadingText: (m) => leadingContentText(m["content"]),
  opensToolGroup: (m) => m["role"] === "assistant",
  bindsToNext: () => false,
  resultTexts: (m) => (isToolResult(m) ? [contentAsText(m["content"], noToolParts)] : []),
  replaceResults: (m, texts) => (texts.has(0) ? { ...m, content: texts.get(0) } : m),
  argumentTexts: (m) => toolCalls(m).map((call) => argumentText(asRecord(call["function"])?.["arguments"])),
  replaceArguments: (m, texts) =>
    replaceEntries(
      m,
      { field: "tool_calls", slots: indicesWhere(m["tool_calls"], () => true) },
      texts,
      (call, text) => ({
        ...call,
        function: { ...asRecord(call["function"]), arguments: text },
      }),
    ),
  describe: describeOpenaiChat,
  textMessage: (role, text) => ({ role, content: text }),
};

/** What an OpenAI chat message says, in dialect-free terms. */
export function describeOpenaiChat(m: MessageRecord): MessageView {
  const role = stringField(m, "role");
  if (isToolResult(m)) {
    const output = contentAsText(m["content"], noToolParts);
    return {
      role,
      parts: [
        { kind: "result", id: m["tool_call_id"] as string, name: stringField(m, "name"), output, isError: false },
      ],
    };
  }
  const parts: MessagePart[] = textParts(m["content"], noToolParts);
  for (const call of toolCalls(m)) {
    const fn = call["function"];
    parts.push({
      kind: "call",
      id: stringField(call, "id"),
      name: stringField(fn, "name"),
      input: (fn as MessageRecord | undefined)?.["arguments"],
    });
  }
  return { role, parts };
}
