// The images and files of a message, read without telling its format: every format's media part
// has a shape no other format's part has (a typed part's `type`; Gemini's `inlineData` and
// `fileData`, Genkit's `media`, Bedrock's `image` and `document` on parts without a `type`), so one
// walk reads them all, each part through the reader its dialect uses. The estimate then carries no
// format detection and no other reader of any dialect.
import { asRecord } from "./content-parts.js";
import type { MediaPart, MessageRecord } from "./dialect.js";
import { bedrockBlockMedia, contentPartMedia, genkitPartMedia, googleGenaiPartMedia } from "./media-parts.js";

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
 * The images and files of a message of any format, read by their shape. Only a message with a list
 * of parts can carry media: Gemini's `parts`, a Responses result's `output` list, or a `content`
 * array; empty for any other.
 *
 * @example
 * mediaByShape({ role: "user", content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: "iVBO" } }] }); // one image
 */
export function mediaByShape(message: object): MediaPart[] {
  const m = message as MessageRecord;
  const list = Array.isArray(m["parts"]) ? m["parts"] : Array.isArray(m["output"]) ? m["output"] : m["content"];
  const found: MediaPart[] = [];
  if (Array.isArray(list)) collectMedia(list, found, 0);
  return found;
}
