// The images and files of a message, read without telling its format: every format's media part
// has a shape no other format's part has (a typed part's `type`; Gemini's `inlineData` and
// `fileData`, Genkit's `media`, Bedrock's `image` and `document` on parts without a `type`), so one
// walk reads them all, each part through the reader its dialect uses. The estimate then carries no
// format detection and no other reader of any dialect.
import { asRecord } from "../dialects/content-parts.js";
import type { MediaPart, MessageRecord } from "../dialects/dialect.js";
import { bedrockBlockMedia, contentPartMedia, genkitPartMedia, googleGenaiPartMedia } from "../dialects/media-parts.js";

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

function partTokens(part: MediaPart): number {
  if (part.kind === "image") return part.detail === "low" ? LOW_DETAIL_IMAGE_TOKENS : IMAGE_TOKENS;
  const pages = part.fileBytes === undefined ? 1 : Math.max(1, Math.ceil(part.fileBytes / FILE_BYTES_PER_PAGE));
  return pages * FILE_TOKENS_PER_PAGE;
}

/**
 * The media of a list of parts, of any format. A part with a `type` is a content part (OpenAI chat,
 * Responses, Anthropic, the AI SDK, LangChain, pi); one without is Gemini's, Genkit's or Bedrock's,
 * read with the parts its tool response holds (`functionResponse.parts`, `toolResponse.content`,
 * `toolResult.content`). A tool result never holds another result, so one level is all.
 */
function collectMedia(list: unknown, found: MediaPart[], depth: number): void {
  if (!Array.isArray(list)) return;
  for (const entry of list) {
    const part = asRecord(entry);
    if (part === undefined) continue;
    if (typeof part["type"] === "string") {
      contentPartMedia(part, found, depth, collectMedia);
      continue;
    }
    googleGenaiPartMedia(part, found);
    genkitPartMedia(part, found);
    bedrockBlockMedia(part, found);
    if (depth === 0) {
      collectMedia(asRecord(part["functionResponse"])?.["parts"], found, 1);
      collectMedia(asRecord(part["toolResponse"])?.["content"], found, 1);
      collectMedia(asRecord(part["toolResult"])?.["content"], found, 1);
    }
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
  const found: MediaPart[] = [];
  collectMedia(list, found, 0);
  if (found.length === 0) return undefined;
  let dataLength = 0;
  let tokens = 0;
  for (const part of found) {
    dataLength += part.dataLength;
    tokens += partTokens(part);
  }
  return { dataLength, tokens };
}
