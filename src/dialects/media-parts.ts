// The images and files of a message, read the way its own format holds them: what the estimate
// counts as providers bill media instead of as bytes / 4 of their base64. Each format's part is
// read by a function of its own, which the estimate calls for any part of that shape without
// telling the message's format (`counting/media-tokens.ts`); each format's whole message is read
// by `mediaOf`, which the estimate's walk is checked against.
import { asRecord, base64Bytes, jsonLength, records, stringField } from "./content-parts.js";
import type { MediaPart, MessageRecord } from "./dialect.js";
import { claimIndexOf } from "./format-claims.js";

/** True for a file part that holds text (`text/plain`, Markdown, CSV, an Anthropic text source), not pages of a PDF. */
function isTextDocument(part: MessageRecord): boolean {
  const source = asRecord(part["source"]);
  if (source?.["type"] === "text" || source?.["type"] === "content") return true;
  const file = asRecord(part["file"]);
  const isText = (type: string): boolean => type.startsWith("text/") || type.startsWith("application/json");
  for (const type of [part["mediaType"], part["mimeType"], part["media_type"], source?.["media_type"]]) {
    if (typeof type === "string" && isText(type)) return true;
  }
  for (const data of [part["file_data"], file?.["file_data"], part["data"]]) {
    if (typeof data === "string" && data.startsWith("data:") && isText(data.slice(5, 64))) return true;
  }
  return false;
}

/**
 * Media parts of the content arrays shared by the OpenAI chat, Anthropic, AI SDK, Responses and
 * LangChain formats, including those inside a tool result: an Anthropic `tool_result`'s content
 * blocks, an AI SDK tool output of type `content` (`image-data`, `media`, `file-data`, `image-url`),
 * a Responses output list (`input_image`, `input_file`). A screenshot a tool returns is billed as
 * an image wherever it sits, never as bytes / 4 of its base64.
 */
export function contentMedia(content: unknown): MediaPart[] {
  const found: MediaPart[] = [];
  collectContentMedia(content, found, 0);
  return found;
}

function collectContentMedia(content: unknown, found: MediaPart[], depth: number): void {
  if (!Array.isArray(content)) return;
  for (const entry of content)
    if (typeof entry === "object" && entry !== null)
      contentPartMedia(entry as MessageRecord, found, depth, collectContentMedia);
}

/**
 * The media of one part of a content array (a part with a `type`), pushed to `found`; a tool
 * result's own content is read through `collect` at `depth` 1. A tool result holds content of its
 * own; it never holds another result, so one level is all.
 */
export function contentPartMedia(
  part: MessageRecord,
  found: MediaPart[],
  depth: number,
  collect: (content: unknown, found: MediaPart[], depth: number) => void,
): void {
  switch (part["type"]) {
    case "tool_result":
      if (depth === 0) collect(part["content"], found, 1);
      break;
    case "tool-result": {
      const output = asRecord(part["output"]);
      if (depth === 0 && output?.["type"] === "content") collect(output["value"], found, 1);
      break;
    }
    case "image-data":
    case "image-url":
      found.push({ kind: "image", dataLength: jsonLength(part["data"] ?? part["url"]) });
      break;
    case "media":
    case "file-data": {
      const mediaType = stringField(part, "mediaType") ?? "";
      if (mediaType.startsWith("image/")) found.push({ kind: "image", dataLength: jsonLength(part["data"]) });
      else if (!mediaType.startsWith("text/")) {
        const bytes = base64Bytes(part["data"]);
        found.push({
          kind: "file",
          dataLength: jsonLength(part["data"]),
          ...(bytes === undefined ? {} : { fileBytes: bytes }),
        });
      }
      break;
    }
    case "image_url": {
      const image = asRecord(part["image_url"]);
      found.push({
        kind: "image",
        dataLength: jsonLength(part["image_url"]),
        ...(image?.["detail"] === "low" ? { detail: "low" as const } : {}),
      });
      break;
    }
    case "input_image":
      found.push({
        kind: "image",
        dataLength: jsonLength(part["image_url"]) + jsonLength(part["file_id"]),
        ...(part["detail"] === "low" ? { detail: "low" as const } : {}),
      });
      break;
    case "image": {
      // Anthropic: `source`; AI SDK: `image`; LangChain's standard blocks and pi: `data` or `url`.
      const data = part["source"] ?? part["image"] ?? part["data"] ?? part["url"];
      found.push({ kind: "image", dataLength: jsonLength(data) });
      break;
    }
    case "file":
    case "input_file":
    case "document": {
      // A text document is billed as its text, which bytes / 4 of its JSON already counts.
      if (isTextDocument(part)) break;
      // OpenAI chat: `file.file_data`; Responses: `file_data`; Anthropic: `source.data`; AI SDK: `data`.
      const file = asRecord(part["file"]);
      const data = file?.["file_data"] ?? part["file_data"] ?? asRecord(part["source"])?.["data"] ?? part["data"];
      const heavy = file
        ? part["file"]
        : part["file_data"] !== undefined
          ? part["file_data"]
          : (part["source"] ?? part["data"]);
      const bytes = base64Bytes(data);
      found.push({ kind: "file", dataLength: jsonLength(heavy), ...(bytes === undefined ? {} : { fileBytes: bytes }) });
      break;
    }
  }
}

/** OpenAI Responses: a result item's output may be a list of `input_text`, `input_image` and `input_file` parts. */
export const responsesMedia = (m: MessageRecord): MediaPart[] =>
  Array.isArray(m["output"]) ? contentMedia(m["output"]) : contentMedia(m["content"]);

/** Google Gen AI: `inlineData` and `fileData` parts, including those of a function response (a screenshot a tool took). */
export function googleGenaiMedia(m: MessageRecord): MediaPart[] {
  const found: MediaPart[] = [];
  const parts = records(m["parts"]);
  const responseParts = parts.flatMap((part) => records(asRecord(part["functionResponse"])?.["parts"]));
  for (const part of responseParts.length === 0 ? parts : [...parts, ...responseParts])
    googleGenaiPartMedia(part, found);
  return found;
}

/** The media of one Google Gen AI part (`inlineData`, `fileData`), pushed to `found`. */
export function googleGenaiPartMedia(part: MessageRecord, found: MediaPart[]): void {
  const inline = asRecord(part["inlineData"]);
  const file = asRecord(part["fileData"]);
  if (inline) {
    const bytes = base64Bytes(inline["data"]);
    const kind = stringField(inline, "mimeType")?.startsWith("image/") ? "image" : "file";
    found.push({ kind, dataLength: jsonLength(inline["data"]), ...(bytes === undefined ? {} : { fileBytes: bytes }) });
  } else if (file) {
    found.push({
      kind: stringField(file, "mimeType")?.startsWith("image/") ? "image" : "file",
      dataLength: jsonLength(file["fileUri"]),
    });
  }
}

/** True for a Genkit media part that is an image, by its content type or its data URL's. */
export function isGenkitImage(media: MessageRecord): boolean {
  const type = stringField(media, "contentType") ?? /^data:([^;,]*)/.exec(stringField(media, "url") ?? "")?.[1] ?? "";
  return type.startsWith("image/");
}

/** Genkit: `media` parts, including those of a tool response (a screenshot a tool took). */
export function genkitMedia(m: MessageRecord): MediaPart[] {
  const found: MediaPart[] = [];
  const parts = records(m["content"]);
  const inResponses = parts.flatMap((part) => records(asRecord(part["toolResponse"])?.["content"]));
  for (const part of inResponses.length === 0 ? parts : [...parts, ...inResponses]) genkitPartMedia(part, found);
  return found;
}

/** The media of one Genkit part (`media`), pushed to `found`. */
export function genkitPartMedia(part: MessageRecord, found: MediaPart[]): void {
  const media = asRecord(part["media"]);
  if (media === undefined) return;
  const url = stringField(media, "url") ?? "";
  if (isGenkitImage(media)) found.push({ kind: "image", dataLength: jsonLength(url) });
  else {
    const bytes = url.startsWith("data:") ? base64Bytes(url.slice(url.indexOf(",") + 1)) : undefined;
    found.push({ kind: "file", dataLength: jsonLength(url), ...(bytes === undefined ? {} : { fileBytes: bytes }) });
  }
}

/** Bedrock Converse: `image` and `document` blocks, including those of a tool result's content. */
export function bedrockMedia(m: MessageRecord): MediaPart[] {
  const found: MediaPart[] = [];
  const blocks = records(m["content"]);
  const inResults = blocks.flatMap((block) => records(asRecord(block["toolResult"])?.["content"]));
  for (const block of inResults.length === 0 ? blocks : [...blocks, ...inResults]) bedrockBlockMedia(block, found);
  return found;
}

/** The media of one Bedrock Converse block (`image`, `document`), pushed to `found`. */
export function bedrockBlockMedia(block: MessageRecord, found: MediaPart[]): void {
  const image = asRecord(block["image"]);
  const document = asRecord(block["document"]);
  if (image) found.push({ kind: "image", dataLength: jsonLength(image["source"]) });
  else if (document) {
    const bytes = asRecord(document["source"])?.["bytes"];
    const size =
      typeof bytes === "string" ? base64Bytes(bytes) : ArrayBuffer.isView(bytes) ? bytes.byteLength : undefined;
    found.push({
      kind: "file",
      dataLength: jsonLength(document["source"]),
      ...(size === undefined ? {} : { fileBytes: size }),
    });
  }
}

/** pi: its images carry their base64 in `data`, billed as an image, not as bytes / 4 of it. */
export function piMedia(m: MessageRecord): MediaPart[] {
  const found: MediaPart[] = [];
  for (const part of records(m["content"]))
    if (part["type"] === "image") found.push({ kind: "image", dataLength: jsonLength(part["data"]) });
  return found;
}

const contentArrayMedia = (m: MessageRecord): MediaPart[] => contentMedia(m["content"]);

/** Each format's media reader, in the order of `formatOrder`, so a claim's index finds its reader. */
const readerAt = [
  googleGenaiMedia,
  contentArrayMedia,
  responsesMedia,
  genkitMedia,
  bedrockMedia,
  piMedia,
  contentArrayMedia,
  contentArrayMedia,
  contentArrayMedia,
];

/**
 * The images and files a message carries, as its own format reads them: what the estimate's walk
 * by shape (`mediaByShape`) must find in every message, which `test/dialects.test.ts` checks. No
 * step of a call needs the format's own reading, so no bundle carries it. Only a message with a
 * content array (or Gemini's parts, or a Responses output list) can carry one: every other message
 * is answered without telling its format.
 */
export function mediaOf(message: object, claim?: number): MediaPart[] {
  const m = message as MessageRecord;
  if (!(Array.isArray(m["content"]) || Array.isArray(m["parts"]) || Array.isArray(m["output"]))) return [];
  // `claim`: the message's format, when the call has already read it.
  const index = claim ?? claimIndexOf(m);
  return index < 0 ? contentArrayMedia(m) : readerAt[index]!(m);
}
