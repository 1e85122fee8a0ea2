// The split's scan, written the plain way (recount every suffix), as the oracle for the fast search.
import { isSummaryMessage } from "../../src/dialects/messages.js";
import { estimateTokens } from "../../src/index.js";

type Message = Record<string, unknown>;

export function referenceIsBoundary(m: Message): boolean {
  if (m["role"] !== "user") return false;
  if (isSummaryMessage(m)) return false;
  if (
    m["content"] ===
    "Before continuing: the earlier transcript was replaced by the summary above; if anything in it or in the messages since is worth keeping, save it with the memory tool now."
  )
    return false;
  const blocks = [m["content"], m["parts"]].flatMap((list) => (Array.isArray(list) ? (list as Message[]) : []));
  if (
    blocks.some(
      (p) =>
        p?.["text"] ===
        "Before continuing: the earlier transcript was replaced by the summary above; if anything in it or in the messages since is worth keeping, save it with the memory tool now.",
    )
  )
    return false;
  return !blocks.some(
    (p) => p?.["type"] === "tool_result" || p?.["toolResult"] !== undefined || p?.["functionResponse"] !== undefined,
  );
}

export function referenceSplit(
  messages: readonly Message[],
  keepTail: number,
  countTokens: (m: readonly Message[]) => number = estimateTokens,
  isBoundary: (m: Message) => boolean = referenceIsBoundary,
) {
  const first = messages[0];
  const head = first && first["role"] === "system" && !isSummaryMessage(first) ? 1 : 0;
  let start = -1;
  for (let i = messages.length - 1; i >= head + 1; i--) {
    if (countTokens(messages.slice(i)) > keepTail) break;
    if (isBoundary(messages[i]!)) start = i;
  }
  if (start === -1) {
    start = messages.length;
    for (let i = messages.length - 1; i >= head + 1; i--) {
      if (isBoundary(messages[i]!)) {
        start = i;
        break;
      }
    }
  }
  return { head: messages.slice(0, head), older: messages.slice(head, start), tail: messages.slice(start) };
}
