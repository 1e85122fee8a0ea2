// With usage, a summary of this library's counts by its own content, not at the transcript's ratio
// (SPEC §40: the count of a compacted request, `tokensAfter`, within 10% of the provider's): on a
// loop of UUID listings (a ratio of about 2), the ratio put a prose summary at twice what o200k
// counts, and `tokensAfter` 13% over the provider's count of the request. The provider here is
// gpt-tokenizer's o200k, as a chat API bills a message (its text and 4 tokens of framing).
import { countTokens as o200k } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { compactor } from "../src/index.js";

const hex = (seed: number, length: number): string => {
  let state = seed;
  let text = "";
  for (let index = 0; index < length; index++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    text += "0123456789abcdef"[state % 16];
  }
  return text;
};
const uuids = (seed: number, count: number): string =>
  Array.from({ length: count }, (_, index) => {
    const h = hex(seed * 1000 + index, 32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
  }).join("\n");

describe("with usage, a compacted request counts as the provider counts it", () => {
  // A tool loop of UUID listings, its requests counted by o200k as a provider would (text plus 4
  // tokens of framing a message), each count passed back as `usage`.
  const FRAMING = 4;
  const textOf = (message: Record<string, unknown>): string =>
    typeof message["content"] === "string" ? message["content"] : "";
  const provider = (messages: Record<string, unknown>[]): number =>
    messages.reduce((sum, message) => sum + o200k(textOf(message)) + FRAMING, 0);

  it("keeps tokensAfter within 10% of o200k's count of the request, where the transcript's ratio doubled the summary", async () => {
    const events: { tokensAfter: number; sent: Record<string, unknown>[] }[] = [];
    let latest: number | undefined;
    const hook = compactor<Record<string, unknown>>({
      maxTokens: 8_000,
      summarize: (older) =>
        `Listed ${older.length} messages of ids; nothing decided yet. ${"Notes on the lists read. ".repeat(120)}`,
      events: { onCompacted: (event) => (latest = event.tokensAfter), warnOverBudget: false },
    });
    let messages: Record<string, unknown>[] = [];
    let usage: { inputTokens: number; messageCount: number } | undefined;
    for (let turn = 0; turn < 40; turn++) {
      messages = [
        ...messages,
        { role: "user", content: `List batch ${turn}.` },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: `c${turn}`, type: "function", function: { name: "list", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: `c${turn}`, content: uuids(turn, 40) },
        { role: "assistant", content: `Batch ${turn} listed.` },
      ];
      latest = undefined;
      const result = await hook(usage ? { messages, usage } : { messages });
      const sent = result?.messages ?? messages;
      if (latest !== undefined) events.push({ tokensAfter: latest, sent });
      messages = sent;
      usage = { inputTokens: provider(sent), messageCount: sent.length };
    }
    expect(events.length).toBeGreaterThan(2);
    for (const { tokensAfter, sent } of events) {
      const truth = provider(sent);
      expect(tokensAfter / truth).toBeGreaterThan(0.9);
      expect(tokensAfter / truth).toBeLessThan(1.1);
    }
  });
});
