// Transcripts for the benchmark: the full corpus beside the project when it is there, else the
// copies shipped with the tests and the demo.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const roots = [
  join(here, "..", "..", "shared", "data", "transcripts"),
  join(here, "..", "test", "fixtures", "transcripts"),
  join(here, "..", "examples", "data"),
];

/** Every transcript found, with its dataset name (tau1, tau2, moatless, sweagent). */
export function loadTranscripts() {
  const found = roots.filter((root) => existsSync(join(root, "index.json")));
  const useful = found[0]?.includes("shared") ? found.slice(0, 1) : found;
  const transcripts = [];
  for (const root of useful) {
    for (const entry of JSON.parse(readFileSync(join(root, "index.json"), "utf8"))) {
      transcripts.push({
        file: entry.file,
        dataset: entry.source,
        messages: JSON.parse(readFileSync(join(root, entry.file), "utf8")),
      });
    }
  }
  return { transcripts, source: useful.map((root) => relative(join(here, ".."), root)).join(", ") };
}

/**
 * One long session: the first run's system prompt, then every run's other messages back to back,
 * tool ids prefixed by run so they stay unique, until `minMessages` is reached.
 */
export function longSession(transcripts, minMessages) {
  const session = [transcripts[0].messages[0]];
  for (let round = 0; session.length < minMessages; round++) {
    transcripts.forEach(({ messages }, run) => {
      if (session.length >= minMessages) return;
      const prefix = `r${round}_${run}_`;
      for (const message of messages) {
        if (message.role === "system") continue;
        if (message.tool_calls) {
          session.push({
            ...message,
            tool_calls: message.tool_calls.map((call) => ({ ...call, id: prefix + call.id })),
          });
        } else if (message.role === "tool") {
          session.push({ ...message, tool_call_id: prefix + message.tool_call_id });
        } else {
          session.push(message);
        }
      }
    });
  }
  return session;
}

/** The first messages of `session` whose estimate reaches `tokens`. */
export function firstTokens(session, tokens, estimateTokens) {
  let total = 0;
  let end = 0;
  while (end < session.length && total < tokens) total += estimateTokens([session[end++]]);
  return session.slice(0, end);
}

/** OpenAI chat messages as Vercel AI SDK `ModelMessage`s. */
export function toAiSdk(messages) {
  const out = [];
  for (const m of messages) {
    if (m.role === "tool") {
      const part = {
        type: "tool-result",
        toolCallId: m.tool_call_id,
        toolName: "tool",
        output: { type: "text", value: String(m.content) },
      };
      const previous = out[out.length - 1];
      if (previous?.role === "tool") previous.content.push(part);
      else out.push({ role: "tool", content: [part] });
    } else if (m.role === "assistant" && m.tool_calls) {
      out.push({
        role: "assistant",
        content: [
          ...(m.content ? [{ type: "text", text: m.content }] : []),
          ...m.tool_calls.map((c) => ({
            type: "tool-call",
            toolCallId: c.id,
            toolName: c.function.name,
            input: safeJson(c.function.arguments),
          })),
        ],
      });
    } else {
      out.push({ role: m.role, content: m.content ?? "" });
    }
  }
  return out;
}

function safeJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return { raw: text };
  }
}

/** A generated CJK and Cyrillic support conversation, for the estimator-accuracy table. */
export function nonLatinConversation() {
  const lines = [
    "您好，我想查询一下我的订单状态，订单号是 W2378156，昨天已经付款了。",
    "好的，我已经为您查到了订单信息。您的包裹目前在上海的配送中心，预计明天送达。",
    "こんにちは。予約を変更したいのですが、来週の火曜日に空いている便はありますか？",
    "承知しました。火曜日の午前10時と午後3時の便に空席がございます。",
    "Здравствуйте! Я хотел бы вернуть товар, который получил на прошлой неделе.",
    "Конечно. Пожалуйста, укажите номер заказа и причину возврата, и я оформлю заявку.",
    "안녕하세요, 비밀번호를 재설정하고 싶은데 인증 메일이 오지 않습니다.",
    "확인해 보니 스팸함으로 분류되었을 수 있습니다. 다시 발송해 드렸습니다.",
  ];
  const messages = [{ role: "system", content: "你是一名客服助理。Ты помощник службы поддержки。" }];
  for (let i = 0; i < 40; i++)
    messages.push({
      role: i % 2 ? "assistant" : "user",
      content: `${lines[i % lines.length]} ${lines[(i * 3 + 1) % lines.length]}`,
    });
  return messages;
}

/**
 * The transcripts to replay: all of them, or with `BENCH_SAMPLE=n` every n-th of each dataset (a
 * quick look while changing the code; the figures in the docs come from full runs).
 */
export function sample(transcripts) {
  const every = Number(process.env.BENCH_SAMPLE ?? 1);
  if (!Number.isInteger(every) || every <= 1) return transcripts;
  const seen = new Map();
  return transcripts.filter((t) => {
    const index = seen.get(t.dataset) ?? 0;
    seen.set(t.dataset, index + 1);
    return index % every === 0;
  });
}
