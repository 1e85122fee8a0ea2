// What a message's images and files count: the tokens providers bill for them, in place of the
// characters their base64 data takes in the message's JSON.
import type { MediaPart } from "../dialects/dialect.js";
import { mediaByShape } from "../dialects/media-by-shape.js";

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
 * For a message that carries images or files: how many characters of its JSON the media's data
 * takes (left out of bytes / 4) and the tokens to count for the media instead. Undefined for a
 * message without media: the cheap common case, decided without serializing anything. The media
 * are read by their shape (`mediaByShape`), without telling the message's format.
 */
export function mediaEstimate(message: unknown): { dataLength: number; tokens: number } | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  const found = mediaByShape(message);
  if (found.length === 0) return undefined;
  let dataLength = 0;
  let tokens = 0;
  for (const part of found) {
    dataLength += part.dataLength;
    tokens += partTokens(part);
  }
  return { dataLength, tokens };
}
