// The providers' own compaction behind `summarize`, with the real `openai` and `@anthropic-ai/sdk`
// clients over a `fetch` that records each HTTP body and answers as the provider documents:
// - OpenAI `POST /v1/responses/compact` answers a `CompactedResponse` ("a list of all user messages,
//   followed by a single compaction item", openai/resources/responses/responses.d.ts).
// - Anthropic `POST /v1/messages` with `compaction` answers a message holding only the signed
//   `compaction` block, `stop_reason: "compaction"` (@anthropic-ai/sdk/resources/beta/messages/messages.d.ts).
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { UNREADABLE_COMPACTION } from "../../src/hook/refused-item-shadow.js";
import { describe, expect, it } from "vitest";
import {
  extractiveSummary,
  compactor,
  isCompactionError,
  memoryStore,
  statefulCompactor,
  type CompactedEvent,
  type ProviderVerdict,
  type SummaryContext,
} from "../../src/index.js";
import { SUMMARY_PREFIX, readProviderVerdicts } from "../../src/expert.js";
import { firstOf } from "../../src/summary-kit.js";
import { openaiCompaction } from "../../src/backends/openai.js";
import { ANTHROPIC_COMPACTION_BETA, anthropicCompaction } from "../../src/backends/anthropic.js";
import { providerViolations } from "../support/provider-rules/index.js";
import { builders } from "../support/builders.js";

type Answer = { status?: number; body: unknown };
interface Recorded {
  url: string;
  headers: Headers;
  body: Record<string, unknown>;
}

/** A `fetch` that records each request and answers with `answer(request)`. */
function recordingFetch(answer: (request: Recorded) => Answer) {
  const requests: Recorded[] = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = {
      url: String(url),
      headers: new Headers(init?.headers),
      body: JSON.parse(String(init?.body ?? "{}")) as Record<string, unknown>,
    };
    requests.push(request);
    const { status = 200, body } = answer(request);
    return new Response(JSON.stringify(body), {
      status,
      headers: { "content-type": "application/json", "request-id": `req_${requests.length}` },
    });
  };
  return { fetch, requests };
}

const usage = {
  input_tokens: 10,
  output_tokens: 5,
  total_tokens: 15,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens_details: { reasoning_tokens: 0 },
};
const compactionItem = {
  id: "cmp_item_1",
  type: "compaction",
  encrypted_content: "gAAAAABo-encrypted-summary-of-the-conversation",
};

/** A Responses reply: an assistant message, after `before` (a compaction item of `context_management`). */
const responseOf = (text: string, before: object[] = []) => ({
  id: `resp_${text.length}`,
  object: "response",
  created_at: 1,
  status: "completed",
  model: "gpt-5.2",
  output: [
    ...before,
    {
      type: "message",
      id: "msg_reply",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text, annotations: [] }],
    },
  ],
  usage,
});

/** What `responses.compact` answers: the user messages of the input, then one compaction item. */
function compactedOf(input: readonly Record<string, unknown>[]) {
  const users = input
    .filter((item) => item["role"] === "user")
    .map((item, index) => ({
      type: "message",
      id: `msg_user_${index}`,
      role: "user",
      status: "completed",
      content: [{ type: "input_text", text: String(item["content"]) }],
    }));
  return { id: "resp_cmp_1", object: "response.compaction", created_at: 1, output: [...users, compactionItem], usage };
}

const openaiClient = (fetch: ReturnType<typeof recordingFetch>["fetch"]) =>
  new OpenAI({ apiKey: "test", fetch, maxRetries: 0 });
const anthropicClient = (fetch: ReturnType<typeof recordingFetch>["fetch"]) =>
  new Anthropic({ apiKey: "test", fetch, maxRetries: 0 });

/** A Responses transcript: a developer prompt, then short questions and long answers. */
// Kept as written: its assistant items carry no `status`.
function responsesTranscript(turns: number): Record<string, unknown>[] {
  const messages: Record<string, unknown>[] = [{ role: "developer", content: "You are a careful research assistant." }];
  for (let turn = 0; turn < turns; turn++) {
    messages.push({ role: "user", content: `Question ${turn}?` });
    messages.push({
      type: "message",
      role: "assistant",
      content: [{ type: "output_text", text: `Answer ${turn}: ${"detail ".repeat(60)}` }],
    });
  }
  return messages;
}

/** An Anthropic transcript: the system prompt in the list (sent apart as `system`), then questions and long answers. */
function anthropicTranscript(turns: number, from = 0): Record<string, unknown>[] {
  const messages: Record<string, unknown>[] = [];
  for (let turn = from; turn < from + turns; turn++) {
    messages.push(builders.anthropic.user(`Question ${turn}?`));
    messages.push(builders.anthropic.assistant([{ type: "text", text: `Answer ${turn}: ${"detail ".repeat(60)}` }]));
  }
  return messages;
}
const system = { role: "system", content: "You are a careful research assistant." };

const compactionBlock = {
  type: "compaction",
  content: "The user asked questions 0 to 9; each answer gave details.",
  signature: "EqQBCkYIBxgCKkA-signature",
  encrypted_content: null,
};
const anthropicCompacted = (block: object = compactionBlock) => ({
  id: "msg_cmp",
  type: "message",
  role: "assistant",
  model: "claude-opus-4-7",
  content: [block],
  stop_reason: "compaction",
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 5 },
});
const anthropicReply = (text: string) => ({
  id: "msg_1",
  type: "message",
  role: "assistant",
  model: "claude-opus-4-7",
  content: [{ type: "text", text }],
  stop_reason: "end_turn",
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
});

describe("openaiCompaction", () => {
  it("sends the head and the older part to responses.compact, and places the output items as they came", async () => {
    const http = recordingFetch(({ url, body }) =>
      url.endsWith("/responses/compact")
        ? { body: compactedOf(body["input"] as Record<string, unknown>[]) }
        : { body: responseOf("Next answer.") },
    );
    const client = openaiClient(http.fetch);
    const messages = responsesTranscript(10);
    const hook = compactor({
      maxTokens: 1200,
      keepTail: 300,
      summarize: openaiCompaction(client, { model: "gpt-5.2", instructions: "Keep every file name." }),
    });
    const result = await hook({ messages });
    expect(result).not.toBeNull();
    const [compact] = http.requests;
    expect(compact!.url).toBe("https://api.openai.com/v1/responses/compact");
    // The body: the model, the instructions, and the input exactly as the transcript held it up to the kept tail.
    expect(compact!.body["model"]).toBe("gpt-5.2");
    expect(compact!.body["instructions"]).toBe("Keep every file name.");
    const input = compact!.body["input"] as object[];
    expect(input).toEqual(messages.slice(0, input.length));
    expect(result!.messages.slice(-(messages.length - input.length))).toEqual(messages.slice(input.length));
    expect(input.length).toBeGreaterThan(1);
    expect(input.length).toBeLessThan(messages.length);
    // The developer prompt stays first; then the output items byte for byte, the compaction item last of them.
    const answered = compactedOf(input as Record<string, unknown>[]).output;
    expect(result!.messages.slice(0, 1 + answered.length)).toEqual([messages[0], ...answered]);

    // The next request carries the compaction item where it was returned, and OpenAI would take it.
    await client.responses.create({
      model: "gpt-5.2",
      input: result!.messages as unknown as OpenAI.Responses.ResponseInput,
    });
    const next = http.requests[1]!.body["input"] as object[];
    expect(next).toContainEqual(compactionItem);
    expect(next.findIndex((item) => (item as { type?: string }).type === "compaction")).toBe(answered.length);
    expect(providerViolations("openai-responses", { messages: next })).toEqual([]);
  });

  it("keeps a server-side compaction item, and what came before it, untouched across 20 further turns under a tight budget", async () => {
    let calls = 0;
    const http = recordingFetch(() => ({
      body: responseOf(`Answer ${calls}: ${"detail ".repeat(60)}`, calls++ === 0 ? [compactionItem] : []),
    }));
    const client = openaiClient(http.fetch);
    // The first request runs with `context_management`; its output holds a compaction item before the reply.
    let messages: object[] = responsesTranscript(6);
    const first = await client.responses.create({
      model: "gpt-5.2",
      input: messages as unknown as OpenAI.Responses.ResponseInput,
      context_management: [{ type: "compaction", compact_threshold: 1000 }],
    });
    expect(http.requests[0]!.body["context_management"]).toEqual([{ type: "compaction", compact_threshold: 1000 }]);
    messages = messages.concat(first.output.map((item) => JSON.parse(JSON.stringify(item)) as object));
    const inForce = messages.slice(
      0,
      messages.findIndex((item) => (item as { type?: string }).type === "compaction") + 1,
    );
    const summaries: Array<string | undefined> = [];
    const hook = compactor({
      maxTokens: 900,
      keepTail: 250,
      summarize: (_older, context: SummaryContext) => (
        summaries.push(context.previousSummary), `Turns summarized ${summaries.length}.`
      ),
    });
    for (let turn = 0; turn < 20; turn++) {
      messages.push({ role: "user", content: `Follow-up ${turn}?` });
      const compacted = await hook({ messages });
      if (compacted) messages = compacted.messages;
      const reply = await client.responses.create({
        model: "gpt-5.2",
        input: messages as unknown as OpenAI.Responses.ResponseInput,
      });
      messages = messages.concat(reply.output.map((item) => JSON.parse(JSON.stringify(item)) as object));
      const sent = http.requests.at(-1)!.body["input"] as object[];
      expect(sent.slice(0, inForce.length)).toEqual(inForce);
      expect(sent.filter((item) => (item as { type?: string }).type === "compaction")).toEqual([compactionItem]);
      expect(providerViolations("openai-responses", { messages: sent })).toEqual([]);
    }
    // The budget was tight: the turns after the item were summarized, more than once; the item is unreadable, so no previousSummary came from it.
    expect(summaries.length).toBeGreaterThan(1);
    expect(summaries[0]).toBeUndefined();
  });
});

describe("anthropicCompaction", () => {
  it("sends the system prompt, the tools and the messages with `compaction` and the beta header, and places the block first", async () => {
    const http = recordingFetch(({ body }) => ({
      body: body["compaction"] === undefined ? anthropicReply("Next answer.") : anthropicCompacted(),
    }));
    const client = anthropicClient(http.fetch);
    const tools = [
      {
        name: "search",
        description: "Searches the docs",
        input_schema: { type: "object" as const, properties: { q: { type: "string" } } },
      },
    ];
    const messages = [system, ...anthropicTranscript(10)];
    const hook = compactor({
      maxTokens: 1200,
      keepTail: 300,
      format: "anthropic",
      summarize: anthropicCompaction(client, { model: "claude-opus-4-7", maxTokens: 4096, tools }),
    });
    const result = await hook({ messages });
    const [request] = http.requests;
    expect(request!.url).toBe("https://api.anthropic.com/v1/messages");
    expect(request!.headers.get("anthropic-beta")).toBe(ANTHROPIC_COMPACTION_BETA);
    expect(request!.body["compaction"]).toEqual({ type: "summarize" });
    expect(request!.body["system"]).toBe(system.content);
    expect(request!.body["tools"]).toEqual(tools);
    expect(request!.body["max_tokens"]).toBe(4096);
    const sent = request!.body["messages"] as object[];
    expect(sent).toEqual(messages.slice(1, 1 + sent.length));
    expect(providerViolations("anthropic", { messages: sent, system: system.content })).toEqual([]);
    // The response's message, byte for byte, first after the system prompt; then the kept tail.
    expect(result!.messages.slice(0, 2)).toEqual([system, { role: "assistant", content: [compactionBlock] }]);
    expect(result!.messages.slice(2)).toEqual(messages.slice(1 + sent.length));

    // The next request sends it first in `messages`, with the beta header, and Anthropic would take it.
    const conversation = result!.messages.slice(1) as unknown as Anthropic.Beta.BetaMessageParam[];
    await client.beta.messages.create({
      model: "claude-opus-4-7",
      max_tokens: 1024,
      system: system.content,
      betas: [ANTHROPIC_COMPACTION_BETA],
      messages: conversation,
    });
    const next = http.requests[1]!;
    expect(next.headers.get("anthropic-beta")).toBe(ANTHROPIC_COMPACTION_BETA);
    expect((next.body["messages"] as object[])[0]).toEqual({ role: "assistant", content: [compactionBlock] });
    expect(
      providerViolations("anthropic", { messages: next.body["messages"] as object[], system: system.content }),
    ).toEqual([]);
  });

  it("`betas` add to the compaction beta: a long-context beta never drops it from the header", async () => {
    // The SDK sends `betas` as one `anthropic-beta` header (@anthropic-ai/sdk resources/beta/messages: `messagesCreateHeaders`);
    // without the compaction beta the API would not compact, and every compaction would fall back.
    const http = recordingFetch(() => ({ body: anthropicCompacted() }));
    const hook = compactor({
      maxTokens: 1200,
      keepTail: 300,
      format: "anthropic",
      summarize: anthropicCompaction(anthropicClient(http.fetch), {
        model: "claude-opus-4-7",
        betas: ["context-1m-2025-08-07"],
      }),
    });
    await hook({ messages: [system, ...anthropicTranscript(10)] });
    const sent = http.requests[0]!.headers.get("anthropic-beta")!
      .split(",")
      .map((beta) => beta.trim());
    expect(sent).toEqual([ANTHROPIC_COMPACTION_BETA, "context-1m-2025-08-07"]);
  });

  it("the SDK's placement rule, not the threshold doc's: a block after other messages would be refused", () => {
    // https://platform.claude.com/docs/en/build-with-claude/compaction: "The API automatically drops all message blocks prior to
    // the compaction block". The SDK's CompactionBlockMisplacedErrorDetails: "The `compaction` block is not the first block of the
    // conversation" is an error. The SDK wins: the library places the block first, and the checker refuses it elsewhere.
    const misplaced = [
      ...anthropicTranscript(1),
      { role: "assistant", content: [compactionBlock] },
      { role: "user", content: "Go on." },
    ];
    expect(providerViolations("anthropic", { messages: misplaced }).map((v) => v.rule)).toContain(
      "anthropic/compaction-placement",
    );
  });

  it("a later native compaction adopts the block in force and replaces it; a later summarizer of your own gets its text as previousSummary", async () => {
    let round = 0;
    const newer = { ...compactionBlock, content: "Questions 0 to 19 were answered.", signature: "sig-2" };
    const http = recordingFetch(() => ({ body: anthropicCompacted(round++ === 0 ? compactionBlock : newer) }));
    const client = anthropicClient(http.fetch);
    const hook = compactor({
      maxTokens: 1200,
      keepTail: 300,
      format: "anthropic",
      summarize: anthropicCompaction(client, { model: "claude-opus-4-7" }),
    });
    const first = await hook({ messages: [system, ...anthropicTranscript(10)] });
    const second = await hook({ messages: [...first!.messages, ...anthropicTranscript(10, 10)] });
    // The second request sent the block in force first, and its answer took its place: one block with content, first.
    expect((http.requests[1]!.body["messages"] as object[])[0]).toEqual({
      role: "assistant",
      content: [compactionBlock],
    });
    expect(second!.messages[1]).toEqual({ role: "assistant", content: [newer] });
    expect(second!.messages.filter((m) => JSON.stringify(m).includes('"compaction"'))).toHaveLength(1);
    expect(providerViolations("anthropic", { messages: second!.messages.slice(1), system: system.content })).toEqual(
      [],
    );

    const seen: Array<string | undefined> = [];
    const own = compactor({
      maxTokens: 1200,
      keepTail: 300,
      format: "anthropic",
      summarize: (_older, context: SummaryContext) => (
        seen.push(context.previousSummary), "Questions up to 29 were answered."
      ),
    });
    const third = await own({ messages: [...second!.messages, ...anthropicTranscript(10, 20)] });
    expect(seen).toEqual([newer.content]);
    expect(third!.messages.some((m) => JSON.stringify(m).includes('"compaction"'))).toBe(false);
    expect(providerViolations("anthropic", { messages: third!.messages.slice(1), system: system.content })).toEqual([]);
  });
});

describe("falling back when the provider's compaction fails", () => {
  const openaiError = (status: number, message: string): Answer => ({
    status,
    body: { error: { message, type: "invalid_request_error", param: null, code: null } },
  });
  const failures: Array<{ name: string; provider: "openai" | "anthropic"; answer: Answer; reason: RegExp }> = [
    {
      name: "an OpenAI server error",
      provider: "openai",
      answer: openaiError(500, "The server had an error"),
      reason: /500/,
    },
    {
      name: "an OpenAI model without compaction",
      provider: "openai",
      answer: openaiError(400, "Compaction is not supported for model gpt-4o"),
      reason: /not supported for model/,
    },
    {
      name: "an OpenAI answer with no compaction item",
      provider: "openai",
      answer: { body: { id: "resp_cmp", object: "response.compaction", created_at: 1, output: [], usage } },
      reason: /no compaction item/,
    },
    {
      name: "an Anthropic 529",
      provider: "anthropic",
      answer: { status: 529, body: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } },
      reason: /529.*Overloaded/,
    },
    {
      name: "an Anthropic failed compaction (null content)",
      provider: "anthropic",
      answer: { body: anthropicCompacted({ ...compactionBlock, content: null }) },
      reason: /no compaction block/,
    },
    {
      name: "an Anthropic answer with no compaction block",
      provider: "anthropic",
      answer: { body: anthropicReply("Sure.") },
      reason: /no compaction block/,
    },
  ];

  for (const { name, provider, answer, reason } of failures) {
    it(`${name}: SUMMARIZE_FAILED with the provider's reason; fallback with onError: "fallback"; the caller's own model with firstOf`, async () => {
      const http = recordingFetch(() => answer);
      const native =
        provider === "openai"
          ? openaiCompaction(openaiClient(http.fetch), { model: "gpt-5.2" })
          : anthropicCompaction(anthropicClient(http.fetch), { model: "claude-opus-4-7" });
      const messages = provider === "openai" ? responsesTranscript(10) : anthropicTranscript(10);
      const format = provider === "openai" ? "openai-responses" : "anthropic";

      const error = await compactor({ maxTokens: 1200, keepTail: 300, format, summarize: native })({ messages }).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(isCompactionError(error) && error.code).toBe("SUMMARIZE_FAILED");
      expect((error as Error).message).toMatch(reason);

      const events: CompactedEvent[] = [];
      const fallen = await compactor({
        maxTokens: 1200,
        keepTail: 300,
        format,
        summarize: native,
        onError: "fallback",
        fallback: extractiveSummary,
        events: { onCompacted: (event) => events.push(event) },
      })({ messages });
      expect(events.map((event) => event.strategy)).toEqual(["fallback"]);
      expect(JSON.stringify(fallen!.messages)).toContain(SUMMARY_PREFIX.trim());
      const backend =
        provider === "openai"
          ? { name: "openaiCompaction", provider, model: "gpt-5.2" }
          : { name: "anthropicCompaction", provider, model: "claude-opus-4-7" };
      expect(events[0]!.madeBy).toEqual({ name: "extractiveSummary" });

      // Said, not silent: the chain's fallback is told apart from its first choice, with the reason.
      const ownModel = () => "Own model's summary.";
      const chained = await compactor({
        maxTokens: 1200,
        keepTail: 300,
        format,
        summarize: firstOf(native, ownModel),
        events: { onCompacted: (event) => events.push(event) },
      })({ messages });
      const said = events.at(-1)!;
      expect(said.strategy).toBe("summarize");
      expect(JSON.stringify(chained!.messages)).toContain("Own model's summary.");
      expect(said.madeBy).toEqual({ name: "ownModel", index: 1 });
      expect(said.failures).toHaveLength(1);
      expect(said.failures![0]).toMatchObject({ ...backend, index: 0 });
      expect((said.failures![0]!.error as Error).message).toMatch(reason);
    });
  }
});

describe("statefulCompactor with a provider's compaction", () => {
  it("stores the item byte for byte and reuses it on later requests without a second compaction call", async () => {
    const http = recordingFetch(({ body }) => ({ body: compactedOf(body["input"] as Record<string, unknown>[]) }));
    const client = openaiClient(http.fetch);
    const store = memoryStore();
    const errors: unknown[] = [];
    const options = {
      store,
      conversationId: "chat",
      maxTokens: 1200,
      keepTail: 300,
      events: { onStoreError: (error: unknown) => errors.push(error) },
    };
    const compact = statefulCompactor({
      ...options,
      summarize: firstOf(openaiCompaction(client, { model: "gpt-5.2" }), () => "Own summary."),
    });
    const history = responsesTranscript(10);
    const first = (await compact(history))?.messages;
    expect(first).toContainEqual(compactionItem);
    expect(http.requests).toHaveLength(1);
    // The next request: the whole history again, one turn longer.
    history.push({ role: "user", content: "One more question?" });
    const second = (await compact(history))?.messages;
    expect(http.requests).toHaveLength(1);
    expect(second).toContainEqual(compactionItem);
    expect(providerViolations("openai-responses", { messages: second! })).toEqual([]);
    expect(errors).toEqual([]);

    // Another model cannot read the item: its readable shadow stands in, with no new compaction and no store error.
    const switched = statefulCompactor({ ...options, summarize: openaiCompaction(client, { model: "gpt-5.4" }) });
    const third = (await switched(history))?.messages;
    expect(http.requests).toHaveLength(1);
    expect(third).not.toContainEqual(compactionItem);
    expect(JSON.stringify(third)).toContain(SUMMARY_PREFIX.trim().slice(1, -1));
    expect(errors).toEqual([]);
  });

  it("keeps a stored unreadable item in force when a later crossing is summarized by the caller's own model", async () => {
    let compactCalls = 0;
    const http = recordingFetch(({ body }) =>
      compactCalls++ === 0
        ? { body: compactedOf(body["input"] as Record<string, unknown>[]) }
        : {
            status: 500,
            body: { error: { message: "The server had an error", type: "server_error", param: null, code: null } },
          },
    );
    const client = openaiClient(http.fetch);
    const options = { store: memoryStore(), conversationId: "chat", maxTokens: 1200, keepTail: 300 };
    const previous: (string | undefined)[] = [];
    const ownModel = (_older: unknown[], context: SummaryContext) => {
      previous.push(context.previousSummary);
      return `Own summary after: ${context.previousSummary === undefined ? "nothing readable" : "the shadow"}.`;
    };
    const compact = statefulCompactor({
      ...options,
      summarize: firstOf(openaiCompaction(client, { model: "gpt-5.2" }), ownModel),
    });
    const history = responsesTranscript(10);
    await compact(history);
    history.push(...responsesTranscript(8).slice(1));
    const second = (await compact(history))?.messages;
    expect(compactCalls).toBe(2);
    expect(second).toContainEqual(compactionItem);
    // The encrypted item cannot be read: its readable shadow, the model-free summary of what it replaced, is rolled forward.
    expect(previous).toHaveLength(1);
    expect(previous[0]).toMatch(/Question 0/i);
    expect(JSON.stringify(second)).toContain("Own summary after: the shadow.");
    // The next request, under budget: the stored state still holds the item, then the own summary.
    history.push({ role: "user", content: "And now?" });
    const third = (await compact(history))?.messages;
    expect(compactCalls).toBe(2);
    expect(third).toContainEqual(compactionItem);
    expect(JSON.stringify(third)).toContain("Own summary after: the shadow.");
    expect(providerViolations("openai-responses", { messages: third! })).toEqual([]);
  });

  it("after a switch of model, continues from the OpenAI item's readable shadow: no compaction call, no store error", async () => {
    const http = recordingFetch(({ body }) => ({ body: compactedOf(body["input"] as Record<string, unknown>[]) }));
    const client = openaiClient(http.fetch);
    const storeErrors: unknown[] = [];
    const options = {
      store: memoryStore(),
      conversationId: "chat",
      maxTokens: 1200,
      keepTail: 300,
      events: { onStoreError: (error: unknown) => storeErrors.push(error) },
    };
    const history = responsesTranscript(10);
    const first = (
      await statefulCompactor({ ...options, summarize: openaiCompaction(client, { model: "gpt-5.2" }) })(history)
    )?.messages;
    expect(first).toContainEqual(compactionItem);
    expect(http.requests).toHaveLength(1);
    history.push({ role: "user", content: "One more question?" });
    let summarized = 0;
    const switched = (
      await statefulCompactor({ ...options, summarize: openaiCompaction(client, { model: "gpt-6" }) })(history)
    )?.messages;
    const own = (await statefulCompactor({ ...options, summarize: () => `own ${++summarized}` })(history))?.messages;
    for (const messages of [switched, own]) {
      expect(messages).not.toContainEqual(compactionItem);
      expect(JSON.stringify(messages)).toContain(SUMMARY_PREFIX.trim().slice(1, -1));
      expect(providerViolations("openai-responses", { messages: messages! })).toEqual([]);
    }
    expect(http.requests).toHaveLength(1);
    expect(summarized).toBe(0);
    expect(storeErrors).toEqual([]);
  });

  it("after a switch of model, sends the stored Anthropic block's text as the summary instead of the block", async () => {
    const http = recordingFetch(() => ({ body: anthropicCompacted() }));
    const client = anthropicClient(http.fetch);
    const store = memoryStore();
    const options = { store, conversationId: "chat", maxTokens: 1200, keepTail: 300, format: "anthropic" as const };
    const history = [system, ...anthropicTranscript(10)];
    const first = await statefulCompactor({
      ...options,
      summarize: anthropicCompaction(client, { model: "claude-opus-4-7" }),
    })(history);
    expect(first!.messages[1]).toEqual({ role: "assistant", content: [compactionBlock] });
    history.push({ role: "user", content: "One more question?" });
    const same = await statefulCompactor({
      ...options,
      summarize: anthropicCompaction(client, { model: "claude-opus-4-7" }),
    })(history);
    expect(same!.messages[1]).toEqual({ role: "assistant", content: [compactionBlock] });
    const other = (await statefulCompactor({ ...options, summarize: () => "Own summary." })(history))?.messages;
    expect(http.requests).toHaveLength(1);
    expect(JSON.stringify(other)).not.toContain('"compaction"');
    expect(JSON.stringify(other)).toContain(compactionBlock.content);
    expect(providerViolations("anthropic", { messages: other!.slice(1), system: system.content })).toEqual([]);
  });
});

describe("a native item the provider refuses", () => {
  // OpenAI's refusal of an encrypted item it cannot verify (a rotated key, another organization), as
  // users of Codex report it (github.com/openai/codex/issues/8145, 8119): a 400 whose body is
  // `{ error: { message, type: "invalid_request_error", param: null, code: "invalid_encrypted_content" } }`.
  const openaiRefusal: Answer = {
    status: 400,
    body: {
      error: {
        message: "The encrypted content gAAA...mary could not be verified.",
        type: "invalid_request_error",
        param: null,
        code: "invalid_encrypted_content",
      },
    },
  };
  // Anthropic's: a 400 `invalid_request_error` with `details.error_code` (@anthropic-ai/sdk core/error.ts reads
  // `error.details.error_code` as `errorCode`; resources/messages/messages.d.ts: `compaction_signature_invalid`,
  // "The `compaction` block's `signature` does not verify").
  const anthropicRefusal: Answer = {
    status: 400,
    body: {
      type: "error",
      error: {
        type: "invalid_request_error",
        message: "messages.0.content.0: Invalid `signature` in `compaction` block",
        details: { error_code: "compaction_signature_invalid" },
      },
    },
  };
  const holdsCompaction = (input: unknown): boolean => JSON.stringify(input).includes('"type":"compaction"');

  it("OpenAI: given the SDK's error as `response`, the stored item's readable shadow takes its place, in the store too: no compaction call, no store error", async () => {
    const http = recordingFetch(({ url, body }) => {
      if (url.endsWith("/responses/compact")) return { body: compactedOf(body["input"] as Record<string, unknown>[]) };
      return holdsCompaction(body["input"]) ? openaiRefusal : { body: responseOf("Next answer.") };
    });
    const client = openaiClient(http.fetch);
    const storeErrors: unknown[] = [];
    const verdicts: ProviderVerdict[] = [];
    const compactions: CompactedEvent[] = [];
    const compact = statefulCompactor({
      store: memoryStore(),
      conversationId: "chat",
      maxTokens: 1200,
      keepTail: 300,
      summarize: firstOf(openaiCompaction(client, { model: "gpt-5.2" }), () => "Own summary."),
      events: {
        onStoreError: (error) => storeErrors.push(error),
        onProviderVerdict: (verdict) => verdicts.push(verdict),
        onCompacted: (event) => compactions.push(event),
      },
    });
    const history = responsesTranscript(10);
    const first = (await compact(history))!.messages;
    expect(first).toContainEqual(compactionItem);
    const refused = await client.responses
      .create({ model: "gpt-5.2", input: first as unknown as OpenAI.Responses.ResponseInput })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect((refused as InstanceType<typeof OpenAI.BadRequestError>).code).toBe("invalid_encrypted_content");

    // The retry: the same history, with what the SDK threw as the provider's answer.
    const retried = (await compact(history, { response: refused }))!.messages;
    expect(verdicts).toEqual([
      { kind: "native-item-refused", provider: "openai", code: "invalid_encrypted_content", message: compactionItem },
    ]);
    expect(retried).not.toContainEqual(compactionItem);
    expect(JSON.stringify(retried)).toContain(SUMMARY_PREFIX.trim().slice(1, -1));
    // The shadow says what the item replaced: the model-free summary of the older part.
    expect(JSON.stringify(retried)).toMatch(/Question 0/);
    const answered = await client.responses.create({
      model: "gpt-5.2",
      input: retried as unknown as OpenAI.Responses.ResponseInput,
    });
    expect(answered.output_text).toBe("Next answer.");
    expect(
      providerViolations("openai-responses", { messages: http.requests.at(-1)!.body["input"] as object[] }),
    ).toEqual([]);

    // The next request, from the store alone: still the shadow, never the item again.
    history.push({ role: "user", content: "One more question?" });
    const next = (await compact(history))!.messages;
    expect(next).not.toContainEqual(compactionItem);
    expect(JSON.stringify(next)).toContain(SUMMARY_PREFIX.trim().slice(1, -1));
    expect(http.requests.filter((request) => request.url.endsWith("/responses/compact"))).toHaveLength(1);
    expect(compactions).toHaveLength(1);
    expect(storeErrors).toEqual([]);
  });

  // The plain hook keeps nothing between calls, so no shadow of an OpenAI item: the item gives way
  // to a note that says what was lost (statefulCompactor keeps the shadow in its store, tested above).
  it("the plain hook: an OpenAI item gives way to a note of what was lost, the summary in force for its next crossing; an Anthropic block to its own text", async () => {
    let compactCalls = 0;
    const http = recordingFetch(({ url, body }) => {
      if (url.endsWith("/responses/compact"))
        return compactCalls++ === 0
          ? { body: compactedOf(body["input"] as Record<string, unknown>[]) }
          : {
              status: 500,
              body: { error: { message: "The server had an error", type: "server_error", param: null, code: null } },
            };
      return holdsCompaction(body["input"]) ? openaiRefusal : { body: responseOf("Next answer.") };
    });
    const client = openaiClient(http.fetch);
    const verdicts: ProviderVerdict[] = [];
    const previous: (string | undefined)[] = [];
    const ownModel = (_older: unknown[], context: SummaryContext) => (
      previous.push(context.previousSummary), "Own summary."
    );
    const hook = compactor({
      maxTokens: 1200,
      keepTail: 300,
      summarize: firstOf(openaiCompaction(client, { model: "gpt-5.2" }), ownModel),
      verdicts: readProviderVerdicts(),
      events: { onProviderVerdict: (verdict) => verdicts.push(verdict) },
    });
    const first = (await hook({ messages: responsesTranscript(10) }))!.messages;
    expect(first).toContainEqual(compactionItem);
    const refused = await client.responses
      .create({ model: "gpt-5.2", input: first as unknown as OpenAI.Responses.ResponseInput })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    const shadowed = (await hook({ messages: first, response: refused }))!.messages;
    expect(verdicts.map((verdict) => verdict.kind)).toEqual(["native-item-refused"]);
    expect(shadowed).not.toContainEqual(compactionItem);
    // The developer prompt, the shadow in place of the user messages and the item that stood for the older part, the tail.
    expect(shadowed[0]).toEqual(first[0]);
    expect(shadowed.slice(2)).toEqual(
      first.slice(first.indexOf(first.find((item) => (item as { type?: string }).type === "compaction")!) + 1),
    );
    expect(JSON.stringify(shadowed[1])).toContain(UNREADABLE_COMPACTION);
    expect(compactCalls).toBe(1);
    await client.responses.create({ model: "gpt-5.2", input: shadowed as unknown as OpenAI.Responses.ResponseInput });
    expect(
      providerViolations("openai-responses", { messages: http.requests.at(-1)!.body["input"] as object[] }),
    ).toEqual([]);
    // The next crossing (OpenAI's compaction failing, the caller's own model after it) keeps the
    // note as the summary's first section, as it is, and adds the own model's summary after it.
    const next = (await hook({ messages: [...shadowed, ...responsesTranscript(8).slice(1)] }))!.messages;
    expect(previous).toHaveLength(1);
    expect(previous[0]).toBeUndefined();
    const summaryText = JSON.stringify(next.find((item) => JSON.stringify(item).includes("Own summary.")));
    expect(summaryText.indexOf(UNREADABLE_COMPACTION.slice(0, 40))).toBeGreaterThan(-1);
    expect(summaryText.indexOf(UNREADABLE_COMPACTION.slice(0, 40))).toBeLessThan(summaryText.indexOf("Own summary."));

    const anthropicHttp = recordingFetch(({ body }) =>
      body["compaction"] !== undefined
        ? { body: anthropicCompacted() }
        : holdsCompaction(body["messages"])
          ? anthropicRefusal
          : { body: anthropicReply("Next answer.") },
    );
    const anthropic = anthropicClient(anthropicHttp.fetch);
    const native = compactor({
      maxTokens: 1200,
      keepTail: 300,
      format: "anthropic",
      summarize: anthropicCompaction(anthropic, { model: "claude-opus-4-7" }),
      verdicts: readProviderVerdicts(),
    });
    const compacted = (await native({ messages: [system, ...anthropicTranscript(10)] }))!.messages;
    const error = await anthropic.beta.messages
      .create({
        model: "claude-opus-4-7",
        max_tokens: 1024,
        system: system.content,
        betas: [ANTHROPIC_COMPACTION_BETA],
        messages: compacted.slice(1) as Anthropic.Beta.BetaMessageParam[],
      })
      .then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
    const withText = (await native({ messages: compacted, response: error }))!.messages;
    expect(holdsCompaction(withText)).toBe(false);
    expect(JSON.stringify(withText[1])).toContain(compactionBlock.content);
    expect(providerViolations("anthropic", { messages: withText.slice(1), system: system.content })).toEqual([]);
    expect(anthropicHttp.requests.filter((request) => request.body["compaction"] !== undefined)).toHaveLength(1);
  });

  it("OpenAI: a refused reasoning item named by its id leaves the stored compaction item in force", async () => {
    const http = recordingFetch(({ body }) => ({ body: compactedOf(body["input"] as Record<string, unknown>[]) }));
    const verdicts: ProviderVerdict[] = [];
    const compact = statefulCompactor({
      store: memoryStore(),
      conversationId: "chat",
      maxTokens: 1200,
      keepTail: 300,
      summarize: openaiCompaction(openaiClient(http.fetch), { model: "gpt-5.2" }),
      events: { onProviderVerdict: (verdict) => verdicts.push(verdict) },
    });
    const history = responsesTranscript(10);
    const reasoning = {
      type: "reasoning",
      id: "rs_0a18166210d72b5e",
      summary: [],
      encrypted_content: "gAAAAABreasoning",
    };
    history.push(reasoning, { role: "user", content: "Go on?" });
    const first = (await compact(history))!.messages;
    expect(first).toContainEqual(compactionItem);
    const body = {
      error: {
        message:
          "The encrypted content for item rs_0a18166210d72b5e could not be verified. Reason: Encrypted content could not be decrypted or parsed.",
        type: "invalid_request_error",
        param: null,
        code: "invalid_encrypted_content",
      },
    };
    const error = await openaiClient(recordingFetch(() => ({ status: 400, body })).fetch)
      .responses.create({ model: "gpt-5.2", input: first as unknown as OpenAI.Responses.ResponseInput })
      .then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
    const again = (await compact(history, { response: error }))!.messages;
    expect(verdicts).toEqual([
      {
        kind: "native-item-refused",
        provider: "openai",
        code: "invalid_encrypted_content",
        id: "rs_0a18166210d72b5e",
        message: reasoning,
      },
    ]);
    expect(again).toContainEqual(compactionItem);
  });

  it("Anthropic: given the SDK's error for a refused block, the block's own text takes its place: no compaction call, no store error", async () => {
    const http = recordingFetch(({ body }) => {
      if (body["compaction"] !== undefined) return { body: anthropicCompacted() };
      return holdsCompaction(body["messages"]) ? anthropicRefusal : { body: anthropicReply("Next answer.") };
    });
    const client = anthropicClient(http.fetch);
    const storeErrors: unknown[] = [];
    const verdicts: ProviderVerdict[] = [];
    const compact = statefulCompactor({
      store: memoryStore(),
      conversationId: "chat",
      maxTokens: 1200,
      keepTail: 300,
      format: "anthropic",
      summarize: anthropicCompaction(client, { model: "claude-opus-4-7", betas: ["context-1m-2025-08-07"] }),
      events: {
        onStoreError: (error) => storeErrors.push(error),
        onProviderVerdict: (verdict) => verdicts.push(verdict),
      },
    });
    const history = [system, ...anthropicTranscript(10)];
    const first = (await compact(history))!.messages;
    expect(first[1]).toEqual({ role: "assistant", content: [compactionBlock] });
    // The betas were added to the compaction beta, never put in its place.
    expect(
      http.requests[0]!.headers.get("anthropic-beta")!
        .split(",")
        .map((beta) => beta.trim()),
    ).toEqual([ANTHROPIC_COMPACTION_BETA, "context-1m-2025-08-07"]);
    const send = (messages: object[]) =>
      client.beta.messages.create({
        model: "claude-opus-4-7",
        max_tokens: 1024,
        system: system.content,
        betas: [ANTHROPIC_COMPACTION_BETA],
        messages: messages.slice(1) as Anthropic.Beta.BetaMessageParam[],
      });
    const refused = await send(first).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    expect((refused as { errorCode?: unknown }).errorCode).toBe("compaction_signature_invalid");

    const retried = (await compact(history, { response: refused }))!.messages;
    expect(verdicts).toEqual([
      { kind: "native-item-refused", provider: "anthropic", code: "compaction_signature_invalid", message: first[1] },
    ]);
    expect(holdsCompaction(retried)).toBe(false);
    expect(JSON.stringify(retried)).toContain(compactionBlock.content);
    const answered = await send(retried);
    expect(answered.content).toEqual([{ type: "text", text: "Next answer." }]);
    expect(providerViolations("anthropic", { messages: retried.slice(1), system: system.content })).toEqual([]);

    history.push({ role: "user", content: "One more question?" });
    expect(holdsCompaction((await compact(history))!.messages)).toBe(false);
    expect(http.requests.filter((request) => request.body["compaction"] !== undefined)).toHaveLength(1);
    expect(storeErrors).toEqual([]);
  });
});
