// Google Gen AI (`@google/genai` `Content`): `{ role: "user" | "model", parts }`. A model part
// `{ functionCall: { id?, name, args } }` is answered by a user part `{ functionResponse: { id?,
// name, response } }`, by id when both have one, else in order. A user content holding function
// responses is part of a tool group, not a user turn. Gemini keeps the system prompt outside the
// contents (`systemInstruction`), so a summary is a user content.
import {
  argumentText,
  asRecord as record,
  carriesSignature,
  someRecord,
  cutArgumentsObject,
  indicesWhere,
  leadingContentText,
  records,
  replaceEntries,
  stringField,
  stringify,
} from "./content-parts.js";
import type { Dialect, MessagePart, MessageRecord, MessageView } from "./dialect.js";
import { googleGenaiClaims } from "./format-claims.js";

const parts = (m: MessageRecord): readonly MessageRecord[] => records(m["parts"]);
const responseIndices = (m: MessageRecord): number[] =>
  indicesWhere(m["parts"], (part) => record(part["functionResponse"]) !== undefined);

/** A function response's payload as text: its `output` (or `result`) when that is a string, else its JSON. */
function responseText(response: unknown): string {
  const r = record(response);
  if (r !== undefined) {
    const text = stringField(r, "output") ?? stringField(r, "result");
    if (text !== undefined && Object.keys(r).length === 1) return text;
  }
  return stringify(response ?? "");
}

function mediaNote(part: MessageRecord): string | undefined {
  const inline = record(part["inlineData"]);
  if (inline) return stringField(inline, "mimeType")?.startsWith("image/") ? "[image]" : "[file]";
  const file = record(part["fileData"]);
  if (file) return `[file: ${stringField(file, "fileUri") ?? "?"}]`;
  return undefined;
}

/** The speaker in dialect-free terms: the model's turns are the assistant's. */
const modelRole = (m: MessageRecord): string | undefined =>
  m["role"] === "model" ? "assistant" : stringField(m, "role");

export const googleGenai: Dialect = {
  name: "google-genai",
  claims: googleGenaiClaims,
  // A content's role is optional (a single-turn request); Gemini has no other roles.
  reads: (m) => Array.isArray(m["parts"]) && (m["role"] === undefined || m["role"] === "user" || m["role"] === "model"),
  signed: (m) => m["role"] === "model" && someRecord(m["parts"], carriesSignature),
  role: modelRole,
  forEachToolCall(m, visit) {
    for (const part of parts(m)) {
      const call = record(part["functionCall"]);
      if (call) visit(stringField(call, "id"));
    }
  },
  forEachToolResult(m, visit) {
    for (const part of parts(m)) {
      const response = record(part["functionResponse"]);
      if (response) visit(stringField(response, "id"));
    }
  },
  leadingText: (m) => leadingContentText(m["parts"]),
  opensToolGroup: (m) => m["role"] === "model",
  bindsToNext: () => false,
  resultTexts: (m) =>
    responseIndices(m).map((index) =>
      responseText(record((m["parts"] as MessageRecord[])[index]?.["functionResponse"])?.["response"]),
    ),
  replaceResults: (m, texts) =>
    replaceEntries(m, { field: "parts", slots: responseIndices(m) }, texts, (part, text) => ({
      ...part,
      functionResponse: { ...(part["functionResponse"] as MessageRecord), response: { output: text } },
    })),
  argumentTexts: (m) =>
    parts(m).flatMap((part) =>
      record(part["functionCall"]) ? [argumentText(record(part["functionCall"])?.["args"])] : [],
    ),
  replaceArguments: (m, texts) =>
    replaceEntries(
      m,
      { field: "parts", slots: indicesWhere(m["parts"], (part) => record(part["functionCall"]) !== undefined) },
      texts,
      (part, text) => ({
        ...part,
        functionCall: { ...(part["functionCall"] as MessageRecord), args: cutArgumentsObject(text) },
      }),
    ),
  describe: describeGoogleGenai,
  textMessage: (_role, text) => ({ role: "user", parts: [{ text }] }),
};

/** What a Gemini content says, in dialect-free terms. */
export function describeGoogleGenai(m: MessageRecord): MessageView {
  const texts: string[] = [];
  const tools: MessagePart[] = [];
  for (const part of parts(m)) {
    const call = record(part["functionCall"]);
    const response = record(part["functionResponse"]);
    if (typeof part["text"] === "string") {
      if (part["thought"] !== true) texts.push(part["text"]);
    } else if (call) {
      tools.push({
        kind: "call",
        id: stringField(call, "id"),
        name: stringField(call, "name"),
        input: call["args"] ?? {},
      });
    } else if (response) {
      const isError = record(response["response"])?.["error"] !== undefined;
      tools.push({
        kind: "result",
        id: stringField(response, "id"),
        name: stringField(response, "name"),
        output: responseText(response["response"]),
        isError,
      });
    } else {
      const note = mediaNote(part);
      if (note) texts.push(note);
    }
  }
  const text = texts.join("\n");
  return {
    role: modelRole(m),
    parts: text.trim() === "" ? tools : [{ kind: "text", text }, ...tools],
  };
}
