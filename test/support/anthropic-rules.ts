// What the Anthropic Messages API requires of `messages`, as a checker for compacted output.
type Block = { type?: string; id?: string; tool_use_id?: string };
type Message = { role?: string; content?: unknown };

const blocks = (m: Message | undefined): Block[] => (Array.isArray(m?.content) ? (m.content as Block[]) : []);

/** Problems that would make the Anthropic API reject the transcript; empty when it would accept it. */
export function anthropicProblems(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  if (messages.length > 0 && messages[0]!.role !== "user") problems.push("the first message is not a user message");
  messages.forEach((message, index) => {
    if (message.role !== "user" && message.role !== "assistant") problems.push(`message ${index} has role ${String(message.role)}`);
    const uses = blocks(message).filter((b) => b.type === "tool_use").map((b) => b.id);
    if (uses.length > 0) {
      const next = messages[index + 1];
      const answered = new Set(blocks(next).filter((b) => b.type === "tool_result").map((b) => b.tool_use_id));
      if (next?.role !== "user") problems.push(`tool_use in message ${index} is not followed by a user message`);
      for (const id of uses) if (!answered.has(id)) problems.push(`tool_use ${id} in message ${index} is not answered in the next message`);
    }
    const results = blocks(message).filter((b) => b.type === "tool_result");
    if (results.length > 0) {
      const previous = new Set(blocks(messages[index - 1]).filter((b) => b.type === "tool_use").map((b) => b.id));
      for (const result of results) if (!previous.has(result.tool_use_id)) problems.push(`tool_result ${result.tool_use_id} in message ${index} has no tool_use in the message before`);
    }
  });
  return problems;
}
