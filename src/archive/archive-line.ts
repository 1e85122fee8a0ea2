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
