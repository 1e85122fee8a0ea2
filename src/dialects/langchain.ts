// LangChain.js messages (`@langchain/core/messages`): `HumanMessage`, `AIMessage` with
// `tool_calls[].id`, `ToolMessage` with `tool_call_id`, `SystemMessage`, as class instances or as
// plain objects `{ type: "human" | "ai" | "tool" | "system", … }`. Recognised by their `type`,
// without importing LangChain. A changed message is built with the message's own constructor, so
// an instance stays an instance (and serializes its new content).
import {
  argumentText,
  asRecord,
  carriesSignature,
  contentAsText,
  someRecord,
  cutArgumentsObject,
  leadingContentText,
  records,
  stringField,
  textParts,
} from "./content-parts.js";
import type { Dialect, MessagePart, MessageRecord, MessageView } from "./dialect.js";
import { langchainClaims, langchainRoles as roles } from "./format-claims.js";

export { langchainPayload } from "./provider-payload.js";

const noToolParts: ReadonlySet<string> = new Set(["tool_use", "tool_call"]);
const plainRoles: ReadonlySet<unknown> = new Set(["system", "developer", "user", "assistant", "tool", "human", "ai"]);

const isToolResult = (m: MessageRecord): boolean => m["type"] === "tool" && typeof m["tool_call_id"] === "string";
const toolCalls = (m: MessageRecord): readonly MessageRecord[] => (m["type"] === "ai" ? records(m["tool_calls"]) : []);

/** The fields a LangChain message constructor takes, read from a message. */
const fieldNames = [
  "content",
  "id",
  "name",
  "additional_kwargs",
  "response_metadata",
  "tool_call_id",
  "status",
  "artifact",
  "tool_calls",
  "invalid_tool_calls",
  "usage_metadata",
  "metadata",
];

/** A copy of the message with some fields replaced: an instance of the same class when it is one. */
function withFields(m: MessageRecord, changes: MessageRecord): MessageRecord {
  const prototype = Object.getPrototypeOf(m) as object | null;
  if (prototype === Object.prototype || prototype === null || typeof m["lc_kwargs"] !== "object")
    return { ...m, ...changes };
  const fields: MessageRecord = {};
  for (const name of fieldNames) if (m[name] !== undefined) fields[name] = m[name];
  const Message = (prototype as { constructor: new (fields: MessageRecord) => MessageRecord }).constructor;
  return new Message({ ...fields, ...changes });
}

export const langchain: Dialect = {
  name: "langchain",
  claims: langchainClaims,
  // LangChain also takes plain `{ role, content }` objects wherever it takes messages.
  reads: (m) =>
    roles.has(m["type"]) ||
    m["type"] === "remove" ||
    m["type"] === "generic" ||
    (m["type"] === undefined && plainRoles.has(m["role"])),
  signed: (m) => m["type"] === "ai" && someRecord(m["content"], carriesSignature),
  role: (m) => roles.get(m["type"]),
  forEachToolCall(m, visit) {
    for (const call of toolCalls(m)) if (typeof call["id"] === "string") visit(call["id"]);
  },
  forEachToolResult(m, visit) {
    if (isToolResult(m)) visit(m["tool_call_id"] as string);
  },
  leadingText: (m) => leadingContentText(m["content"]),
  opensToolGroup: (m) => m["type"] === "ai",
  bindsToNext: () => false,
  resultTexts: (m) => (isToolResult(m) ? [contentAsText(m["content"], noToolParts)] : []),
  replaceResults: (m, texts) => (texts.has(0) ? withFields(m, { content: texts.get(0) }) : m),
  argumentTexts: (m) => toolCalls(m).map((call) => argumentText(call["args"])),
  replaceArguments(m, texts) {
    if (texts.size === 0) return m;
    const calls = toolCalls(m).map((call, index) =>
      texts.has(index) ? { ...call, args: cutArgumentsObject(texts.get(index) as string) } : call,
    );
    return withFields(m, { tool_calls: calls });
  },
  describe: describeLangchain,
  textMessage: (role, text) => ({ type: role === "system" ? "system" : "human", content: text }),
};

/** What a LangChain message says, in dialect-free terms. */
export function describeLangchain(m: MessageRecord): MessageView {
  const role = roles.get(m["type"]);
  if (isToolResult(m)) {
    const output = contentAsText(m["content"], noToolParts);
    return {
      role,
      parts: [
        {
          kind: "result",
          id: m["tool_call_id"] as string,
          name: stringField(m, "name"),
          output,
          isError: m["status"] === "error",
        },
      ],
    };
  }
  const parts: MessagePart[] = textParts(m["content"], noToolParts);
  for (const call of toolCalls(m))
    parts.push({
      kind: "call",
      id: stringField(call, "id"),
      name: stringField(call, "name"),
      input: asRecord(call)?.["args"],
    });
  return { role, parts };
}

/**
 * The type and text of a plain `{ type, content }` object as the hook writes a LangChain message
 * (a summary or a reminder, `"human"` or `"system"` with string content and nothing else), or
 * undefined for anything else (an instance, a caller's own object with more fields).
 */
export function plainTextMessage(message: object): { type: "human" | "system"; content: string } | undefined {
  const plain = message as { type?: unknown; content?: unknown; id?: unknown; lc_kwargs?: unknown };
  const made =
    plain.lc_kwargs === undefined &&
    plain.id === undefined &&
    (plain.type === "human" || plain.type === "system") &&
    typeof plain.content === "string";
  return made && Object.keys(plain).length === 2
    ? { type: plain.type as "human" | "system", content: plain.content as string }
    : undefined;
}
