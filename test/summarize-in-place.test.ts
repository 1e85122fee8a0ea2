// summarizeInPlace's instructions: the previous summary is quoted only when the request does not
// already hold it, since after the cached prefix every repeated token is billed at the full price.
import { describe, expect, it } from "vitest";
import { SUMMARY_PREFIX } from "../src/expert.js";
import { compactor, type SummaryContext } from "../src/index.js";
import { summarizeInPlace } from "../src/summary-kit.js";

type Message = { role: string; content: string };

const contextOf = (fields: Partial<SummaryContext>): SummaryContext => ({
  signal: new AbortController().signal,
  instructions: undefined,
  previousSummary: undefined,
  tokensBefore: 1000,
  maxTokens: 800,
  keepTail: 400,
  maxSummaryTokens: 200,
  ...fields,
});

/** A summarizeInPlace whose requests are kept in `sent`. */
function recording() {
  const sent: Message[][] = [];
  const summarize = summarizeInPlace<Message>((messages) => {
    sent.push(messages);
    return "- Refund of W7 started.";
  });
  return { sent, summarize };
}

describe("summarizeInPlace instructions", () => {
  it("refers to the previous summary the conversation opens with instead of repeating it", async () => {
    const previous = "- The user wants order W7 refunded.";
    const { sent, summarize } = recording();
    const system = { role: "system", content: "You are a support agent." };
    const summary = { role: "system", content: `${SUMMARY_PREFIX}${previous}` };
    const older = [summary, { role: "user", content: "Go ahead." }, { role: "assistant", content: "Started." }];
    await summarize(older, contextOf({ previousSummary: previous, head: [system], requestPrefix: [system, ...older] }));
    const instructions = sent[0]!.at(-1)!.content;
    expect(sent[0]!.slice(0, -1)).toEqual([system, ...older]);
    expect(instructions).toContain("opens with the previous summary");
    expect(instructions).not.toContain(previous);
  });

  it("quotes the previous summary when the messages sent do not hold it", async () => {
    const previous = "- The user wants order W7 refunded.";
    const { sent, summarize } = recording();
    await summarize([{ role: "user", content: "Go ahead." }], contextOf({ previousSummary: previous }));
    expect(sent[0]!.at(-1)!.content).toContain(`<previous-summary>\n${previous}\n</previous-summary>`);
  });

  it("through the hook, a second compaction's request holds the first summary once", async () => {
    const requests: Message[][] = [];
    const hook = compactor<Message>({
      maxTokens: 300,
      summarize: summarizeInPlace<Message>((messages) => {
        requests.push(messages);
        return `- summary number ${requests.length}`;
      }),
    });
    let messages: Message[] = [{ role: "system", content: "You are terse." }];
    for (let turn = 0; turn < 12; turn++) {
      messages.push(
        { role: "user", content: `Question ${turn}: ${"words ".repeat(40)}` },
        { role: "assistant", content: `Answer ${turn}: ${"words ".repeat(40)}` },
      );
      messages = (await hook({ messages }))?.messages ?? messages;
    }
    expect(requests.length).toBeGreaterThan(1);
    const later = requests.at(-1)!;
    const occurrences = later.filter((message) => message.content.includes("- summary number")).length;
    expect(occurrences).toBe(1);
    expect(later.at(-1)!.content).toContain("opens with the previous summary");
  });
});
