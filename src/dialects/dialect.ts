import type { DialectName } from "../ground/types.js";

export type { DialectName };

/** A message seen as a plain record: dialects read fields by name and never change them. */
export type MessageRecord = Record<string, unknown>;

/**
 * What a message says, in dialect-free terms: what the summary kit renders and the model-free
 * stages read. Tool payloads are already text.
 */
export type MessagePart =
  | { kind: "text"; text: string }
  /** A placeholder for what is not text (an image, a file) or a line of its own (an unknown item type). */
  | { kind: "note"; text: string }
  | { kind: "call"; id: string | undefined; name: string | undefined; input: unknown }
  | { kind: "result"; id: string | undefined; name: string | undefined; output: string; isError: boolean };

/** An image or a file in a message, as the estimate sees it. */
export interface MediaPart {
  kind: "image" | "file";
  /** Characters of the part's JSON that carry its data (base64, bytes or a URL): what bytes / 4 would count. */
  dataLength: number;
  /** `"low"` when the format asks for a low-detail image (billed far less). */
  detail?: "low";
  /** Bytes of the file's data, when it is inline base64 (for documents billed by size). */
  fileBytes?: number;
}

/** A message described by its dialect. */
export interface MessageView {
  /** `"user"`, `"assistant"`, `"system"`, `"tool"`, …; undefined for an item that is not a turn of anyone (a reasoning item). */
  role: string | undefined;
  parts: MessagePart[];
}

/**
 * Everything the library knows about one message format. Tool pairs, boundaries, masking,
 * truncation, in-turn groups and rendering all go through this interface; no other file reads a
 * message's fields. Each method sees one message and never changes it.
 */
export interface Dialect {
  readonly name: DialectName;
  /** True when the message can only be of this dialect (how `detectDialect` tells a transcript). */
  claims(message: MessageRecord): boolean;
  /**
   * True when a transcript of this format can hold the message: a role (or, for typed items, a
   * type) the format has. A message that no format reads is refused with a `TypeError`, never
   * summarized away as text nobody can place.
   */
  reads(message: MessageRecord): boolean;
  /**
   * True for a message that carries a signature the provider checks (signed thinking, an encrypted
   * reasoning item, a thought signature): it is kept byte for byte, never masked or cut.
   */
  signed(message: MessageRecord): boolean;
  /** The speaker in dialect-free terms: `"user"`, `"assistant"`, `"system"`, `"tool"`, or undefined. */
  role(message: MessageRecord): string | undefined;
  /** Calls `visit` with the id of every tool call the message makes (undefined where the format allows no id). */
  forEachToolCall(message: MessageRecord, visit: (id: string | undefined) => void): void;
  /** Calls `visit` with the id of every tool call the message answers (undefined: answers the oldest id-less call). */
  forEachToolResult(message: MessageRecord, visit: (id: string | undefined) => void): void;
  /** The content when it is a string, else the first text block: what marks a summary. */
  leadingText(message: MessageRecord): string | undefined;
  /** True for a message that may open a complete tool group (an assistant turn, a call item). */
  opensToolGroup(message: MessageRecord): boolean;
  /** True for an item that belongs with the one after it, so no cut may fall right after it. */
  bindsToNext(message: MessageRecord): boolean;
  /** The payload of each text-replaceable tool result in the message, as text, in order. */
  resultTexts(message: MessageRecord): string[];
  /** A copy of the message with the payload of result `i` (as counted by `resultTexts`) replaced by `texts.get(i)`. */
  replaceResults(message: MessageRecord, texts: ReadonlyMap<number, string>): MessageRecord;
  /** The arguments of each tool call in the message, as text, in order. */
  argumentTexts(message: MessageRecord): string[];
  /** A copy of the message with the arguments of call `i` (as counted by `argumentTexts`) replaced by `texts.get(i)`; ids kept. */
  replaceArguments(message: MessageRecord, texts: ReadonlyMap<number, string>): MessageRecord;
  /** The message in dialect-free terms, for rendering. */
  describe(message: MessageRecord): MessageView;
  /**
   * For a format whose turns must alternate: the assistant turn the hook adds after its user-role
   * summary (and reminder), so that the tail's first user turn follows an assistant one.
   */
  replyToSummary?(): MessageRecord;
  /**
   * With `replyToSummary`: the summary message with one more text block (the flush reminder, which
   * cannot be a user message of its own where turns alternate).
   */
  withText?(message: object, text: string): MessageRecord;
  /**
   * A text message of this dialect, as the hook adds a summary. A format whose messages cannot hold
   * a system message (or whose common providers refuse one after the first position) makes a user
   * message for either role.
   */
  textMessage(role: "system" | "user", text: string): MessageRecord;
}
