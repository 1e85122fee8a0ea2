import { describe, expect, it } from "vitest";
import { extractiveSummary } from "../src/index.js";
import { saidLinesOf } from "../src/summary-kit/said-lines.js";

const textTokens = (text: string): number => Math.ceil(Buffer.byteLength(JSON.stringify(text)) / 4);

const chitChat = [
  "Quick tangent: is it true that pandas have thumbs?",
  "Quick question unrelated to this: what time is it where you are?",
  "By the way, do you like jazz?",
  "Fun fact: octopuses have three hearts. Did you know?",
];

/** A conversation that states `said` once, early, then buries it under work and chit-chat. */
function buried(said: string[], rounds = 30): { role: string; content: string }[] {
  const messages: { role: string; content: string }[] = [];
  for (const text of said)
    messages.push({ role: "user", content: text }, { role: "assistant", content: "Understood." });
  for (let round = 0; round < rounds; round++) {
    messages.push({ role: "user", content: chitChat[round % chitChat.length]! });
    messages.push({
      role: "assistant",
      content: `Here is a longer answer number ${round}, about the build logs, the retry middleware and the worker pool configuration, none of which changes anything.`,
    });
  }
  return messages;
}

describe("saidLinesOf sorts what was said", () => {
  it.each([
    [
      "Absolutely never disable TLS certificate verification. That is a hard red line for this project.",
      "rule",
      "Absolutely never disable TLS certificate verification. That is a hard red line for this project.",
    ],
    ["Do not push to main.", "rule", "Do not push to main."],
    ["绝对不要在生产环境中关闭日志。", "rule", "绝对不要在生产环境中关闭日志。"],
    ["Никогда не удаляй резервные копии базы данных.", "rule", "Никогда не удаляй резервные копии базы данных."],
    ["لا تستخدم مفاتيح الإنتاج في الاختبارات أبداً.", "rule", "لا تستخدم مفاتيح الإنتاج في الاختبارات أبداً."],
    [
      "本番データベースには絶対に直接書き込まないでください。",
      "rule",
      "本番データベースには絶対に直接書き込まないでください。",
    ],
    ["Let's use PostgreSQL for the ledger.", "decision", "Let's use PostgreSQL for the ledger."],
    ["Priya owns the billing service.", "owner", "Priya owns the billing service."],
    ["王芳负责前端。", "owner", "王芳负责前端。"],
    [
      "We still need to rotate the staging API keys before Friday.",
      "task",
      "We still need to rotate the staging API keys before Friday.",
    ],
    [
      "Quick tangent: is it true that pandas have thumbs?",
      "chat",
      "Quick tangent: is it true that pandas have thumbs?",
    ],
    ["Can you look up my order?", "request", "Can you look up my order?"],
    ["I don't remember the reservation ID, sorry.", "request", "I don't remember the reservation ID, sorry."],
    [
      "Could you help me move the reservation to Chicago instead?",
      "request",
      "Could you help me move the reservation to Chicago instead?",
    ],
  ])("%s is a %s", (text, kind, quoted) => {
    expect(saidLinesOf(text)).toEqual([expect.objectContaining({ kind, text: quoted })]);
  });

  it("joins an opening that takes something back to what it opens, as an override", () => {
    expect(saidLinesOf("Actually — scratch that. Let's instead ignore rate limits.")).toEqual([
      { kind: "decision", text: "Actually — scratch that. Let's instead ignore rate limits.", overrides: true },
    ]);
    expect(saidLinesOf("Never mind the Python plan: we'll write the importer in Go instead.")).toEqual([
      expect.objectContaining({ kind: "decision", overrides: true }),
    ]);
    expect(saidLinesOf("算了，改用 Memcached 做缓存。")).toEqual([
      { kind: "decision", text: "算了，改用 Memcached 做缓存。", overrides: true },
    ]);
  });

  it("cuts a long sentence between whole characters", () => {
    const [line] = saidLinesOf(`Never ${"🎉".repeat(400)} ever.`);
    expect(line!.text.length).toBeLessThanOrEqual(320);
    expect(line!.text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });
});

describe("extractiveSummary keeps what the user told the agent", () => {
  it("keeps a rule buried under chit-chat verbatim, and leaves the chit-chat out", () => {
    const summary = extractiveSummary(
      buried(["Absolutely never disable TLS certificate verification. That is a hard red line for this project."]),
      { maxTokens: 775 },
    );
    expect(summary).toContain(
      '"Absolutely never disable TLS certificate verification. That is a hard red line for this project."',
    );
    expect(summary).not.toContain("pandas have thumbs");
    expect(summary).not.toContain("what time is it");
  });

  it("keeps an override in place of the decision it takes back", () => {
    const summary = extractiveSummary(
      buried([
        "Let's retry failed webhooks three times with backoff.",
        "Actually — scratch that. Let's instead ignore rate limits.",
      ]),
      { maxTokens: 775 },
    );
    expect(summary).toContain("Actually — scratch that. Let's instead ignore rate limits.");
    expect(summary).not.toContain("retry failed webhooks three times");
  });

  it("takes back a decision an earlier summary carried", () => {
    const first = extractiveSummary(buried(["Let's use PostgreSQL for the ledger."], 4), { maxTokens: 400 });
    expect(first).toContain("Let's use PostgreSQL for the ledger.");
    const second = extractiveSummary(buried(["On second thought, let's use SQLite for the ledger instead."], 4), {
      maxTokens: 400,
      previousSummary: first,
    });
    expect(second).toContain("let's use SQLite for the ledger instead.");
    expect(second).not.toContain("Let's use PostgreSQL for the ledger.");
  });

  it("keeps rules in every script, and who owns what", () => {
    const rules = [
      "绝对不要在生产环境中关闭日志。",
      "Никогда не удаляй резервные копии базы данных.",
      "لا تستخدم مفاتيح الإنتاج في الاختبارات أبداً.",
      "고객 데이터는 절대 로그에 남기지 마세요.",
    ];
    const summary = extractiveSummary(buried([...rules, "Priya owns the billing service.", "王芳负责前端。"]), {
      maxTokens: 775,
    });
    for (const said of [...rules, "Priya owns the billing service.", "王芳负责前端。"]) expect(summary).toContain(said);
  });

  it("carries rules forward first when the next summary has little room and much that is new", () => {
    const first = extractiveSummary(
      buried(["Do not push directly to the main branch; every change goes through a pull request."], 4),
      { maxTokens: 400 },
    );
    const newer = Array.from({ length: 40 }, (_, index) => ({
      role: "user",
      content: `Please look up order #W${1_000_000 + index} and its refund of $${index + 10}.50.`,
    }));
    const second = extractiveSummary(newer, { maxTokens: 120, previousSummary: first });
    expect(second).toContain("Do not push directly to the main branch");
    expect(textTokens(second)).toBeLessThanOrEqual(120);
  });

  it("keeps the rules of every summary it merges", () => {
    const one = extractiveSummary(buried(["Never deploy on Fridays."], 2), { maxTokens: 300 });
    const two = extractiveSummary(buried(["Always run the linter before a commit."], 2), { maxTokens: 300 });
    const merged = extractiveSummary([{ role: "user", content: "Next, the export job." }], {
      maxTokens: 400,
      previousSummary: `${one}\n\n${two}`,
    });
    expect(merged).toContain("Never deploy on Fridays.");
    expect(merged).toContain("Always run the linter before a commit.");
  });

  it("uses most of its room when there is material, and identifiers keep their place", () => {
    const work = Array.from({ length: 30 }, (_, index) => [
      {
        role: "user",
        content: `Please look at the failing export job on worker ${index}; the logs say the queue stalled after the retry.`,
      },
      { role: "assistant", content: `Checked worker ${index}: the queue is moving again.` },
    ]).flat();
    const messages = [
      ...buried(
        [
          "Absolutely never disable TLS certificate verification. That is a hard red line for this project.",
          "My order is #W2378156.",
        ],
        4,
      ),
      ...work,
    ];
    const summary = extractiveSummary(messages, { maxTokens: 775 });
    expect(summary).toContain("Absolutely never disable TLS certificate verification.");
    expect(textTokens(summary)).toBeGreaterThan(0.5 * 775);
    expect(textTokens(summary)).toBeLessThanOrEqual(775);
    expect(summary).toContain("#W2378156");
  });
});
