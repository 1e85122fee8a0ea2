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
/** Either form of `archiveLine`, whatever its range and tool name. */
const LINE_SHAPE = /^\n\n\(Messages \d+(?:-\d+)? are archived(?: verbatim: call [^\n]{1,200} with an identifier, a phrase or the range "\d+(?:-\d+)?" to read them|: [^\n]{1,200} reads them)\.\)$/;

/**
 * A summary's text without the archive line that ends it, if one does: what the summary itself
 * says, which the next compaction keeps as it is and ends with a line of its own.
 *
 * @example
 * withoutArchiveLine("Orders.\n\n(Messages 1-40 are archived: recall_context reads them.)"); // "Orders."
 */
export function withoutArchiveLine(text: string): string {
  const at = text.lastIndexOf(LINE_OPENING);
  return at >= 0 && LINE_SHAPE.test(text.slice(at)) ? text.slice(0, at) : text;
}
