// Content arrays shared by the OpenAI chat, Anthropic, AI SDK and Responses formats: text parts
// and media parts look alike across them, so one reader serves all four.
import type { MessagePart, MessageRecord } from "./dialect.js";

const textPartTypes = new Set(["text", "input_text", "output_text"]);
const imageTypes = new Set(["image", "image_url", "input_image"]);
const fileTypes = new Set(["file", "input_file", "document"]);
const silentTypes = new Set(["reasoning", "thinking", "redacted_thinking"]);

/** Serializes any value for display; never throws. */
export function stringify(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    try {
      return String(value);
    } catch {
      return "[unprintable]";
    }
  }
}

/** A record's field when it is a string. */
export function stringField(record: unknown, key: string): string | undefined {
  if (typeof record !== "object" || record === null) return undefined;
  const value = (record as MessageRecord)[key];
  return typeof value === "string" ? value : undefined;
}

/**
 * The content when it is a string, else the text its parts lead with: the first text part's, and
 * each later one's that goes on from it by opening with a blank line (a summary's next section, its
 * archive line or its seal, each a block of its own where a cache marker asked for blocks). A text
 * part is a typed one (`text`, `input_text`, `output_text`), or, in formats whose parts have no
 * type (Bedrock's, Genkit's, Gemini's), any part with a `text` that is not a Gemini thought.
 */
export function leadingContentText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  let text: string | undefined;
  for (const part of records(content)) {
    const type = part["type"];
    const piece =
      part["thought"] !== true && (type === undefined || textPartTypes.has(type as string)) ? part["text"] : undefined;
    if (typeof piece !== "string") continue;
    if (text !== undefined && !piece.startsWith("\n\n")) break;
    text = (text ?? "") + piece;
  }
  return text;
}

/**
 * One content part as text: its text, a short placeholder for media, nothing for reasoning and for
 * tool parts (the dialect describes those), and `[type]` for anything else.
 */
function partAsText(part: unknown, toolPartTypes: ReadonlySet<string>): string {
  if (typeof part === "string") return part;
  if (typeof part !== "object" || part === null) return stringify(part);
  const p = part as MessageRecord;
  const type = typeof p["type"] === "string" ? p["type"] : "";
  if (typeof p["text"] === "string") return p["text"];
  if (imageTypes.has(type)) return "[image]";
  if (fileTypes.has(type)) {
    const name = p["filename"] ?? stringField(p["file"], "filename") ?? stringField(p["source"], "filename");
    return typeof name === "string" ? `[file: ${name}]` : "[file]";
  }
  if (type === "input_audio" || type === "audio") return "[audio]";
  if (type === "refusal" && typeof p["refusal"] === "string") return `(refused) ${p["refusal"]}`;
  if (silentTypes.has(type) || toolPartTypes.has(type)) return "";
  return type ? `[${type}]` : stringify(part);
}

/** A content value (string, part array, or one part) as text. */
export function contentAsText(content: unknown, toolPartTypes: ReadonlySet<string>): string {
  if (content === undefined || content === null) return "";
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return partAsText(content, toolPartTypes);
  return content
    .map((part) => partAsText(part, toolPartTypes))
    .filter((text) => text !== "")
    .join("\n");
}

/** The text parts of a content value, as the view of a message. */
export function textParts(content: unknown, toolPartTypes: ReadonlySet<string>): MessagePart[] {
  const text = contentAsText(content, toolPartTypes);
  return text.trim() === "" ? [] : [{ kind: "text", text }];
}

/** The value as a record, when it is a non-null object. */
export function asRecord(value: unknown): MessageRecord | undefined {
  return typeof value === "object" && value !== null ? (value as MessageRecord) : undefined;
}

/** The objects of an array field (content blocks, parts); empty when the field is not an array. */
export function records(list: unknown): readonly MessageRecord[] {
  if (!Array.isArray(list)) return noRecords;
  // Every stage reads every message's parts, so the usual list (objects only) is returned as it is, not copied.
  for (const item of list)
    if (typeof item !== "object" || item === null)
      return list.filter((entry): entry is MessageRecord => typeof entry === "object" && entry !== null);
  return list as MessageRecord[];
}
const noRecords: readonly MessageRecord[] = /* @__PURE__ */ Object.freeze([]);

/** True when some object of an array field passes `test`; allocates nothing (detection runs on every message). */
export function someRecord(list: unknown, test: (entry: MessageRecord) => boolean): boolean {
  if (!Array.isArray(list)) return false;
  for (const entry of list)
    if (typeof entry === "object" && entry !== null && test(entry as MessageRecord)) return true;
  return false;
}

/** Indices, in an array field, of the entries that pass `test`. */
export function indicesWhere(list: unknown, test: (entry: MessageRecord) => boolean): number[] {
  if (!Array.isArray(list)) return [];
  const indices: number[] = [];
  list.forEach((entry, index) => {
    const record = asRecord(entry);
    if (record !== undefined && test(record)) indices.push(index);
  });
  return indices;
}

/**
 * A copy of the message whose array `at.field` has the entries at `at.slots[i]` rewritten by `make` for
 * each `i` in `texts`: how a dialect replaces the payloads of results held in a content array.
 */
export function replaceEntries(
  message: MessageRecord,
  at: { field: string; slots: readonly number[] },
  texts: ReadonlyMap<number, string>,
  make: (entry: MessageRecord, text: string) => MessageRecord,
): MessageRecord {
  const { field, slots } = at;
  if (texts.size === 0) return message;
  const list = (message[field] as unknown[]).slice();
  for (const [slot, text] of texts) {
    const index = slots[slot];
    if (index !== undefined) list[index] = make(list[index] as MessageRecord, text);
  }
  return { ...message, [field]: list };
}

/** Tool-call arguments as text: a string as it is, anything else as JSON. */
export function argumentText(value: unknown): string {
  return typeof value === "string" ? value : stringify(value ?? {});
}

/**
 * Arguments that were an object and had to be cut: they stay an object, so the call keeps its
 * shape, and say what happened.
 */
export function cutArgumentsObject(text: string): MessageRecord {
  return { truncated: text };
}

/** Characters of a value's JSON: the length the estimate's bytes / 4 would count for it. */
export function jsonLength(value: unknown): number {
  if (typeof value === "string") return value.length + 2;
  if (value === undefined) return 0;
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return 0;
  }
}

/** Decoded bytes of inline base64 data (a data URL or a bare base64 string); undefined for a URL or id. */
export function base64Bytes(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  const comma = value.startsWith("data:") ? value.indexOf(",") : -1;
  const data = comma === -1 ? value : value.slice(comma + 1);
  if (comma === -1 && /^[a-z]+:\/\//i.test(value)) return undefined;
  return Math.floor((data.length * 3) / 4);
}

/** Fields that hold a signature or encrypted reasoning the provider checks when the part comes back. */
const signatureFields = [
  "signature",
  "thoughtSignature",
  "thinkingSignature",
  "textSignature",
  "encrypted_content",
  "redactedContent",
  "redactedData",
  "reasoningEncryptedContent",
];
/** Where formats keep a part's provider data: the AI SDK's `providerOptions`, Genkit's `metadata`, Bedrock's `reasoningContent`, LangChain's `extras`. */
const signatureHolders = [
  "providerOptions",
  "providerMetadata",
  "metadata",
  "reasoningContent",
  "reasoningText",
  "extras",
];

function holdsSignatureField(record: MessageRecord): boolean {
  for (const field of signatureFields) {
    const value = record[field];
    if ((typeof value === "string" && value !== "") || ArrayBuffer.isView(value)) return true;
  }
  return false;
}

/**
 * True for a content part that carries a signature the provider verifies: Anthropic's signed
 * `thinking` and `redacted_thinking`, Gemini's `thoughtSignature`, Bedrock's signed or redacted
 * `reasoningContent`, pi's thinking and thought signatures, and the same kept in the AI SDK's
 * `providerOptions` or Genkit's `metadata` (looked for two levels down: `providerOptions.anthropic.signature`).
 */
export function carriesSignature(part: MessageRecord): boolean {
  if (part["type"] === "redacted_thinking" || holdsSignatureField(part)) return true;
  for (const holder of signatureHolders) {
    const inner = asRecord(part[holder]);
    if (inner === undefined) continue;
    if (holdsSignatureField(inner)) return true;
    for (const value of Object.values(inner)) {
      const nested = asRecord(value);
      if (nested !== undefined && holdsSignatureField(nested)) return true;
    }
  }
  return false;
}
