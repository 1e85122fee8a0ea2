// One huge payload is cut, not summarized away (SPEC §40): a tool result too large for any tail, in
// the first turn as in a later one, reaches the model cut at its middle, with the turn kept whole.
import { describe, expect, it } from "vitest";
import { compactor, estimateTokens, type DialectName } from "../src/index.js";
import { builders } from "./support/builders.js";

describe.each(["openai-chat", "anthropic", "ai-sdk", "openai-responses"] satisfies DialectName[])(
  "a 2.5 MB tool result in %s",
  (dialect) => {
    const b = builders[dialect];
    const big = `total,${"12.50,".repeat(420_000)}end-of-export`;

    it("in the first turn reaches the model cut, with no summary of it", async () => {
      let summarized = 0;
      const hook = compactor({
        maxTokens: 100_000,
        summary: { role: "user" },
        summarize: () => (summarized++, "summary"),
      });
      const messages = [
        b.user("Load the export and tell me the total."),
        b.toolCall("c1", "load", {}),
        b.toolResult("c1", big),
      ] as object[];
      const result = await hook({ messages });
      expect(summarized).toBe(0);
      expect(result!.overBudget).toBeUndefined();
      expect(estimateTokens(result!.messages)).toBeLessThanOrEqual(100_000);
      const sent = JSON.stringify(result!.messages);
      // The start and the end of the output are both there, and the user's question.
      expect(sent).toContain("total,12.50");
      expect(sent).toContain("end-of-export");
      expect(sent).toContain("Load the export");
    });

    it("in a later turn, the earlier turns are summarized and the latest kept whole, cut", async () => {
      const older: object[] = [];
      for (let turn = 0; turn < 6; turn++)
        older.push(b.user(`question ${turn} ${"detail ".repeat(200)}`), b.assistant(`answer ${turn}`));
      const hook = compactor({
        maxTokens: 100_000,
        summary: { role: "user" },
        summarize: (messages) => `${messages.length} earlier messages`,
      });
      const result = await hook({
        messages: [
          ...older,
          b.user("Load the export."),
          b.toolCall("c1", "load", {}),
          b.toolResult("c1", big),
        ] as object[],
      });
      const sent = JSON.stringify(result!.messages);
      expect(sent).toContain("end-of-export");
      expect(sent).toContain("Load the export.");
      expect(estimateTokens(result!.messages)).toBeLessThanOrEqual(100_000);
    });
  },
);
