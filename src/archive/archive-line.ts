import { recallToolDefinition } from "../dialects/recall-tool-definition.js";

/**
 * The line that ends a summary when the messages it replaces are archived: which positions are
 * archived, and the tool that reads them. It is part of the summary message, so it counts in the
 * summary's budget: its forms come longest first, and where even the short one would leave no room
 * for a summary of a few words, the summary ends without a line (and says nothing of the archive).
 *
 * @param from - the first archived position (counting from 0, the system prompt included)
 * @param to - the last archived position
 * @param toolName - the name the recall tool is registered under (`archive.toolName`)
 * @returns the line as a whole sentence, then a short form that still names the range and the tool
 * @example
 * archiveLine(1, 40)[1]; // "\n\n(Messages 1-40 are archived: recall_context reads them.)"
 */
export function archiveLine(from: number, to: number, toolName: string = recallToolDefinition.name): readonly string[] {
  const range = from === to ? `${from}` : `${from}-${to}`;
  return [
    `\n\n(Messages ${range} are archived verbatim: call ${toolName} with an identifier, a phrase or the range "${range}" to read them.)`,
    `\n\n(Messages ${range} are archived: ${toolName} reads them.)`,
  ];
}

const LINE_OPENING = "\n\n(Messages ";
/** Either form of `archiveLine`: its range's end, and the tool it names. */
const LINE_SHAPE =
  /^\n\n\(Messages (?:\d+-)?(\d+) are archived(?: verbatim: call ([^\n]{1,200}) with an identifier, a phrase or the range "(?:\d+-)?\d+" to read them|: ([^\n]{1,200}) reads them)\.\)$/;

/**
 * A summary's text without the archive line this library ended it with, if it did: what the
 * summary itself says, which the next compaction keeps as it is and ends with a line of its own.
 * Only the line the library wrote is taken off (its range ends no later than where the summary's
 * compaction ended, short of it when the archive skipped its newest messages, and it names the
 * recall tool as registered): a line of another shape that a summarizer wrote is part of the summary.
 *
 * @param text - the summary's text, without its prefix and seal
 * @param written - the last position the line could name (`conversationCovered - 1` of the state the summary was stored with), and the tool's name
 * @example
 * withoutArchiveLine("Orders.\n\n(Messages 1-40 are archived: recall_context reads them.)", { last: 40, toolName: "recall_context" }); // "Orders."
 */
export function withoutArchiveLine(text: string, written: { last: number; toolName: string }): string {
  const at = text.lastIndexOf(LINE_OPENING);
  if (at < 0) return text;
  const match = LINE_SHAPE.exec(text.slice(at));
  return match !== null && Number(match[1]) <= written.last && (match[2] ?? match[3]) === written.toolName
    ? text.slice(0, at)
    : text;
}
