// OpenAI Responses items (the raw API and `@openai/agents`): a `{ type: "function_call", callId }`
// item answered by a `{ type: "function_call_output" | "function_call_result", callId }` item. The
// id is `callId` in @openai/agents and `call_id` in the raw API. The other Responses tools
// (computer, shell, apply_patch, tool search) pair the same way: a `*_call` item answered by a
// `*_output` or `*_result` item. Hosted tools run on the provider's side and get no result item.
import { argumentText, contentAsText, leadingContentText, stringField, stringify, textParts } from "./content-parts.js";
import type { Dialect, MessageRecord, MessageView } from "./dialect.js";
import { openaiResponsesClaims } from "./format-claims.js";

const noToolParts: ReadonlySet<string> = new Set();
// Result items whose `output` is free text; computer and shell outputs have shapes of their own.
const textOutputItemTypes = new Set(["function_call_output", "function_call_result", "custom_tool_call_output"]);

const itemType = (m: MessageRecord): string | undefined => (typeof m["type"] === "string" ? m["type"] : undefined);
const messageRoles: ReadonlySet<unknown> = new Set(["user", "assistant", "system", "developer"]);

const callId = (m: MessageRecord): string | undefined => stringField(m, "callId") ?? stringField(m, "call_id");
const isCallType = (type: string): boolean => type.endsWith("_call") && type !== "hosted_tool_call";
const isResultType = (type: string): boolean => type.endsWith("_output") || type.endsWith("_result");

function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  if (
    typeof output === "object" &&
    output !== null &&
    !Array.isArray(output) &&
    typeof (output as MessageRecord)["text"] === "string"
  ) {
    return (output as MessageRecord)["text"] as string;
  }
  return Array.isArray(output) ? contentAsText(output, noToolParts) : stringify(output);
}

export const openaiResponses: Dialect = {
  name: "openai-responses",
  claims: openaiResponsesClaims,
  reads: (m) =>
    m["type"] === undefined || m["type"] === "message" ? messageRoles.has(m["role"]) : openaiResponses.claims(m),
  // An encrypted reasoning item and a compaction item are the provider's own, read back as they were.
  signed: (m) =>
    m["type"] === "compaction" || (m["type"] === "reasoning" && typeof m["encrypted_content"] === "string"),
  role(m) {
    const type = itemType(m);
    if (type === undefined || type === "message") return stringField(m, "role");
    if (isCallType(type)) return "assistant";
    if (isResultType(type)) return "tool";
    return undefined;
  },
  forEachToolCall(m, visit) {
    const type = itemType(m);
    const id = callId(m);
    if (type !== undefined && isCallType(type) && id !== undefined) visit(id);
  },
  forEachToolResult(m, visit) {
    const type = itemType(m);
    const id = callId(m);
    if (type !== undefined && isResultType(type) && id !== undefined) visit(id);
  },
  leadingText: (m) => leadingContentText(m["content"]),
  // A reasoning item must reach the model with the call it led to, so it opens that group.
  opensToolGroup: (m) => m["role"] === "assistant" || m["type"] === "function_call" || m["type"] === "reasoning",
  bindsToNext: (m) => m["type"] === "reasoning",
  resultTexts: (m) => (textOutputItemTypes.has(itemType(m) ?? "") ? [outputText(m["output"])] : []),
  replaceResults: (m, texts) => (texts.has(0) ? { ...m, output: texts.get(0) } : m),
  argumentTexts: (m) => (m["type"] === "function_call" ? [argumentText(m["arguments"])] : []),
  replaceArguments: (m, texts) =>
    m["type"] === "function_call" && texts.has(0) ? { ...m, arguments: texts.get(0) } : m,
  describe: describeOpenaiResponses,
  textMessage: (role, text) => ({ role, content: text }),
};

/** What a Responses item says, in dialect-free terms. */
export function describeOpenaiResponses(m: MessageRecord): MessageView {
  const type = itemType(m);
  if (type === undefined || type === "message")
    return { role: stringField(m, "role"), parts: textParts(m["content"], noToolParts) };
  if (isCallType(type)) {
    const name = stringField(m, "name") ?? type.replace(/_call$/, "");
    return {
      role: "assistant",
      parts: [{ kind: "call", id: callId(m), name, input: m["arguments"] ?? m["action"] ?? m["input"] ?? "" }],
    };
  }
  if (isResultType(type)) {
    return {
      role: "tool",
      parts: [
        {
          kind: "result",
          id: callId(m),
          name: stringField(m, "name"),
          output: outputText(m["output"]),
          isError: false,
        },
      ],
    };
  }
  if (type === "reasoning") return { role: undefined, parts: [] };
  if (type === "hosted_tool_call")
    return { role: undefined, parts: [{ kind: "note", text: `Hosted tool ${stringField(m, "name") ?? "call"}` }] };
  return { role: undefined, parts: [{ kind: "note", text: `[${type}]` }] };
}
