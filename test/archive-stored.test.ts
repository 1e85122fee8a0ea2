// The archive line names only what the store took: a store that refuses the archive's value (its
// own limit), refuses every write, or does not answer, never leaves a summary that points the agent
// at messages recall cannot return; a range the store cannot take whole is stored without the
// message too large for it. And recall shows a tool result's lines as they were written.
import { describe, expect, it } from "vitest";
import { memoryStore, statefulCompactor, type CompactionStore } from "../src/index.js";
import { builders } from "./support/builders.js";

const { system, user, assistant, toolCall, toolResult } = builders["openai-chat"];

/** 42 ordinary messages, one tool output of 1.1 MB, and a few turns after it. */
function withOneHugeOutput(): object[] {
  const messages: object[] = [system("You are a support agent.")];
  for (let turn = 1; turn <= 21; turn++)
    messages.push(
      user(`Where is order ORD-${1000 + turn}?`),
      assistant(`Order ORD-${1000 + turn} ships from WH-${turn}.`),
    );
  messages.push(
    toolCall("c1", "dump_logs", {}),
    toolResult("c1", `log start ${"0123456789abcdef ".repeat(65_000)} log end`),
  );
  for (let turn = 22; turn <= 25; turn++)
    messages.push(user(`And order ORD-${1000 + turn}?`), assistant(`ORD-${1000 + turn} is on its way.`));
  return messages;
}

/** The ranges the summary's archive line names, in the request a compaction returned. */
function namedRanges(result: { messages: object[] } | null): [number, number][] {
  const text = JSON.stringify(result?.messages ?? []);
  return [...text.matchAll(/\(Messages (\d+)(?:-(\d+))? are archived/g)].map((match) => [
    Number(match[1]),
    Number(match[2] ?? match[1]),
  ]);
}

/** Every position a range names is returned by a recall of that range. */
async function expectRecallable(
  stateful: { recall: (query: string, options?: { maxTokens?: number }) => Promise<string> },
  ranges: [number, number][],
): Promise<void> {
  for (const [from, to] of ranges) {
    const answer = await stateful.recall(`${from}-${to}`, { maxTokens: 1_000_000 });
    expect(answer).not.toBe("Nothing of this conversation is archived.");
    const shown = new Set([...answer.matchAll(/\[message (\d+)\]/g)].map((match) => Number(match[1])));
    for (let position = from; position <= to; position++)
      expect(shown.has(position), `message ${position} of ${from}-${to}`).toBe(true);
  }
}

const settings = {
  maxTokens: 2_000,
  keepTail: 300,
  summarize: () => "The user asked about orders.",
  archive: true,
  conversationId: "huge",
} as const;

describe("the archive line names only what the store took", () => {
  it("a store whose value limit refuses the whole range stores it without the oversized message, and the line says so", async () => {
    const errors: unknown[] = [];
    const stateful = statefulCompactor({
      ...settings,
      store: memoryStore({ maxBytes: 300_000 }),
      events: { onStoreError: (error) => errors.push(error) },
    });
    const result = await stateful(withOneHugeOutput());
    const ranges = namedRanges(result);
    expect(ranges.length).toBeGreaterThan(0);
    await expectRecallable(stateful, ranges);
    // The 42 ordinary messages were stored; the store's refusal was said.
    expect(await stateful.recall("ORD-1005")).toContain("WH-5");
    expect(errors.some((error) => error instanceof RangeError)).toBe(true);
  });

  it("a store that refuses every archive write: no line names what is not there", async () => {
    const inner = memoryStore();
    const store: CompactionStore = {
      get: (key) => inner.get(key),
      set: (key, value) => {
        if (key.endsWith(":archive")) throw new RangeError("value too large");
        return inner.set(key, value);
      },
    };
    const stateful = statefulCompactor({ ...settings, store });
    const result = await stateful(withOneHugeOutput());
    expect(result).not.toBeNull();
    expect(namedRanges(result)).toEqual([]);
  });

  it("a store that does not answer the archive's write is waited for once, and no line names it", async () => {
    const inner = memoryStore();
    let archiveWrites = 0;
    const store: CompactionStore = {
      get: (key) => inner.get(key),
      set: (key, value) => {
        if (!key.endsWith(":archive")) return inner.set(key, value);
        archiveWrites++;
        return new Promise<void>(() => {});
      },
    };
    const stateful = statefulCompactor({ ...settings, store, storeTimeoutMs: 20 });
    const result = await stateful(withOneHugeOutput());
    expect(namedRanges(result)).toEqual([]);
    // The write after the summary is sent all the same, not waited for (the request's wait on the
    // store is spent), with the messages the first did not store: a store only slow keeps them.
    expect(archiveWrites).toBe(2);
  });
});

describe("recall returns a tool result as it was written", () => {
  it("its line breaks, runs of spaces and tabs", async () => {
    const lines = [
      "NAME        READY   STATUS    RESTARTS",
      "api-7d9f    1/1     Running   0",
      "worker-x2   0/1     Pending   3",
      "",
      "  indented by two",
      "\tindented by a tab",
      "a  b   c    d",
      "total:      42 items",
      "----------  -----",
      "key    = value",
      "x",
      "last line",
    ];
    const messages: object[] = [
      system("s"),
      user("list the pods"),
      toolCall("c1", "kubectl", { args: "get pods" }),
      toolResult("c1", lines.join("\n")),
      assistant("Two pods."),
    ];
    for (let turn = 0; turn < 12; turn++)
      messages.push(
        user(`next question ${turn} ${"word ".repeat(60)}`),
        assistant(`answer ${turn} ${"word ".repeat(60)}`),
      );
    const stateful = statefulCompactor({
      maxTokens: 800,
      keepTail: 200,
      summarize: () => "s",
      archive: true,
      conversationId: "pods",
      store: memoryStore(),
    });
    expect(await stateful(messages)).not.toBeNull();
    const answer = await stateful.recall("worker-x2");
    for (const line of lines.filter((line) => line.trim() !== "")) expect(answer, line).toContain(line);
    // A phrase across a line break and runs of spaces is still found.
    expect(await stateful.recall("running 0 worker-x2 0/1")).toContain("worker-x2   0/1     Pending");
  });
});

describe("attacked again: a store that answers late, or answers wrong", () => {
  it("a store whose set answers false (Keyv's way of saying it kept nothing): no line names what it did not keep", async () => {
    const inner = memoryStore();
    const store: CompactionStore = {
      get: (key) => inner.get(key),
      // A value over its own limit is not kept, and the answer says so, as Keyv's `set` does.
      set: async (key, value) => {
        if (key.endsWith(":archive") && value.length > 300_000) return false;
        await inner.set(key, value);
        return true;
      },
    };
    const stateful = statefulCompactor({ ...settings, store });
    const result = await stateful(withOneHugeOutput());
    const ranges = namedRanges(result);
    await expectRecallable(stateful, ranges);
    // What the store could keep was kept: the ordinary messages, without the 1.1 MB output.
    expect(await stateful.recall("ORD-1005")).toContain("WH-5");
  });

  it("a store that answers the archive's first write late keeps, in the end, the messages the summary replaced", async () => {
    const inner = memoryStore();
    let archiveWrites = 0;
    const store: CompactionStore = {
      get: (key) => inner.get(key),
      set: (key, value) => {
        if (!key.endsWith(":archive") || ++archiveWrites > 1) return inner.set(key, value);
        // The first write lands after the request gave up on it, before the later ones are sent.
        return new Promise<void>((resolve) => setTimeout(() => resolve(void inner.set(key, value)), 40));
      },
    };
    // The summary takes longer than the first write's late answer, and the latest turn's output is
    // cut in place, so the write after the summary has messages of its own to add.
    const messages = withOneHugeOutput().slice(0, 43);
    messages.push(
      user("Check the warehouse log."),
      toolCall("c2", "read_log", {}),
      toolResult("c2", `WH-7 log: ${"all quiet. ".repeat(4_000)} end of WH-7 log`),
    );
    const stateful = statefulCompactor({
      ...settings,
      maxTokens: 3_000,
      store,
      storeTimeoutMs: 20,
      summarize: async () => {
        await new Promise((resolve) => setTimeout(resolve, 80));
        return "The user asked about orders.";
      },
    });
    expect(await stateful(messages)).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The summarized orders are in the archive, whatever order the store took the writes in.
    expect(await stateful.recall("ORD-1005")).toContain("WH-5");
  });
});
