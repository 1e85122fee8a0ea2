// A chat route as docs/counting.md prints it (SPEC §40): the transcript and the provider's last
// response are kept in a database and read back for each request, and the plain hook counts by that
// response. The provider here counts what travels apart (the system prompt and tools, passed as
// `reserveTokens`) plus each message's text at its own rate, dense tool output far above bytes / 4.
import { describe, expect, it } from "vitest";
import { compactor, estimateTokens } from "../src/index.js";

type Message = {
  role: "system" | "user" | "assistant" | "tool";
  content: string | null;
  tool_calls?: { id: string; type: "function"; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
};

const FIXED = 900;
/** The provider's count: what travels apart, and every message at 2.2 tokens per 4 bytes of a digit run, 1 for prose. */
const providerCount = (messages: readonly Message[]) =>
  FIXED +
  messages.reduce(
    (sum, message) => sum + Math.ceil(estimateTokens([message]) * (/\d{4}/.test(message.content ?? "") ? 2.2 : 1)),
    0,
  );

describe("a chat route that reads its transcript and the last response back from a database", () => {
  it("sends 0 of 90 requests over budget by the provider's count", async () => {
    const maxTokens = 12_000;
    const hook = compactor<Message>({
      maxTokens,
      reserveTokens: FIXED,
      summarize: (older) => `The user asked ${older.length} things; the exports were read.`,
      events: { warnOverBudget: false },
    });
    // The database: JSON text, so every request reads new objects.
    let stored = JSON.stringify({
      messages: [{ role: "system", content: "You are a data assistant." }] as Message[],
      lastResponse: undefined as unknown,
    });
    const over: number[] = [];
    for (let request = 0; request < 90; request++) {
      const { messages: history, lastResponse } = JSON.parse(stored) as { messages: Message[]; lastResponse?: unknown };
      let messages: Message[] = [...history, { role: "user", content: `Export ${request}, please.` }];
      const compacted = await hook(lastResponse === undefined ? { messages } : { messages, response: lastResponse });
      if (compacted) messages = compacted.messages;
      const counted = providerCount(messages);
      if (counted > maxTokens) over.push(counted);
      // The model calls the export tool; the tool answers with rows of figures; a second model call
      // (the request now holding the result) replies. Its response is the one stored: it answers the
      // messages before the reply the route appends after it.
      const rows = Array.from(
        { length: 40 },
        (_, row) => `${request},${row},${(request * 7919 + row * 104729) % 1000003},${(row * 31337) % 99991}`,
      ).join("\n");
      messages = [
        ...messages,
        {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: `c${request}`,
              type: "function",
              function: { name: "export", arguments: JSON.stringify({ id: request }) },
            },
          ],
        },
        { role: "tool", tool_call_id: `c${request}`, content: rows },
      ];
      const second = providerCount(messages);
      const response = {
        id: `chatcmpl-${request}`,
        object: "chat.completion",
        usage: { prompt_tokens: second, completion_tokens: 20, total_tokens: second + 20 },
      };
      messages = [...messages, { role: "assistant", content: `Export ${request} has 40 rows.` }];
      stored = JSON.stringify({ messages, lastResponse: response });
    }
    expect(over).toEqual([]);
  });
});
