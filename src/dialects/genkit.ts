// Genkit (`genkit` `MessageData`): `{ role: "system" | "user" | "model" | "tool", content: Part[] }`,
// parts keyed by kind with no `type` field. A model part `{ toolRequest: { name, ref?, input } }` is
// answered by a part `{ toolResponse: { name, ref?, output } }` of a `tool` message, by `ref` when
// both have one, else in order. A user message of text parts alone reads the same as Bedrock's.
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
import type { Dialect, MessagePart, MessageRecord, MessageView } from "./dialect.js";
import { genkitClaims } from "./format-claims.js";
import { isGenkitImage as isImage } from "./media-parts.js";

const parts = (m: MessageRecord): readonly MessageRecord[] => records(m["content"]);
const requestIndices = (m: MessageRecord): number[] =>
  indicesWhere(m["content"], (part) => record(part["toolRequest"]) !== undefined);
const responseIndices = (m: MessageRecord): number[] =>
  indicesWhere(m["content"], (part) => record(part["toolResponse"]) !== undefined);

function mediaNote(part: MessageRecord): string | undefined {
  const media = record(part["media"]);
  if (media === undefined) return undefined;
  return isImage(media) ? "[image]" : `[file: ${stringField(media, "contentType") ?? "media"}]`;
}

/** A tool response's payload as text: its `output` (a string as it is, else JSON), then any text of its `content` parts. */
function responseText(response: MessageRecord | undefined): string {
  if (response === undefined) return "";
  const output = response["output"];
  const texts = output === undefined ? [] : [typeof output === "string" ? output : stringify(output)];
  for (const part of records(response["content"]))
    texts.push(typeof part["text"] === "string" ? part["text"] : (mediaNote(part) ?? stringify(part)));
  return texts.join("\n");
}

/** The speaker in dialect-free terms: the model's turns are the assistant's. */
const modelRole = (m: MessageRecord): string | undefined =>
  m["role"] === "model" ? "assistant" : stringField(m, "role");

export const genkit: Dialect = {
  name: "genkit",
  claims: genkitClaims,
  reads: (m) =>
    Array.isArray(m["content"]) &&
    (m["role"] === "system" || m["role"] === "user" || m["role"] === "model" || m["role"] === "tool"),
  signed: (m) => m["role"] === "model" && someRecord(m["content"], carriesSignature),
  role: modelRole,
  forEachToolCall(m, visit) {
    for (const part of parts(m)) {
      const request = record(part["toolRequest"]);
      if (request) visit(stringField(request, "ref"));
    }
  },
  forEachToolResult(m, visit) {
    for (const part of parts(m)) {
      const response = record(part["toolResponse"]);
      if (response) visit(stringField(response, "ref"));
    }
  },
  leadingText: (m) => leadingContentText(m["content"]),
  opensToolGroup: (m) => m["role"] === "model",
  bindsToNext: () => false,
  resultTexts: (m) =>
    responseIndices(m).map((index) => responseText(record((m["content"] as MessageRecord[])[index]?.["toolResponse"]))),
  replaceResults: (m, texts) =>
    replaceEntries(m, { field: "content", slots: responseIndices(m) }, texts, (part, text) => {
      // The payload is replaced whole: its multipart `content`, when it had one, goes with it.
      const { content: _content, ...response } = part["toolResponse"] as MessageRecord;
      return { ...part, toolResponse: { ...response, output: text } };
    }),
  argumentTexts: (m) =>
    requestIndices(m).map((index) =>
      argumentText(record((m["content"] as MessageRecord[])[index]?.["toolRequest"])?.["input"]),
    ),
  replaceArguments: (m, texts) =>
    replaceEntries(m, { field: "content", slots: requestIndices(m) }, texts, (part, text) => ({
      ...part,
      toolRequest: { ...(part["toolRequest"] as MessageRecord), input: cutArgumentsObject(text) },
    })),
  describe: describeGenkit,
  // Genkit's Gemini plugins refuse a system message anywhere but first ("system role is only
  // supported for a single message in the first position"), where the caller's own prompt stands.
  textMessage: (_role, text) => ({ role: "user", content: [{ text }] }),
};

/** What a Genkit message says, in dialect-free terms. */
export function describeGenkit(m: MessageRecord): MessageView {
  const texts: string[] = [];
  const tools: MessagePart[] = [];
  for (const part of parts(m)) {
    const request = record(part["toolRequest"]);
    const response = record(part["toolResponse"]);
    if (typeof part["text"] === "string") texts.push(part["text"]);
    else if (request)
      tools.push({
        kind: "call",
        id: stringField(request, "ref"),
        name: stringField(request, "name"),
        input: request["input"] ?? {},
      });
    else if (response)
      tools.push({
        kind: "result",
        id: stringField(response, "ref"),
        name: stringField(response, "name"),
        output: responseText(response),
        isError: false,
      });
    else {
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
