import { recallToolDefinition } from "../dialects/recall-tool-definition.js";

/**
 * The line that ends a summary when the messages it replaces are archived: which positions are
 * archived, and the tool that reads them. It is part of the summary message, so it counts in the
 * summary's budget.
 */
export function archiveLine(from: number, to: number): string {
  const range = from === to ? `${from}` : `${from}-${to}`;
  return `\n\n(Messages ${range} are archived verbatim: call ${recallToolDefinition.name} with an identifier, a phrase or the range "${range}" to read them.)`;
}
