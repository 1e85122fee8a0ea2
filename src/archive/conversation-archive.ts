// What `archive: true` keeps of one conversation: every range a compaction removed, verbatim, and
// how it is bounded to `archive.maxBytes`.

import { utf8ByteLength } from "../counting/utf8-length.js";

/** The version of the archive's stored format; an archive of another version is ignored. */
export const ARCHIVE_VERSION = 1;

/** One input message a compaction removed, and its position in the conversation (counting from 0). */
export interface ArchivedMessage {
  index: number;
  /** The message as the caller sent it, in its own format (its JSON). */
  message: object;
}

/** The messages one compaction removed, oldest first; `from`–`to` spans them (inclusive). */
export interface ArchivedRange {
  from: number;
  to: number;
  messages: ArchivedMessage[];
}

/**
 * What an archive bound left out: the positions of the messages dropped to make room, oldest
 * first, and of those skipped because each is larger than the bound by itself.
 */
export interface ArchiveTrim {
  dropped: number[];
  skipped: number[];
}

const isIndex = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value) && value >= 0;

/** Reads a stored archive's payload; throws a `TypeError` saying what is wrong with it. */
export function parseArchive(text: string): ArchivedRange[] {
  const value = JSON.parse(text) as { version?: unknown; ranges?: unknown } | null;
  if (typeof value !== "object" || value === null)
    throw new TypeError("Expected the stored archive to be a JSON object");
  if (value.version !== ARCHIVE_VERSION)
    throw new TypeError(`Expected a stored archive of version ${ARCHIVE_VERSION}, got ${String(value.version)}`);
  if (!Array.isArray(value.ranges)) throw new TypeError("Expected the stored archive's `ranges` to be a list");
  return value.ranges.map((range: Partial<ArchivedRange> | null) => {
    const messages = range?.messages;
    const valid =
      typeof range === "object" &&
      range !== null &&
      isIndex(range.from) &&
      isIndex(range.to) &&
      Array.isArray(messages) &&
      messages.every(
        (entry) =>
          typeof entry === "object" &&
          entry !== null &&
          isIndex(entry.index) &&
          typeof entry.message === "object" &&
          entry.message !== null,
      );
    if (!valid)
      throw new TypeError(
        "Expected each range of the stored archive to hold `from`, `to` and its `messages` with their positions",
      );
    return range as ArchivedRange;
  });
}

/** The stored payload of an archive (a JSON object, so that it can be signed as state is). */
export function serializeArchive(ranges: readonly ArchivedRange[]): string {
  return JSON.stringify({ version: ARCHIVE_VERSION, ranges });
}

/** A range of the given messages, or undefined when there are none. */
export function rangeOf(messages: readonly ArchivedMessage[]): ArchivedRange | undefined {
  const first = messages[0];
  const last = messages[messages.length - 1];
  return first === undefined || last === undefined
    ? undefined
    : { from: first.index, to: last.index, messages: messages.slice() };
}

/** Room a signature takes in the stored value (`,"signature":"<64 hex>"`). */
const SIGNATURE_BYTES = 80;

/**
 * The archive with `next` appended, at most `maxBytes` once stored: the oldest messages are
 * dropped first (whole ranges, then the oldest messages of the oldest range kept). A message
 * larger than the bound by itself is skipped rather than archived, so that it never pushes out
 * every other message. Each message is serialized a few times, so appending is linear in the
 * archive's size.
 */
export function appendBounded(
  ranges: readonly ArchivedRange[],
  next: ArchivedRange,
  maxBytes: number,
): { ranges: ArchivedRange[]; trim: ArchiveTrim; added: boolean } {
  // The frame of the payload, each range's frame (measured with `from` as large as it can become
  // once its oldest messages are dropped), and the signature's room.
  const rangeFrame = (range: Pick<ArchivedRange, "to">) =>
    utf8ByteLength(JSON.stringify({ from: range.to, to: range.to, messages: [] })) + 1;
  const frame = utf8ByteLength(serializeArchive([])) + SIGNATURE_BYTES;
  // A message archived already (its state was lost, and the conversation summarized again from
  // the start) is not archived twice.
  const held = new Set(ranges.flatMap((range) => range.messages.map((entry) => JSON.stringify(entry))));
  const skipped: number[] = [];
  const fresh = rangeOf(
    next.messages.filter((entry) => {
      const json = JSON.stringify(entry);
      if (held.has(json)) return false;
      const fits = frame + rangeFrame({ to: entry.index }) + utf8ByteLength(json) + 1 <= maxBytes;
      if (!fits) skipped.push(entry.index);
      return fits;
    }),
  );
  const all = fresh === undefined ? [...ranges] : [...ranges, fresh];
  const sizes = all.map((range) => range.messages.map((entry) => utf8ByteLength(JSON.stringify(entry)) + 1));
  let total = frame;
  for (const [at, range] of all.entries())
    total += rangeFrame(range) + (sizes[at] as number[]).reduce((sum, size) => sum + size, 0);
  const dropped: number[] = [];
  let rangeAt = 0;
  let messageAt = 0;
  while (total > maxBytes && rangeAt < all.length) {
    const range = all[rangeAt] as ArchivedRange;
    if (messageAt === range.messages.length) {
      rangeAt++;
      messageAt = 0;
      continue;
    }
    dropped.push((range.messages[messageAt] as ArchivedMessage).index);
    total -= (sizes[rangeAt] as number[])[messageAt] as number;
    messageAt++;
    if (messageAt === range.messages.length) {
      total -= rangeFrame(range);
      rangeAt++;
      messageAt = 0;
    }
  }
  const kept: ArchivedRange[] = [];
  for (let at = rangeAt; at < all.length; at++) {
    const range = all[at] as ArchivedRange;
    const rest = rangeOf(at === rangeAt ? range.messages.slice(messageAt) : range.messages);
    if (rest !== undefined) kept.push(rest);
  }
  return { ranges: kept, trim: { dropped, skipped }, added: fresh !== undefined };
}
