// What the native compaction backends read of the messages they send and the responses they get:
// the fields of Anthropic's and OpenAI's own shapes, read here, with the other dialects' readers.
// - Anthropic Messages API: `system` is a request parameter, not a message; a message's content is
//   a string or blocks (`{ type: "text", text }`); the compaction response holds a block
//   `{ type: "compaction", content }` whose content is null when the compaction failed
//   (@anthropic-ai/sdk `BetaCompactionBlock`).
// - OpenAI Responses `compact`: "The compacted list of output items. This is a list of all user
//   messages, followed by a single compaction item." (`CompactedResponse.output`); instructions
//   are items of role `system` or `developer`.

const fieldOf = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;

/** An Anthropic request's parts: the system messages' text (for the `system` parameter) and every other message. */
export function anthropicSystemApart(messages: readonly object[]): { system: string[]; messages: object[] } {
  const system: string[] = [];
  const rest: object[] = [];
  for (const message of messages) {
    if (fieldOf(message, "role") !== "system") rest.push(message);
    else {
      const text = textOf(fieldOf(message, "content"));
      if (text !== "") system.push(text);
    }
  }
  return { system, messages: rest };
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (typeof fieldOf(part, "text") === "string" ? (fieldOf(part, "text") as string) : ""))
    .join("");
}

/** An Anthropic response's content blocks, and the text of its compaction block when it has one with content. */
export function anthropicCompactionIn(response: unknown): { content: object[]; text?: string } {
  const blocks = fieldOf(response, "content");
  const content = Array.isArray(blocks) ? (blocks as object[]) : [];
  const text = fieldOf(
    content.find((part) => fieldOf(part, "type") === "compaction"),
    "content",
  );
  return typeof text === "string" && text.trim() !== "" ? { content, text } : { content };
}

/** An OpenAI `compact` response's output items, and whether one is the compaction item. */
export function openaiCompactionIn(response: unknown): { output: object[]; compacted: boolean } {
  const items = fieldOf(response, "output");
  const output = Array.isArray(items) ? (items as object[]) : [];
  return { output, compacted: output.some((item) => fieldOf(item, "type") === "compaction") };
}

/** True for a Responses instruction item (role `system` or `developer`), which the head keeps. */
export function isInstructionItem(item: object): boolean {
  const role = fieldOf(item, "role");
  return role === "system" || role === "developer";
}
