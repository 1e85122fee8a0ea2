// Texts of each content class whose token count the estimate gets wrong in its own way, for
// `npm run bench:estimate` and the classifier's tests. Real text where the shipped transcripts hold
// it (prose, code, JSON records, tool output); generated, from a fixed seed, where they do not
// (CSV of timestamps and numbers, UUIDs, hex ids, base64, emoji); CJK from sentences written here.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";

/**
 * Numbers from 0 to 1, the same on every run: SHA-256 of the seed and a counter, read 4 bytes at a
 * time (the texts must not change between two runs of the benchmark).
 */
export function seeded(seed) {
  let block = Buffer.alloc(0);
  let offset = 0;
  let counter = 0;
  return () => {
    if (offset + 4 > block.length) {
      block = createHash("sha256").update(`${seed}:${counter++}`).digest();
      offset = 0;
    }
    const value = block.readUInt32BE(offset);
    offset += 4;
    return value / 4294967296;
  };
}

const hexDigits = "0123456789abcdef";
const hex = (random, length) => Array.from({ length }, () => hexDigits[Math.floor(random() * 16)]).join("");
const _pad = (value, width) => String(value).padStart(width, "0");

/** A metrics export: an ISO timestamp, then numbers, as a monitoring tool or a query prints them. */
export function csvSamples(count = 40, rows = 60, seed = 1) {
  const random = seeded(seed);
  const start = Date.UTC(2025, 2, 14, 9, 0, 0);
  return Array.from({ length: count }, (_, sample) => {
    const lines = ["timestamp,cpu_pct,mem_mb,latency_ms,requests,error_rate"];
    for (let row = 0; row < rows; row++) {
      const at = new Date(start + (sample * rows + row) * 15_000 + Math.floor(random() * 1000)).toISOString();
      lines.push(
        `${at},${(random() * 100).toFixed(1)},${1024 + Math.floor(random() * 7000)},${(random() * 900).toFixed(2)},${Math.floor(random() * 5000)},${(random() * 0.05).toFixed(4)}`,
      );
    }
    return lines.join("\n");
  });
}

/** Version 4 UUIDs, one a line, as a list of record ids prints them. */
export function uuidSamples(count = 40, perSample = 60, seed = 2) {
  const random = seeded(seed);
  const uuid = () =>
    `${hex(random, 8)}-${hex(random, 4)}-4${hex(random, 3)}-${"89ab"[Math.floor(random() * 4)]}${hex(random, 3)}-${hex(random, 12)}`;
  return Array.from({ length: count }, () => Array.from({ length: perSample }, uuid).join("\n"));
}

/** Hex ids one a line: 40-digit commit hashes and 24-digit object ids, as `git log` or a database prints them. */
export function hexSamples(count = 40, perSample = 60, seed = 3) {
  const random = seeded(seed);
  return Array.from({ length: count }, () =>
    Array.from({ length: perSample }, (_, line) => hex(random, line % 2 === 0 ? 40 : 24)).join("\n"),
  );
}

/** Base64 of random bytes in 76-character lines, as a file's content or a certificate prints. */
export function base64Samples(count = 40, bytes = 3_000, seed = 4) {
  const random = seeded(seed);
  return Array.from({ length: count }, () => {
    const data = Buffer.from(Array.from({ length: bytes }, () => Math.floor(random() * 256)));
    return data
      .toString("base64")
      .match(/.{1,76}/g)
      .join("\n");
  });
}

// Ordinary sentences of a support conversation, written here in Japanese, Chinese and Korean.
const cjkSentences = [
  "ご注文の商品は本日発送されました。お届けまで三日ほどかかります。",
  "配送先の住所を変更したい場合は、マイページから手続きしてください。",
  "申し訳ございませんが、この商品は現在在庫切れとなっております。",
  "返品をご希望の場合は、商品到着後三十日以内にご連絡ください。",
  "お問い合わせいただき、誠にありがとうございます。担当者より折り返しご連絡いたします。",
  "您的订单已经发货，预计三天内送达。",
  "如果需要修改收货地址，请在个人中心进行操作。",
  "很抱歉，这件商品目前缺货，我们会尽快补货。",
  "退货请在收到商品后三十天内联系我们的客服。",
  "感谢您的耐心等待，我们已经为您办理了退款手续。",
  "주문하신 상품이 오늘 발송되었습니다. 배송까지 약 삼 일이 걸립니다.",
  "배송지 주소를 변경하시려면 마이페이지에서 신청해 주세요.",
  "죄송하지만 이 상품은 현재 품절입니다.",
  "반품을 원하시면 상품 수령 후 삼십 일 이내에 연락해 주세요.",
];

/** Paragraphs of CJK text (Japanese, Chinese, Korean), in a fixed shuffled order. */
export function cjkSamples(count = 40, sentences = 30, seed = 5) {
  const random = seeded(seed);
  return Array.from({ length: count }, () =>
    Array.from({ length: sentences }, () => cjkSentences[Math.floor(random() * cjkSentences.length)]).join(
      random() < 0.2 ? "\n" : "",
    ),
  );
}

const emoji = [
  "😀",
  "🎉",
  "🚀",
  "🔥",
  "👍",
  "❤️",
  "✅",
  "⚠️",
  "🙏",
  "😂",
  "👍🏽",
  "👋🏻",
  "👩‍💻",
  "👨‍👩‍👧‍👦",
  "🏳️‍🌈",
  "🇯🇵",
  "🇫🇷",
  "🇧🇷",
  "🧑🏾‍🚀",
  "💯",
];
const words = [
  "great",
  "shipped",
  "thanks",
  "build",
  "passed",
  "deploy",
  "done",
  "team",
  "love",
  "it",
  "the",
  "release",
  "is",
  "out",
  "again",
  "wow",
  "fixed",
  "nice",
  "party",
  "today",
];

/** Chat lines heavy with emoji: ZWJ sequences, flags, skin tones, between a few words. */
export function emojiSamples(count = 40, lines = 40, seed = 6) {
  const random = seeded(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  return Array.from({ length: count }, () =>
    Array.from({ length: lines }, () =>
      Array.from({ length: 8 }, () => (random() < 0.5 ? pick(emoji) + pick(emoji) : pick(words))).join(" "),
    ).join("\n"),
  );
}

/** The text a tool result of an OpenAI chat transcript holds. */
const textOf = (content) =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((part) => part?.text ?? "").join("")
      : "";

/**
 * Real text from transcripts (`{ dataset, messages }[]`, OpenAI chat): the user's and the agent's
 * own words (prose), the code views of the moatless runs (code), the JSON records tau-bench's tools
 * return, and every tool result of each dataset as it is.
 */
export function transcriptSamples(transcripts, limit = 400_000) {
  const prose = [];
  const code = [];
  const json = [];
  const toolOutput = new Map();
  for (const { dataset, messages } of transcripts) {
    for (const message of messages) {
      const text = textOf(message.content);
      if (text.length === 0) continue;
      if ((message.role === "user" || message.role === "assistant") && !message.tool_calls && text.length >= 80)
        prose.push(text);
      if (message.role !== "tool") continue;
      if (!toolOutput.has(dataset)) toolOutput.set(dataset, []);
      toolOutput.get(dataset).push(text);
      if (dataset === "moatless" && text.includes("```")) code.push(text);
      if ((dataset === "tau1" || dataset === "tau2") && /^\s*[[{]/.test(text)) json.push(text);
    }
  }
  const capped = (list) => {
    const kept = [];
    let total = 0;
    for (const text of list) {
      if (total >= limit) break;
      kept.push(text);
      total += text.length;
    }
    return kept;
  };
  return {
    prose: capped(prose),
    code: capped(code),
    json: capped(json),
    toolOutput: new Map([...toolOutput].map(([dataset, list]) => [dataset, capped(list)])),
  };
}

/** The text of an Anthropic `tool_result` block or a pi `toolResult` message. */
function resultText(content) {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => (part?.type === "text" ? part.text : "")).join("");
}

/** Every tool result of the real sessions under `root` (Claude Code and pi logs), by agent. */
export function sessionToolOutput(root, limit = 400_000) {
  const found = new Map();
  for (const agent of ["claude-code", "pi"]) {
    const dir = join(root, agent);
    if (!existsSync(dir)) continue;
    const texts = [];
    let total = 0;
    for (const file of readdirSync(dir).sort()) {
      if (total >= limit) break;
      const raw = readFileSync(join(dir, file));
      const lines = (file.endsWith(".gz") ? gunzipSync(raw) : raw).toString("utf8").split("\n");
      for (const line of lines) {
        if (line.trim() === "" || total >= limit) continue;
        let entry;
        try {
          entry = JSON.parse(line);
        } catch {
          continue;
        }
        const message = entry.message;
        const blocks = Array.isArray(message?.content)
          ? message.content.filter((block) => block?.type === "tool_result")
          : [];
        const results =
          message?.role === "toolResult"
            ? [resultText(message.content)]
            : blocks.map((block) => resultText(block.content));
        for (const text of results) {
          if (text.length === 0) continue;
          texts.push(text);
          total += text.length;
        }
      }
    }
    if (texts.length > 0) found.set(agent, texts);
  }
  return found;
}

/** The generated classes, by name. */
export function generatedSamples() {
  return {
    csv: csvSamples(),
    uuid: uuidSamples(),
    hex: hexSamples(),
    base64: base64Samples(),
    cjk: cjkSamples(),
    emoji: emojiSamples(),
  };
}
