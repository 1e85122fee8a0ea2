// A compaction the agent asks for (`requestCompaction`, what `compact_context` answers): when it is
// taken, when it is refused and why, and that a request of one conversation never reaches another.
import { describe, expect, it } from "vitest";
import { compactor, memoryStore, statefulCompactor, type SummaryContext } from "../src/index.js";
import { MAX_NOTE_CHARS } from "../src/hook/compaction-requests.js";
import { builders } from "./support/builders.js";

const { system, user, assistant } = builders["openai-chat"];
const chat = (tag: string, turns = 6) => [system("You help."), ...Array.from({ length: turns }, (_, turn) => [user(`${tag} question ${turn} ${"detail ".repeat(40)}`), assistant(`${tag} answer ${turn} ${"fact ".repeat(40)}`)]).flat(), user(`${tag} last question`)];

function recording() {
  const seen: (string | undefined)[] = [];
  const summarize = (_older: object[], context: SummaryContext) => {
    seen.push(context.instructions);
    return "Earlier questions were answered.";
  };
  return { seen, summarize };
}

describe("requestCompaction on a plain hook", () => {
  it("makes the next call compact under budget with the note, once; asking right after is refused with the reason", async () => {
    const { seen, summarize } = recording();
    const hook = compactor({ maxTokens: 100_000, summarize });
    const messages = chat("alice");
    expect(await hook({ messages })).toBeNull();
    expect(hook.requestCompaction("the open refund", { minTokens: 100 })).toEqual({ scheduled: true, message: expect.stringMatching(/^Compaction scheduled/) });
    expect(hook.requestCompaction("again", { minTokens: 100 }).message).toMatch(/already scheduled/);
    const compacted = await hook({ messages });
    expect(compacted).not.toBeNull();
    expect(seen).toEqual(["The agent asked for this compaction. Keep: the open refund"]);
    const twice = hook.requestCompaction("the open refund", { minTokens: 100 });
    expect(twice.scheduled).toBe(false);
    expect(twice.message).toMatch(/compacted right before this step/);
    // The next ordinary call clears it: the agent may ask again later.
    await hook({ messages: compacted!.messages });
    expect(hook.requestCompaction("later", { minTokens: 1 }).scheduled).toBe(true);
  });

  it("refuses under the minimum (a quarter of maxTokens by default), saying the count", async () => {
    const { seen, summarize } = recording();
    const hook = compactor({ maxTokens: 100_000, summarize });
    await hook({ messages: chat("alice") });
    const answer = hook.requestCompaction("anything");
    expect(answer.scheduled).toBe(false);
    expect(answer.message).toMatch(/^Not compacted: the context holds about \d+ tokens, under the 25000 from which/);
    expect(await hook({ messages: chat("alice") })).toBeNull();
    expect(seen).toEqual([]);
  });

  it("a request names its conversation: another conversation's call on the same hook never takes it", async () => {
    const { seen, summarize } = recording();
    const hook = compactor({ maxTokens: 100_000, summarize });
    await hook({ messages: chat("alice"), conversationId: "alice" });
    expect(hook.requestCompaction("alice's passport number", { conversationId: "alice", minTokens: 1 }).scheduled).toBe(true);
    expect(await hook({ messages: chat("bob"), conversationId: "bob" })).toBeNull();
    expect(await hook({ messages: chat("bob") })).toBeNull();
    expect(seen).toEqual([]);
    expect(await hook({ messages: chat("alice"), conversationId: "alice" })).not.toBeNull();
    expect(seen).toEqual(["The agent asked for this compaction. Keep: alice's passport number"]);
  });

  it("bounds the note, never inside a surrogate pair, and checks its arguments", async () => {
    const { seen, summarize } = recording();
    const hook = compactor({ maxTokens: 100_000, summarize });
    await hook({ messages: chat("alice") });
    hook.requestCompaction(`${"a".repeat(MAX_NOTE_CHARS - 1)}😀 and more`, { minTokens: 1 });
    await hook({ messages: chat("alice") });
    const note = seen[0]!.slice("The agent asked for this compaction. Keep: ".length);
    expect(note).toBe("a".repeat(MAX_NOTE_CHARS - 1));
    expect(() => hook.requestCompaction(42 as unknown as string)).toThrow(TypeError);
    expect(() => hook.requestCompaction("x", { min_tokens: 3 } as never)).toThrow(/Did you mean `minTokens`/);
  });
});

describe("requestCompaction on statefulCompactor", () => {
  it("compacts the named conversation's next call and stores the result; needs an id", async () => {
    const { seen, summarize } = recording();
    const compact = statefulCompactor({ maxTokens: 100_000, summarize, store: memoryStore() });
    expect(() => compact.requestCompaction("x")).toThrow(/Expected a `conversationId`/);
    await compact(chat("alice"), { conversationId: "alice" });
    expect(compact.requestCompaction("the refund", { conversationId: "alice", minTokens: 1 }).scheduled).toBe(true);
    expect(await compact(chat("bob"), { conversationId: "bob" })).toBeNull();
    const first = await compact(chat("alice"), { conversationId: "alice" });
    expect(first).not.toBeNull();
    expect(seen).toEqual(["The agent asked for this compaction. Keep: the refund"]);
    // Stored: the next call continues from it without summarizing again.
    expect((await compact(chat("alice"), { conversationId: "alice" }))?.messages).toEqual(first!.messages);
    expect(seen).toHaveLength(1);
  });
});
