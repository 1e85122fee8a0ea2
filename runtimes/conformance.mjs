// The checks every runtime runs on the built package: compaction in every dialect, the three
// invariants on random transcripts, each error code, the estimate against its formula, and
// the state kept through Web Crypto. Plain JavaScript with no imports: each runtime hands in the
// package (`lib`), so the same file runs under Node, Bun, Deno, workerd and a browser.

const PREFIX = "[Summary of earlier conversation]\n";

/** A small deterministic generator, so every runtime checks the same transcripts. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const words = ["order", "refund", "straße", "订单", "ошибка", "file.ts", "🙂", "status", "call", "value"];
function text(next, max) {
  let out = "";
  const length = Math.floor(next() * max);
  for (let i = 0; i < length; i++) out += `${words[Math.floor(next() * words.length)]} `;
  return out;
}

/** One transcript in one dialect: a system prompt, user turns, parallel tool rounds, replies. */
function transcript(next, dialect) {
  const out = [];
  const system = dialect === "openai-chat" || dialect === "ai-sdk" || dialect === "langchain";
  if (system)
    out.push(
      dialect === "langchain"
        ? { type: "system", content: "You are an agent." }
        : { role: "system", content: "You are an agent." },
    );
  let id = 0;
  const turns = 1 + Math.floor(next() * 5);
  for (let turn = 0; turn < turns; turn++) {
    const user = text(next, 30);
    out.push(
      dialect === "google-genai"
        ? { role: "user", parts: [{ text: user }] }
        : dialect === "bedrock-converse"
          ? { role: "user", content: [{ text: user }] }
          : dialect === "langchain"
            ? { type: "human", content: user }
            : { role: "user", content: user },
    );
    const rounds = Math.floor(next() * 3);
    for (let round = 0; round < rounds; round++) {
      const calls = Array.from({ length: 1 + Math.floor(next() * 3) }, () => ({
        id: `c${id++}`,
        result: text(next, 60),
      }));
      switch (dialect) {
        case "openai-chat":
          out.push({
            role: "assistant",
            content: null,
            tool_calls: calls.map((c) => ({
              id: c.id,
              type: "function",
              function: { name: "lookup", arguments: "{}" },
            })),
          });
          for (const c of calls) out.push({ role: "tool", tool_call_id: c.id, content: c.result });
          break;
        case "anthropic":
          out.push({
            role: "assistant",
            content: calls.map((c) => ({ type: "tool_use", id: c.id, name: "lookup", input: {} })),
          });
          out.push({
            role: "user",
            content: calls.map((c) => ({ type: "tool_result", tool_use_id: c.id, content: c.result })),
          });
          break;
        case "ai-sdk":
          out.push({
            role: "assistant",
            content: calls.map((c) => ({ type: "tool-call", toolCallId: c.id, toolName: "lookup", input: {} })),
          });
          out.push({
            role: "tool",
            content: calls.map((c) => ({
              type: "tool-result",
              toolCallId: c.id,
              toolName: "lookup",
              output: { type: "text", value: c.result },
            })),
          });
          break;
        case "openai-responses":
          for (const c of calls) out.push({ type: "function_call", callId: c.id, name: "lookup", arguments: "{}" });
          for (const c of calls) out.push({ type: "function_call_output", call_id: c.id, output: c.result });
          break;
        case "google-genai":
          out.push({
            role: "model",
            parts: calls.map((c) => ({ functionCall: { id: c.id, name: "lookup", args: {} } })),
          });
          out.push({
            role: "user",
            parts: calls.map((c) => ({
              functionResponse: { id: c.id, name: "lookup", response: { output: c.result } },
            })),
          });
          break;
        case "bedrock-converse":
          out.push({
            role: "assistant",
            content: calls.map((c) => ({ toolUse: { toolUseId: c.id, name: "lookup", input: {} } })),
          });
          out.push({
            role: "user",
            content: calls.map((c) => ({ toolResult: { toolUseId: c.id, content: [{ text: c.result }] } })),
          });
          break;
        case "langchain":
          out.push({ type: "ai", content: "", tool_calls: calls.map((c) => ({ id: c.id, name: "lookup", args: {} })) });
          for (const c of calls) out.push({ type: "tool", tool_call_id: c.id, content: c.result });
          break;
      }
    }
    if (next() < 0.7) {
      const reply = text(next, 20);
      out.push(
        dialect === "google-genai"
          ? { role: "model", parts: [{ text: reply }] }
          : dialect === "bedrock-converse"
            ? { role: "assistant", content: [{ text: reply }] }
            : dialect === "langchain"
              ? { type: "ai", content: reply }
              : dialect === "openai-responses"
                ? { type: "message", role: "assistant", content: [{ type: "output_text", text: reply }] }
                : { role: "assistant", content: reply },
      );
    }
  }
  return out;
}

const dialects = [
  "openai-chat",
  "anthropic",
  "ai-sdk",
  "openai-responses",
  "google-genai",
  "bedrock-converse",
  "langchain",
];

/** The estimate's formula (UTF-8 bytes of each message's JSON / 4, rounded up) written out with TextEncoder, the way any runtime can. */
function referenceEstimate(messages) {
  const encoder = new TextEncoder();
  return messages.reduce((sum, m) => sum + Math.ceil(encoder.encode(JSON.stringify(m)).length / 4), 0);
}

export async function conformance(lib) {
  const results = [];
  const check = async (name, run) => {
    try {
      const detail = await run();
      results.push({ check: name, ok: true, detail: detail ?? "" });
    } catch (error) {
      results.push({ check: name, ok: false, detail: String(error?.stack ?? error) });
    }
  };
  const assert = (condition, message) => {
    if (!condition) throw new Error(message);
  };

  await check("compaction in every dialect", async () => {
    for (const dialect of dialects) {
      const messages = transcript(random(7), dialect).concat(
        transcript(random(8), dialect).filter((m) => m.role !== "system" && m.type !== "system"),
      );
      assert(
        lib.detectDialect(messages) === dialect || dialect === "openai-chat",
        `${dialect} detected as ${lib.detectDialect(messages)}`,
      );
      const result = await lib.compact(messages, {
        maxTokens: 60,
        summary: { maxTokens: 1000, role: "user" },
        summarize: () => "the earlier part",
        force: true,
      });
      assert(result !== null, `${dialect}: nothing compacted`);
      assert(
        JSON.stringify(result.messages).includes(JSON.stringify(lib.SUMMARY_PREFIX).slice(1, -1)),
        `${dialect}: no summary`,
      );
      assert(lib.findToolPairProblems(result.messages).length === 0, `${dialect}: a broken tool pair`);
    }
    return `${dialects.length} dialects`;
  });

  await check("the three invariants on 350 random transcripts", async () => {
    const next = random(42);
    let compacted = 0;
    for (let run = 0; run < 350; run++) {
      const dialect = dialects[run % dialects.length];
      const messages = transcript(next, dialect);
      const before = JSON.stringify(messages);
      const total = lib.estimateTokens(messages);
      const maxTokens = Math.max(1, Math.floor(total * (0.05 + next())));
      const result = await lib.compactor({
        maxTokens,
        summarize: () => "s",
        onError: "skip",
        summary: { role: "user" },
      })({ messages });
      assert(JSON.stringify(messages) === before, `${dialect}: the input changed`);
      if (total <= maxTokens) assert(result === null, `${dialect}: under budget but compacted`);
      if (result === null) continue;
      compacted++;
      assert(lib.findToolPairProblems(result.messages).length === 0, `${dialect}: a broken tool pair`);
      if (messages[0]?.role === "system")
        assert(result.messages[0] === messages[0], `${dialect}: system prompt not first`);
    }
    assert(compacted > 50, `only ${compacted} compactions`);
    return `${compacted} compacted`;
  });

  await check("each error code", async () => {
    const messages = transcript(random(3), "openai-chat").concat([
      { role: "user", content: "a ".repeat(400) },
      { role: "assistant", content: "b" },
      { role: "user", content: "c" },
    ]);
    const options = { maxTokens: 40, summary: { maxTokens: 100_000 } };
    const codeOf = async (run) => {
      try {
        await run();
        return "none";
      } catch (error) {
        return lib.isCompactionError(error) ? error.code : `not coded: ${error}`;
      }
    };
    const codes = {
      SUMMARIZE_FAILED: await codeOf(() =>
        lib.compact(messages, {
          ...options,
          summarize: () => {
            throw Object.create(null);
          },
        }),
      ),
      INVALID_SUMMARY: await codeOf(() => lib.compact(messages, { ...options, summarize: () => " " })),
      TIMEOUT: await codeOf(() =>
        lib.compact(messages, {
          ...options,
          summary: { ...options.summary, timeoutMs: 5 },
          summarize: () => new Promise(() => {}),
        }),
      ),
      ABORTED: await codeOf(() =>
        lib.compact(messages, { ...options, signal: AbortSignal.abort(), summarize: () => "s" }),
      ),
    };
    for (const [expected, got] of Object.entries(codes)) assert(got === expected, `expected ${expected}, got ${got}`);
    return Object.keys(codes).join(", ");
  });

  await check("estimateTokens equals its formula", () => {
    const next = random(11);
    for (let run = 0; run < 200; run++) {
      const messages = transcript(next, dialects[run % 4]);
      const expected = referenceEstimate(messages);
      assert(lib.estimateTokens(messages) === expected, `estimate ${lib.estimateTokens(messages)} ≠ ${expected}`);
    }
    return typeof globalThis.Buffer === "function" ? "Buffer.byteLength path" : "no Buffer: the fallback path";
  });

  await check("statefulCompactor through Web Crypto", async () => {
    let calls = 0;
    const stateful = lib.statefulCompactor({
      maxTokens: 6,
      keepTail: 2,
      countTokens: (list) => list.length,
      summarize: () => `s${++calls}`,
    });
    const history = [
      { role: "system", content: "s" },
      ...Array.from({ length: 8 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `m${i}` })),
    ];
    const first = await stateful(history, { conversationId: "c" });
    const second = await stateful([...history.map((m) => ({ ...m })), { role: "user", content: "next" }], {
      conversationId: "c",
    });
    assert(first !== null && second !== null, "no compaction");
    assert(calls === 1, `summarize ran ${calls} times`);
    assert(second.messages[1].content === `${PREFIX}s1`, "the stored summary was not continued");
    return "continued without a second summarize";
  });

  return results;
}
