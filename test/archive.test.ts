import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { ArchiveTrimmedError, recallToolDefinition } from "../src/tools.js";
import { SUMMARY_PREFIX } from "../src/expert.js";
import { memoryStore, statefulCompactor, type CompactionStore, type SummaryContext } from "../src/index.js";
import { appendBounded, serializeArchive, type ArchivedRange } from "../src/archive/conversation-archive.js";
import { MAX_RECALL_QUERY_CHARS } from "../src/archive/recall-archive.js";
import { builders } from "./support/builders.js";

type Chat = { role: string; content?: string | null; tool_calls?: unknown[]; tool_call_id?: string };

const system: Chat = { role: "system", content: "You are a support agent." };

/** A support conversation in OpenAI Chat messages: each turn looks an order up, and the tool result holds its facts. */
function conversation(turns: number, tag = "A"): Chat[] {
  const { user, assistant, toolCall, toolResult } = builders["openai-chat"];
  const messages = [system];
  for (let turn = 1; turn <= turns; turn++) {
    const id = `call_${tag}${turn}`;
    messages.push(user(`Where is order ${tag}-${turn}?`));
    messages.push(toolCall(id, "lookup_order", { order: `${tag}-${turn}` }));
    messages.push(
      toolResult(
        id,
        `Order ${tag}-${turn}: shipped from warehouse WH-${tag}${turn}7 with tracking TRK${tag}${turn}000${turn}. ${"Carrier notes. ".repeat(40)} Refund key: api_key=sk-live-${tag}${turn}SECRETVALUE1234567890`,
      ),
    );
    messages.push(assistant(`Order ${tag}-${turn} has shipped.`));
  }
  return messages;
}

const options = {
  maxTokens: 900,
  keepTail: 200,
  summarize: () => "The user asked about orders; each has shipped.",
  archive: true,
};

/** A store whose calls are counted by operation and key. */
function countedStore(inner: CompactionStore = memoryStore()) {
  const calls: string[] = [];
  const store: CompactionStore = {
    get: (key) => (calls.push(`get ${key}`), inner.get(key)),
    set: (key, value) => (calls.push(`set ${key}`), inner.set(key, value)),
  };
  return { store, calls };
}

describe("archive", () => {
  it("returns a fact of a removed tool result in one recall: fenced, redacted and bounded", async () => {
    const compact = statefulCompactor<Chat>({ ...options, conversationId: "chat-1" });
    const history = conversation(6);
    const compacted = await compact(history);
    expect(compacted).not.toBeNull();
    // The tool result with the fact is gone from what the model sees.
    expect(JSON.stringify(compacted)).not.toContain("TRKA20002");
    const answer = await compact.recall("TRKA20002");
    expect(answer).toContain("TRKA20002");
    expect(answer).toMatch(
      /^Archived messages for "TRKA20002", newest first \(1 of 1\):\n<transcript>\n\[message \d+\]\nTool result \(lookup_order\): Order A-2: shipped/,
    );
    expect(answer.endsWith("\n</transcript>")).toBe(true);
    expect(answer).not.toContain("SECRETVALUE");
    expect(answer).toContain("[redacted]");
    expect(Math.ceil(Buffer.byteLength(answer) / 4)).toBeLessThanOrEqual(2000);
    // A small bound still shows the fact, as an excerpt around it.
    const short = await compact.recall("WH-A27", { maxTokens: 60 });
    expect(short).toContain("WH-A27");
    expect(short).toContain("characters left out");
    expect(Math.ceil(Buffer.byteLength(short) / 4)).toBeLessThanOrEqual(60);
  });

  it("shows the message that holds a query as a whole word first, its excerpt centred on that word", async () => {
    const compact = statefulCompactor<Chat>({ ...options, conversationId: "chat-words" });
    const history = conversation(6);
    // A short number is inside many longer ones (`TRKA10001`, `1000`): the message that holds it whole wins.
    const long = `${"row 1000 of 12000 ".repeat(200)} the seat count is 10 ${"and row 1000 again ".repeat(200)}`;
    history.splice(5, 0, { role: "user", content: long }, { role: "assistant", content: "Noted." });
    await compact(history);
    const answer = await compact.recall("10", { maxTokens: 120 });
    expect(answer).toContain("the seat count is 10 ");
  });

  it("returns an identifier that stands only inside a dotted chain of a tool result in one recall, ahead of longer words that hold it", async () => {
    const compact = statefulCompactor<Chat>({ ...options, conversationId: "chat-chain" });
    const history = conversation(6);
    const read = (id: string, content: string): Chat[] => [
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id, type: "function", function: { name: "view_code", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: id, content },
    ];
    // The chain sits deep in a long result that names `app_configs` first; a newer, longer result names only `app_configs`.
    const source = `def check(app_configs=None): ${"pass  # line of code\n".repeat(300)} if not cls._meta.app_config._is_default_auto_field_overridden: ${"return []\n".repeat(200)}`;
    const tests = `${"run_checks(app_configs=self.apps.get_app_configs())\n".repeat(400)}`;
    history.splice(5, 0, ...read("call_source", source), ...read("call_tests", tests));
    const sent = await compact(history);
    expect(JSON.stringify(sent)).not.toContain("_meta.app_config.");
    const answer = await compact.recall("app_config");
    const fenced = answer.slice(answer.indexOf("<transcript>"), answer.lastIndexOf("</transcript>"));
    expect(fenced).toContain("cls._meta.app_config._is_default_auto_field_overridden");
    expect(Math.ceil(Buffer.byteLength(answer) / 4)).toBeLessThanOrEqual(2000);
  });

  it("finds a number asked for without its grouping as it was written", async () => {
    const compact = statefulCompactor<Chat>({ ...options, conversationId: "chat-number" });
    const history = conversation(6);
    history.splice(
      5,
      0,
      { role: "user", content: `The refund came to $1,286.40 in the end. ${"Thanks. ".repeat(40)}` },
      { role: "assistant", content: "Noted." },
    );
    await compact(history);
    expect(await compact.recall("1286")).toContain("$1,286.40");
    expect(await compact.recall("12864")).toMatch(/^No archived message holds/);
  });

  it("answers a range and a phrase across line breaks, newest first", async () => {
    const compact = statefulCompactor<Chat>({ ...options, conversationId: "chat-2" });
    await compact(conversation(6));
    const range = await compact.recall("1-4");
    expect([...range.matchAll(/\[message (\d+)\]/g)].map((match) => Number(match[1]))).toEqual([4, 3, 2, 1]);
    const phrase = await compact.recall("where IS   order a-3");
    expect(phrase).toContain("[message 9]\nUser: Where is order A-3?");
  });

  it("ends the summary with the archive line, counted in the summary's budget", async () => {
    const limits: number[] = [];
    const summarize = (_older: readonly object[], context: SummaryContext) => (
      limits.push(context.maxSummaryTokens), "Orders shipped."
    );
    const withArchive = await statefulCompactor<Chat>({ ...options, summarize, conversationId: "chat-3" })(
      conversation(6),
    );
    const without = await statefulCompactor<Chat>({ ...options, summarize, archive: false, conversationId: "chat-3" })(
      conversation(6),
    );
    const summary = withArchive?.messages[1]?.content as string;
    expect(summary.startsWith(`${SUMMARY_PREFIX}Orders shipped.\n\n(Messages 1-`)).toBe(true);
    expect(summary).toMatch(
      /are archived verbatim: call recall_context with an identifier, a phrase or the range "1-\d+" to read them\.\)$/,
    );
    expect(without?.messages[1]?.content).toBe(`${SUMMARY_PREFIX}Orders shipped.`);
    // The line's tokens come out of the room the summarizer is given.
    expect(limits[0]).toBeLessThan(limits[1] as number);
    expect((limits[1] as number) - (limits[0] as number)).toBeGreaterThan(20);
  });

  it("keeps each conversation's archive apart in one store: a recall never returns another's messages", async () => {
    const store = memoryStore();
    const compact = statefulCompactor<Chat>({ ...options, store });
    await compact(conversation(6, "A"), { conversationId: "alice" });
    await compact(conversation(6, "B"), { conversationId: "bob" });
    expect(await compact.recall("TRKB20002", { conversationId: "alice" })).toBe(
      'No archived message holds "TRKB20002".',
    );
    expect(await compact.recall("order", { conversationId: "alice" })).not.toContain("B-");
    expect(await compact.recall("TRKB20002", { conversationId: "bob" })).toContain("TRKB20002");
    // Ids that look like another conversation's keys reach nothing of it.
    for (const conversationId of ["bob:archive", "bob%3Aarchive", "alice:archive"]) {
      expect(await compact.recall("TRK", { conversationId })).toBe("Nothing of this conversation is archived.");
    }
  });

  it("costs one get and one set of the archive per compaction, under the conversation's own key", async () => {
    const { store, calls } = countedStore();
    await statefulCompactor<Chat>({ ...options, store, conversationId: "chat-4" })(conversation(6));
    expect(calls.filter((call) => call.includes(":archive"))).toEqual([
      "get context-compactor:chat-4:archive",
      "set context-compactor:chat-4:archive",
    ]);
    calls.length = 0;
    await statefulCompactor<Chat>({ ...options, archive: false, store, conversationId: "chat-5" })(conversation(6));
    expect(calls.filter((call) => call.includes(":archive"))).toEqual([]);
  });

  it("drops the oldest messages past archive.maxBytes, and reports what it dropped", async () => {
    const errors: unknown[] = [];
    const contexts: unknown[] = [];
    const compact = statefulCompactor<Chat>({
      ...options,
      archive: { maxBytes: 4000 },
      conversationId: "chat-6",
      events: { onStoreError: (error, context) => (errors.push(error), contexts.push(context)) },
    });
    await compact(conversation(6));
    const trimmed = errors.find((error) => error instanceof ArchiveTrimmedError);
    expect(trimmed).toBeInstanceOf(ArchiveTrimmedError);
    expect(trimmed!.dropped[0]).toBe(1);
    expect(contexts).toContainEqual({ operation: "set", key: "context-compactor:chat-6:archive" });
    // The newest removed messages are kept and found; the dropped ones are not.
    const newest = Math.max(
      ...[...(await compact.recall("order")).matchAll(/\[message (\d+)\]/g)].map((match) => Number(match[1])),
    );
    expect(newest).toBeGreaterThan(trimmed!.dropped.at(-1)!);
    expect(await compact.recall("TRKA10001")).toBe('No archived message holds "TRKA10001".');
  });

  it("bounds the stored value to the archive's maxBytes, dropping whole ranges and then the oldest messages", () => {
    const message = (index: number) => ({
      index,
      message: { role: "user", content: `message ${index} ${"x".repeat(200)}` },
    });
    const ranges: ArchivedRange[] = [];
    let all: number[] = [];
    for (let from = 1; from < 60; from += 5) {
      const next: ArchivedRange = {
        from,
        to: from + 4,
        messages: [0, 1, 2, 3, 4].map((offset) => message(from + offset)),
      };
      const { ranges: kept, trim } = appendBounded(ranges.splice(0), next, 3000);
      ranges.push(...kept);
      all = all.concat(trim.dropped);
      expect(Buffer.byteLength(serializeArchive(ranges)) + 80).toBeLessThanOrEqual(3000);
    }
    const keptIndices = ranges.flatMap((range) => range.messages.map((entry) => entry.index));
    // Oldest first: every dropped message is older than every kept one, and none is lost otherwise.
    expect(Math.max(...all)).toBeLessThan(Math.min(...keptIndices));
    expect([...all, ...keptIndices]).toEqual(Array.from({ length: 60 }, (_, index) => index + 1));
  });

  it("ignores an archive written under another signing key, and reports it", async () => {
    const store = memoryStore();
    await statefulCompactor<Chat>({ ...options, store, signingKey: "key-one", conversationId: "chat-7" })(
      conversation(6),
    );
    const errors: unknown[] = [];
    const other = statefulCompactor<Chat>({
      ...options,
      store,
      signingKey: "key-two",
      conversationId: "chat-7",
      events: { onStoreError: (error) => errors.push(error) },
    });
    expect(await other.recall("TRKA20002")).toBe("Nothing of this conversation is archived.");
    expect(String(errors[0])).toContain("signed with this `signingKey`");
    // The archive of the right key is read.
    const same = statefulCompactor<Chat>({ ...options, store, signingKey: "key-one", conversationId: "chat-7" });
    expect(await same.recall("TRKA20002")).toContain("TRKA20002");
    // An archive written without a key is not trusted by a compactor that signs either.
    const unsigned = memoryStore();
    await statefulCompactor<Chat>({ ...options, store: unsigned, conversationId: "chat-8" })(conversation(6));
    expect(
      await statefulCompactor<Chat>({
        ...options,
        store: unsigned,
        signingKey: "key-one",
        conversationId: "chat-8",
      }).recall("TRKA20002"),
    ).toBe("Nothing of this conversation is archived.");
  });

  it("leaves the archive as it is when the store does not answer its read", async () => {
    const inner = memoryStore();
    const compact = statefulCompactor<Chat>({ ...options, store: inner, conversationId: "chat-9" });
    await compact(conversation(6));
    const before = await inner.get("context-compactor:chat-9:archive");
    let sets = 0;
    const failing: CompactionStore = {
      get: (key) => (key.endsWith(":archive") ? Promise.reject(new Error("down")) : inner.get(key)),
      set: (key, value) => (sets++, inner.set(key, value)),
    };
    const errors: unknown[] = [];
    await statefulCompactor<Chat>({
      ...options,
      store: failing,
      conversationId: "chat-9",
      events: { onStoreError: (error) => errors.push(error) },
    })(conversation(12));
    expect(await inner.get("context-compactor:chat-9:archive")).toBe(before);
    expect(sets).toBeGreaterThan(0);
    expect(String(errors[0])).toContain("down");
  });

  it.each([
    [{ archive: "yes" }, TypeError, "Expected `archive` to be a boolean or an object"],
    [{ archive: null }, TypeError, "Expected `archive` to be a boolean or an object"],
    [{ archive: { maxBytes: 0 } }, RangeError, "Expected `archive.maxBytes` to be a positive integer"],
    [{ archive: { maxBytes: "8mb" } }, TypeError, "Expected `archive.maxBytes` to be a positive integer"],
    [{ archive: { maxbytes: 1000 } }, TypeError, "Unknown option `archive.maxbytes`. Did you mean `archive.maxBytes`?"],
    [{ archiveMaxBytes: 1000 }, TypeError, "Unknown option `archiveMaxBytes`. Known options:"],
  ])("validates %o", (extra, type, message) => {
    expect(() => statefulCompactor({ ...options, ...extra } as never)).toThrow(type);
    expect(() => statefulCompactor({ ...options, ...extra } as never)).toThrow(message);
  });

  it("refuses a recall without an archive or a conversation id", async () => {
    await expect(statefulCompactor({ ...options, archive: false, conversationId: "x" }).recall("a")).rejects.toThrow(
      "Expected `archive: true`",
    );
    await expect(statefulCompactor(options).recall("a")).rejects.toThrow("Expected a `conversationId`");
    await expect(statefulCompactor({ ...options, conversationId: "x" }).recall("a", { maxTokens: 0 })).rejects.toThrow(
      RangeError,
    );
  });

  it("answers a query longer than it reads with a sentence that says so", async () => {
    const compact = statefulCompactor<Chat>({ ...options, conversationId: "chat-long-query" });
    await compact(conversation(6));
    expect(await compact.recall(`TRKA20002 ${"x".repeat(MAX_RECALL_QUERY_CHARS)}`)).toBe(
      `The query is ${MAX_RECALL_QUERY_CHARS + 10} characters long; a recall reads at most 1000: ask for an identifier, a phrase or a range such as "12-40".`,
    );
    expect(await compact.recall(`TRKA20002 ${"x".repeat(MAX_RECALL_QUERY_CHARS - 10)}`)).toMatch(
      /^No archived message holds/,
    );
  });

  it("names one tool with a JSON schema that takes a query and nothing else", () => {
    expect(recallToolDefinition.name).toBe("recall_context");
    expect(recallToolDefinition.inputSchema).toEqual({
      type: "object",
      properties: { query: expect.objectContaining({ type: "string" }) },
      required: ["query"],
      additionalProperties: false,
    });
  });
});

describe("archive, appended again", () => {
  it("archives a message once when the conversation is summarized again from the start", async () => {
    const store = memoryStore();
    await statefulCompactor<Chat>({ ...options, store, conversationId: "again" })(conversation(6));
    // The state is lost (expired, deleted), the archive stays: the next compaction removes the same messages again.
    const lost: CompactionStore = {
      get: (key) => (key === "context-compactor:again" ? null : store.get(key)),
      set: (key, value) => store.set(key, value),
    };
    const compact = statefulCompactor<Chat>({ ...options, store: lost, conversationId: "again" });
    await compact(conversation(6));
    expect((await compact.recall("TRKA20002")).match(/\[message \d+\]/g)).toHaveLength(1);
  });
});

describe("archive, beyond summaries", () => {
  it("archives a tool result whose payload the request holds cut, once however often it is cut again", async () => {
    const { store, calls } = countedStore();
    const compact = statefulCompactor<Chat>({
      ...options,
      maxTokens: 2000,
      keepTail: 1500,
      store,
      conversationId: "cut",
    });
    // One huge tool result in the newest turn: no summary can help, its payload is cut in the middle.
    const huge: Chat[] = [
      system,
      { role: "user", content: "Dump the log." },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "t1", type: "function", function: { name: "read_log", arguments: "{}" } }],
      },
      {
        role: "tool",
        tool_call_id: "t1",
        content: `${"line of log ".repeat(800)} the culprit is ERR-7731 ${"line of log ".repeat(800)}`,
      },
    ];
    const sent = await compact(huge);
    expect(JSON.stringify(sent)).not.toContain("the culprit is ERR-7731");
    // Too large for the answer whole: an excerpt around the fact.
    const answer = await compact.recall("ERR-7731");
    expect(answer).toMatch(/\[message 3\]\n\[… \d+ characters left out …\] [^\n]*the culprit is ERR-7731/);
    const writes = () => calls.filter((call) => call === "set context-compactor:cut:archive").length;
    expect(writes()).toBe(1);
    await compact(huge);
    expect(writes()).toBe(1);
  });

  it("keeps no archive, and writes no archive line, for a conversation without an id", async () => {
    const { store, calls } = countedStore();
    const sent = await statefulCompactor<Chat>({ ...options, store })(conversation(6));
    expect(calls.filter((call) => call.includes(":archive"))).toEqual([]);
    expect(sent?.messages[1]?.content).toBe(`${SUMMARY_PREFIX}The user asked about orders; each has shipped.`);
  });
});

describe("archive bound, for any appends", () => {
  it("never stores more than the archive's maxBytes, drops only messages older than every kept one, and skips only those too large by themselves", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "é", "日", "😀", "\n", '"'), maxLength: 300 });
    fc.assert(
      fc.property(
        fc.array(fc.array(text, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 200, max: 6000 }),
        (appends, maxBytes) => {
          let ranges: ArchivedRange[] = [];
          const dropped: number[] = [];
          const skipped: number[] = [];
          let next = 1;
          for (const contents of appends) {
            const messages = contents.map((content) => ({ index: next++, message: { role: "user", content } }));
            const result = appendBounded(
              ranges,
              { from: messages[0]!.index, to: messages.at(-1)!.index, messages },
              maxBytes,
            );
            ranges = result.ranges;
            dropped.push(...result.trim.dropped);
            skipped.push(...result.trim.skipped);
            // A skipped message would not fit an archive of its own (the bound counts a separator after each message and range).
            for (const index of result.trim.skipped) {
              const entry = messages.find((message) => message.index === index)!;
              expect(
                Buffer.byteLength(serializeArchive([{ from: index, to: index, messages: [entry] }])) + 80 + 2,
              ).toBeGreaterThan(maxBytes);
            }
            expect(Buffer.byteLength(serializeArchive(ranges)) + 80).toBeLessThanOrEqual(maxBytes);
          }
          const kept = ranges.flatMap((range) => range.messages.map((entry) => entry.index));
          if (kept.length > 0) expect(Math.max(...dropped, 0)).toBeLessThan(Math.min(...kept));
          expect([...dropped, ...skipped, ...kept].sort((a, b) => a - b)).toEqual(
            Array.from({ length: next - 1 }, (_, index) => index + 1),
          );
        },
      ),
      { numRuns: 15 },
    );
  });
});

describe("archive line, at any summary limit", () => {
  it.each([1, 5, 10, 20, 25, 30, 35, 40, 60, 200])(
    "fits summary.maxTokens %i, whole, short or left out, and says nothing false",
    async (maxSummaryTokens) => {
      const summarize = (_older: readonly object[], context: SummaryContext) =>
        "Orders shipped and refunds were handled.".split(" ").slice(0, Math.max(1, context.maxSummaryTokens)).join(" ");
      const compact = statefulCompactor<Chat>({
        ...options,
        summarize,
        summary: { maxTokens: maxSummaryTokens },
        conversationId: `line-${maxSummaryTokens}`,
      });
      const history = conversation(6);
      const sent = await compact(history);
      const summary = sent?.messages[1]?.content as string;
      expect(summary.startsWith(SUMMARY_PREFIX)).toBe(true);
      const line = /\(Messages (\d+)-(\d+) are archived[^)]*\)$/.exec(summary);
      if (line !== null) {
        // Every position it names is archived, or kept verbatim in the request (a pinned message).
        const answer = await compact.recall(`${line[1]}-${line[2]}`, { maxTokens: 100_000 });
        const shown = new Set([...answer.matchAll(/\[message (\d+)\]/g)].map((match) => Number(match[1])));
        for (const message of sent?.messages ?? []) shown.add(history.indexOf(message));
        for (let position = Number(line[1]); position <= Number(line[2]); position++)
          expect([position, shown.has(position)]).toEqual([position, true]);
      } else expect(summary).not.toContain("archived");
      if (maxSummaryTokens >= 100) expect(summary).toContain("call recall_context with an identifier");
    },
  );
});

describe("archive bound, one message larger than it", () => {
  const message = (index: number, size: number) => ({
    index,
    message: { role: "tool", content: `result ${index} ${"x".repeat(size)}` },
  });

  it("skips a message larger than archive.maxBytes by itself, and keeps every other", () => {
    const older = Array.from({ length: 43 }, (_, at) => message(at + 1, 50));
    const { ranges } = appendBounded([], { from: 1, to: 43, messages: older }, 20_000);
    const {
      ranges: kept,
      trim,
      added,
    } = appendBounded(ranges, { from: 44, to: 45, messages: [message(44, 30_000), message(45, 50)] }, 20_000);
    expect(trim.dropped).toEqual([]);
    expect(trim.skipped).toEqual([44]);
    expect(added).toBe(true);
    expect(kept.flatMap((range) => range.messages.map((entry) => entry.index))).toEqual([
      ...Array.from({ length: 43 }, (_, at) => at + 1),
      45,
    ]);
    expect(Buffer.byteLength(serializeArchive(kept)) + 80).toBeLessThanOrEqual(20_000);
  });

  it("reports the skipped message to onStoreError, and recall still finds the others", async () => {
    const errors: unknown[] = [];
    const compact = statefulCompactor<Chat>({
      ...options,
      archive: { maxBytes: 12_000 },
      conversationId: "huge",
      events: { onStoreError: (error) => errors.push(error) },
    });
    const history = conversation(6);
    history.splice(3, 1, {
      role: "tool",
      tool_call_id: "call_A1",
      content: `The full log. ${"line of log ".repeat(2_000)}`,
    });
    await compact(history);
    const trimmed = errors.find((error) => error instanceof ArchiveTrimmedError) as ArchiveTrimmedError | undefined;
    expect(trimmed?.skipped).toEqual([3]);
    expect(trimmed?.dropped).toEqual([]);
    expect(trimmed?.message).toContain("larger than `archive.maxBytes`");
    expect(await compact.recall("TRKA20002")).toContain("TRKA20002");
    expect(await compact.recall("1-2")).toContain("[message 1]");
  });
});

describe("archive, read only when a compaction archives", () => {
  it("reads no archive on a call that only masks old tool results, or stays under budget", async () => {
    const { store, calls } = countedStore();
    const strategies: string[] = [];
    const compact = statefulCompactor<Chat>({
      ...options,
      maxTokens: 1_400,
      keepTail: 600,
      ladder: { maskToolResults: { keepRecent: 2 } },
      store,
      conversationId: "masked",
      events: { onCompacted: (event) => strategies.push(event.strategy) },
    });
    const archiveGets = () => calls.filter((call) => call === "get context-compactor:masked:archive").length;
    for (let turns = 2; turns <= 12; turns++) await compact(conversation(turns));
    expect(strategies.filter((strategy) => strategy === "mask").length).toBeGreaterThanOrEqual(2);
    // Only the calls that summarized read the archive.
    expect(archiveGets()).toBe(strategies.filter((strategy) => strategy === "summarize").length);
  });
});

describe("archive positions under a sliding window", () => {
  it("are positions in the conversation, each once, however far the window slid", async () => {
    const compact = statefulCompactor<Chat>({
      maxTokens: 700,
      keepTail: 250,
      summarize: () => "Earlier turns.",
      archive: true,
      conversationId: "window",
    });
    const thread: Chat[] = [];
    for (let position = 1; position <= 80; position += 2) {
      thread.push(
        { role: "user", content: `[at ${position}] question ${"words ".repeat(30)}` },
        { role: "assistant", content: `[at ${position + 1}] answer ${"words ".repeat(30)}` },
      );
      // The caller sends the system prompt and the thread's last 14 messages.
      await compact([system, ...thread.slice(-14)]);
    }
    const answer = await compact.recall("1-80", { maxTokens: 100_000 });
    const blocks = [...answer.matchAll(/\[message (\d+)\]\n(?:User|Assistant): \[at (\d+)\]/g)];
    expect(blocks.length).toBeGreaterThan(14);
    for (const [, position, written] of blocks) expect(position).toBe(written);
    expect(new Set(blocks.map((block) => block[1])).size).toBe(blocks.length);
  });
});

describe("archive positions under any sliding window", () => {
  // Messages that slid out of the window before the conversation's first compaction were never
  // stored anywhere (a call under budget writes nothing), so positions count from the window the
  // first compaction saw: each archived message sits that many places before its place in the
  // thread, the same for every message however far the window slides afterwards (docs/archive.md).
  it("keep one offset from the conversation's own positions, the messages slid before the first compaction, for any window and any text", async () => {
    const filler = fc.string({
      unit: fc.constantFrom("word ", "日本語", "e\u0301", "👨‍👩‍👧 ", "🇫🇷", "𝒜"),
      minLength: 20,
      maxLength: 60,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 3, max: 10 }),
        fc.integer({ min: 8, max: 24 }),
        filler,
        async (pairs, turns, text) => {
          const compact = statefulCompactor<Chat>({
            maxTokens: 600,
            keepTail: 200,
            summarize: () => "Earlier turns.",
            archive: true,
            conversationId: "any-window",
          });
          const thread: Chat[] = [];
          let slidBeforeFirst: number | undefined;
          for (let turn = 0; turn < turns; turn++) {
            const position = thread.length + 1;
            thread.push(
              { role: "user", content: `[at ${position}] ${text}` },
              { role: "assistant", content: `[at ${position + 1}] ${text}` },
            );
            const window = thread.slice(-2 * pairs);
            if ((await compact([system, ...window])) !== null) slidBeforeFirst ??= thread.length - window.length;
          }
          const blocks = [
            ...(await compact.recall(`1-${thread.length}`, { maxTokens: 1_000_000 })).matchAll(
              /\[message (\d+)\]\n(?:User|Assistant): \[at (\d+)\]/g,
            ),
          ];
          for (const [, position, written] of blocks) expect(Number(written) - Number(position)).toBe(slidBeforeFirst);
          expect(new Set(blocks.map((block) => block[1])).size).toBe(blocks.length);
        },
      ),
      { numRuns: 15 },
    );
  });
});

describe("archive and state, with an expiry", () => {
  it("expire together: a summary that names the archive is never sent once the archive is gone", async () => {
    let now = 0;
    const spy = vi.spyOn(Date, "now").mockImplementation(() => now);
    try {
      const ttlMs = 60_000;
      const store = memoryStore({ ttlMs });
      const compact = statefulCompactor<Chat>({ ...options, store, conversationId: "ttl" });
      const history = conversation(6);
      await compact(history);
      const check = async () => {
        const sent = await compact([...history, { role: "user", content: "thanks" }], {
          usage: { inputTokens: 700, messageCount: history.length },
        });
        const line = /\(Messages (\d+)-(\d+) are archived/.exec(JSON.stringify(sent?.messages ?? []));
        if (line !== null)
          expect(await compact.recall(`${line[1]}-${line[2]}`)).not.toBe("Nothing of this conversation is archived.");
      };
      for (now = 20_000; now <= 200_000; now += 20_000) await check();
    } finally {
      spy.mockRestore();
    }
  });

  it("names in the next summary only what the archive holds once the archive is gone", async () => {
    const inner = memoryStore();
    const compact = statefulCompactor<Chat>({ ...options, store: inner, conversationId: "gone" });
    const first = await compact(conversation(6));
    const before = /\(Messages 1-(\d+) are archived/.exec(JSON.stringify(first));
    expect(before).not.toBeNull();
    // The archive is lost (evicted, deleted), the state stays; a new archive is written from then on.
    let lost = true;
    const evicted: CompactionStore = {
      get: (key) => (lost && key.endsWith(":archive") ? null : inner.get(key)),
      set: (key, value) => ((lost = lost && !key.endsWith(":archive")), inner.set(key, value)),
    };
    const again = statefulCompactor<Chat>({ ...options, store: evicted, conversationId: "gone" });
    const history = conversation(12);
    const sent = await again(history);
    const line = /\(Messages (\d+)-(\d+) are archived/.exec(JSON.stringify(sent));
    expect(line).not.toBeNull();
    // Every position it names is in the new archive (or kept verbatim in the request): none the lost archive held.
    const answer = await again.recall(`${line![1]}-${line![2]}`, { maxTokens: 100_000 });
    const shown = new Set([...answer.matchAll(/\[message (\d+)\]/g)].map((match) => Number(match[1])));
    for (const message of sent?.messages ?? []) shown.add(history.indexOf(message));
    for (let position = Number(line![1]); position <= Number(line![2]); position++)
      expect([position, shown.has(position)]).toEqual([position, true]);
  });
});
