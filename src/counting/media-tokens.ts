// The images and files of a message, read without telling its format: every format's media part
// has a shape no other format's part has (a typed part's `type`; Gemini's `inlineData` and
// `fileData`, Genkit's `media`, Bedrock's `image` and `document` on parts without a `type`), so one
// walk reads them all. The estimate then carries no format detection and no dialect: each
// dialect's own reader (`dialects/media-parts.ts`) finds the same media in messages of its format.
import { asRecord, base64Bytes, jsonLength } from "../dialects/content-parts.js";
import type { MessageRecord } from "../dialects/dialect.js";

/**
 * Tokens of one image, as providers bill it at their default resolution, whatever its size in
 * base64: about the most any of them charges (Anthropic bills width × height / 750, about 1,600
 * for its largest unresized image of 1,092 × 1,092; OpenAI 765 for a 1,024 × 1,024 image in high
 * detail; Gemini 258 per 768 × 768 tile).
 */
const IMAGE_TOKENS = 1600;
/** Tokens of an image sent in OpenAI's low detail. */
const LOW_DETAIL_IMAGE_TOKENS = 85;
/** Tokens of a file (a PDF, say) per `FILE_BYTES_PER_PAGE` bytes of its data: about one page, billed as text and a page image. */
const FILE_TOKENS_PER_PAGE = 1600;
const FILE_BYTES_PER_PAGE = 75_000;

/** What a message's media add up to: the characters of its JSON their data takes, and the tokens counted for them instead. */
interface MediaTotals {
  dataLength: number;
  tokens: number;
}

const add = (totals: MediaTotals, dataLength: number, tokens: number): void => {
  totals.dataLength += dataLength;
  totals.tokens += tokens;
};

/** Tokens of a file of `fileBytes` bytes of inline data, or of unknown size (a URL, an id): a page at least. */
const fileTokens = (fileBytes: number | undefined): number =>
  (fileBytes === undefined ? 1 : Math.max(1, Math.ceil(fileBytes / FILE_BYTES_PER_PAGE))) * FILE_TOKENS_PER_PAGE;

/** The value when it is a string, else `""`: what a media type is matched on. */
const text = (value: unknown): string => (typeof value === "string" ? value : "");
const isTextType = (type: unknown): boolean => text(type).startsWith("text/") || text(type).startsWith("application/json");
/** Tokens of media whose type is `type`: an image's, or else a file's of `fileBytes`. */
const byType = (type: unknown, fileBytes: number | undefined): number => (text(type).startsWith("image/") ? IMAGE_TOKENS : fileTokens(fileBytes));

/** True for a file part that holds text (`text/plain`, Markdown, CSV, an Anthropic text source), not pages of a PDF: billed as its text, which bytes / 4 already counts. */
function isTextDocument(part: MessageRecord): boolean {
  const source = asRecord(part["source"]);
  if (source?.["type"] === "text" || source?.["type"] === "content") return true;
  for (const type of [part["mediaType"], part["mimeType"], part["media_type"], source?.["media_type"]]) if (isTextType(type)) return true;
  // A data URL says its type after `data:`.
  for (const data of [part["file_data"], asRecord(part["file"])?.["file_data"], part["data"]]) if (text(data).startsWith("data:") && isTextType(text(data).slice(5, 64))) return true;
  return false;
}

/**
 * A part with a `type`: the content arrays of the OpenAI chat, Anthropic, AI SDK, Responses,
 * LangChain and pi formats. A tool result's own content (an Anthropic `tool_result`'s blocks, an
 * AI SDK tool output of type `content`) is read too: a screenshot a tool returns is billed as an
 * image wherever it sits. A result never holds another result, so one level is all.
 */
function addTypedPart(totals: MediaTotals, part: MessageRecord, type: string, nested: boolean): void {
  switch (type) {
    case "tool_result":
      if (!nested) addMedia(totals, part["content"], true);
      break;
    case "tool-result": {
      const output = asRecord(part["output"]);
      if (!nested && output?.["type"] === "content") addMedia(totals, output["value"], true);
      break;
    }
    case "image-data":
    case "image-url":
      add(totals, jsonLength(part["data"] ?? part["url"]), IMAGE_TOKENS);
      break;
    case "media":
    case "file-data":
      // The AI SDK's tool output media: `image/…` is an image, `text/…` its text, the rest a file.
      if (!text(part["mediaType"]).startsWith("text/")) add(totals, jsonLength(part["data"]), byType(part["mediaType"], base64Bytes(part["data"])));
      break;
    case "image_url":
      add(totals, jsonLength(part["image_url"]), asRecord(part["image_url"])?.["detail"] === "low" ? LOW_DETAIL_IMAGE_TOKENS : IMAGE_TOKENS);
      break;
    case "input_image":
      add(totals, jsonLength(part["image_url"]) + jsonLength(part["file_id"]), part["detail"] === "low" ? LOW_DETAIL_IMAGE_TOKENS : IMAGE_TOKENS);
      break;
    case "image":
      // Anthropic: `source`; AI SDK: `image`; LangChain's standard blocks and pi: `data` or `url`.
      add(totals, jsonLength(part["source"] ?? part["image"] ?? part["data"] ?? part["url"]), IMAGE_TOKENS);
      break;
    case "file":
    case "input_file":
    case "document": {
      if (isTextDocument(part)) break;
      // OpenAI chat: `file.file_data`; Responses: `file_data`; Anthropic: `source.data`; AI SDK: `data`.
      const file = asRecord(part["file"]);
      const data = file?.["file_data"] ?? part["file_data"] ?? asRecord(part["source"])?.["data"] ?? part["data"];
      const heavy = file ? part["file"] : part["file_data"] !== undefined ? part["file_data"] : part["source"] ?? part["data"];
      add(totals, jsonLength(heavy), fileTokens(base64Bytes(data)));
      break;
    }
  }
}

/**
 * A part without a `type`: Gemini's parts (`inlineData`, `fileData`), Genkit's (`media`) and
 * Bedrock's blocks (`image`, `document`), with the parts a tool's response holds (Gemini's
 * `functionResponse.parts`, Genkit's `toolResponse.content`, Bedrock's `toolResult.content`).
 */
function addUntypedPart(totals: MediaTotals, part: MessageRecord, nested: boolean): void {
  const inline = asRecord(part["inlineData"]);
  const fileData = asRecord(part["fileData"]);
  const media = asRecord(part["media"]);
  const document = asRecord(part["document"]);
  if (inline) add(totals, jsonLength(inline["data"]), byType(inline["mimeType"], base64Bytes(inline["data"])));
  else if (fileData) add(totals, jsonLength(fileData["fileUri"]), byType(fileData["mimeType"], undefined));
  if (media) {
    // Genkit: an image by its content type, or else by its data URL's.
    const url = text(media["url"]);
    const type = typeof media["contentType"] === "string" ? media["contentType"] : url.startsWith("data:image/") ? "image/" : "";
    add(totals, jsonLength(url), byType(type, url.startsWith("data:") ? base64Bytes(url.slice(url.indexOf(",") + 1)) : undefined));
  }
  if (asRecord(part["image"])) add(totals, jsonLength((part["image"] as MessageRecord)["source"]), IMAGE_TOKENS);
  else if (document) {
    const bytes = asRecord(document["source"])?.["bytes"];
    add(totals, jsonLength(document["source"]), fileTokens(typeof bytes === "string" ? base64Bytes(bytes) : ArrayBuffer.isView(bytes) ? bytes.byteLength : undefined));
  }
  if (!nested) {
    addMedia(totals, asRecord(part["functionResponse"])?.["parts"], true);
    addMedia(totals, asRecord(part["toolResponse"])?.["content"], true);
    addMedia(totals, asRecord(part["toolResult"])?.["content"], true);
  }
}

function addMedia(totals: MediaTotals, list: unknown, nested: boolean): void {
  if (!Array.isArray(list)) return;
  for (const entry of list) {
    const part = asRecord(entry);
    if (part === undefined) continue;
    const type = part["type"];
    if (typeof type === "string") addTypedPart(totals, part, type, nested);
    else addUntypedPart(totals, part, nested);
  }
}

/**
 * For a message that carries images or files: how many characters of its JSON the media's data
 * takes (left out of bytes / 4) and the tokens to count for the media instead. Undefined for a
 * message without media: the cheap common case, decided without serializing anything. Only a
 * message with a list of parts can carry media: Gemini's `parts`, a Responses result's `output`
 * list, or a `content` array.
 */
export function mediaEstimate(message: unknown): { dataLength: number; tokens: number } | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  const m = message as MessageRecord;
  const list = Array.isArray(m["parts"]) ? m["parts"] : Array.isArray(m["output"]) ? m["output"] : m["content"];
  if (!Array.isArray(list)) return undefined;
  const totals: MediaTotals = { dataLength: 0, tokens: 0 };
  addMedia(totals, list, false);
  // Every image and file counts some tokens, so none counted means none found.
  return totals.tokens === 0 ? undefined : totals;
}
