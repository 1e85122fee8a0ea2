// Conversations the project writes from scratch, for `bench:continuity`'s second part: what the
// user told the agent, not only ids. Each family buries what a summary must keep among chit-chat
// and tool work: a rule stated once, a decision later overridden, people and their roles, an item
// referred back to, an open task. Seeded: the same seed writes the same conversation.
//
// Each conversation comes with its *items*: what the request must still show after a compaction,
// each as `{ kind: "rule" | "decision" | "fact", at, needle, stale? }` — `needle` is text the request
// must hold (the rule's own words, the latest decision's, an id), `at` the index of the message that
// states it, `stale` for a decision the text of the one it replaced (shown as current, it misleads).

/** A small seeded generator (mulberry32). */
export function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = (next, list) => list[Math.floor(next() * list.length)];

// Rules, in several scripts: the needle is the rule's own words.
const RULES = [
  [
    "Absolutely never disable TLS certificate verification. That is a hard red line for this project.",
    "never disable TLS certificate verification",
  ],
  [
    "Do not push directly to the main branch; every change goes through a pull request.",
    "Do not push directly to the main branch",
  ],
  ["Always store amounts in cents as integers, never as floats.", "Always store amounts in cents as integers"],
  ["Only use the sandbox payment keys in this repository.", "Only use the sandbox payment keys"],
  ["You must not email customers without my written approval.", "must not email customers without my written approval"],
  [
    "Under no circumstances run migrations against the production database on a Friday.",
    "Under no circumstances run migrations against the production database",
  ],
  ["绝对不要在生产环境中关闭日志。", "绝对不要在生产环境中关闭日志"],
  ["Никогда не удаляй резервные копии базы данных.", "Никогда не удаляй резервные копии базы данных"],
  ["لا تستخدم مفاتيح الإنتاج في الاختبارات أبداً.", "لا تستخدم مفاتيح الإنتاج في الاختبارات"],
  ["本番データベースには絶対に直接書き込まないでください。", "本番データベースには絶対に直接書き込まないでください"],
  ["고객 데이터는 절대 로그에 남기지 마세요.", "고객 데이터는 절대 로그에 남기지 마세요"],
  ["Nunca compartas la clave de la API en el chat.", "Nunca compartas la clave de la API"],
];

// Decisions and their overrides: the needle is the override's, `stale` the first decision's.
const DECISIONS = [
  [
    "Let's use PostgreSQL for the ledger.",
    "Actually — scratch that. Let's instead use SQLite for the ledger.",
    "use SQLite for the ledger",
    "use PostgreSQL for the ledger",
  ],
  [
    "We'll go with weekly releases for the mobile app.",
    "Change of plan: we'll go with releases every two weeks instead.",
    "releases every two weeks",
    "weekly releases for the mobile app",
  ],
  [
    "Let's deploy the new API to us-east-1.",
    "On second thought, let's deploy it to eu-west-1 instead.",
    "deploy it to eu-west-1",
    "deploy the new API to us-east-1",
  ],
  [
    "Let's retry failed webhooks three times with backoff.",
    "Actually — scratch that. Let's instead ignore rate limits.",
    "instead ignore rate limits",
    "retry failed webhooks three times",
  ],
  [
    "We decided to write the importer in Python.",
    "Never mind the Python plan: we'll write the importer in Go instead.",
    "write the importer in Go",
    "write the importer in Python",
  ],
  ["我们决定用 Redis 做缓存。", "算了，改用 Memcached 做缓存。", "改用 Memcached 做缓存", "用 Redis 做缓存"],
];

// People and their roles: the needle is who owns what.
const PEOPLE = [
  ["Priya owns the billing service.", "Priya owns the billing service"],
  ["Marcus is our DBA and reviews every migration.", "Marcus is our DBA"],
  ["Lena is responsible for the iOS release.", "Lena is responsible for the iOS release"],
  ["Tomás handles customer escalations.", "Tomás handles customer escalations"],
  ["Ask Wei about anything touching the search index.", "Ask Wei about anything touching the search index"],
  ["王芳负责前端。", "王芳负责前端"],
];

// An item the user refers back to later: the needle is its id.
const ITEMS = [
  (n) => [
    `The broken one is the blue kettle, item KX-${48000 + n}, ordered on March 3.`,
    `KX-${48000 + n}`,
    "Back to the kettle I mentioned at the start: can you check its warranty?",
  ],
  (n) => [
    `The disputed charge is on invoice INV-${20900 + n}.`,
    `INV-${20900 + n}`,
    "About the invoice from the beginning: did finance answer?",
  ],
  (n) => [
    `The flaky test is tests/api/test_refunds_${n}.py.`,
    `tests/api/test_refunds_${n}.py`,
    "And the flaky test I named first, is it still failing?",
  ],
];

// Open tasks: the needle is what is still to do.
const TASKS = [
  ["We still need to rotate the staging API keys before Friday.", "rotate the staging API keys"],
  ["Don't forget to update the changelog for v2.3.1.", "update the changelog for v2.3.1"],
  ["TODO: migrate the cron jobs to the new scheduler.", "migrate the cron jobs to the new scheduler"],
  ["Next step is to add a retry to the nightly export job.", "add a retry to the nightly export job"],
];

const CHAT = [
  "Quick tangent: is it true that pandas have thumbs?",
  "Quick question unrelated to this: what time is it where you are?",
  "By the way, do you like jazz?",
  "Random question: how tall is the Eiffel Tower?",
  "Just curious, what's your favourite programming language?",
  "Haha, that reminds me of my first job. Anyway.",
  "Fun fact: octopuses have three hearts. Did you know?",
  "How's the weather where the servers are?",
];

const WORK = [
  "Can you look up the docs for the retry middleware?",
  "Please check the latest build logs.",
  "Show me the open pull requests for the payments repo.",
  "Find the config file for the worker pool.",
  "What does the error in the last deploy say?",
  "List the recent incidents for the checkout service.",
];

const ANSWERS = [
  "Sure. I looked through the results and summarized what matters: the service has been stable, the last deploy went out without errors, and the queue depth stayed under its alarm threshold for the whole week.",
  "Here is what I found. The documentation describes three modes, the default one is what we already run, and the other two only matter for batch jobs that we do not have today.",
  "Good question! I don't have a personal view, but plenty of people enjoy it. Back to the work whenever you are ready.",
  "I checked it. Nothing unusual stands out: the numbers match the previous week, and the two warnings in the log are the known ones about the deprecated client.",
];

/** A tool call and its JSON result, about 300 tokens, with ids of their own. */
function toolTurn(next, turn) {
  const id = `call_${turn}`;
  const rows = Array.from({ length: 8 }, (_, index) => ({
    id: `R${Math.floor(next() * 1e6)}`,
    title: pick(next, ["retry policy", "worker pool", "deploy log", "incident", "pull request"]),
    status: pick(next, ["open", "closed", "merged"]),
    note: "no action needed".repeat(1 + (index % 2)),
  }));
  return [
    {
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id,
          type: "function",
          function: {
            name: "search",
            arguments: JSON.stringify({ query: pick(next, ["retry", "deploy", "incidents", "pool"]) }),
          },
        },
      ],
    },
    { role: "tool", tool_call_id: id, content: JSON.stringify({ results: rows }) },
  ];
}

/** The families: each puts its items in the first fifth of the conversation, then work and chit-chat. */
export const FAMILIES = {
  "a buried rule": (next) => {
    const [text, needle] = pick(next, RULES);
    return { opening: [{ text, items: [{ kind: "rule", needle }] }] };
  },
  "an overridden decision": (next) => {
    const [first, second, needle, stale] = pick(next, DECISIONS);
    return {
      opening: [
        { text: first, items: [] },
        { text: second, items: [{ kind: "decision", needle, stale }] },
      ],
    };
  },
  "people and their roles": (next) => {
    const one = pick(next, PEOPLE);
    let two = pick(next, PEOPLE);
    while (two === one) two = pick(next, PEOPLE);
    return {
      opening: [
        {
          text: `${one[0]} ${two[0]}`,
          items: [
            { kind: "fact", needle: one[1] },
            { kind: "fact", needle: two[1] },
          ],
        },
      ],
    };
  },
  "a reference back": (next, seed) => {
    const [text, needle, later] = pick(next, ITEMS)(seed);
    return { opening: [{ text, items: [{ kind: "fact", needle }] }], late: later };
  },
  "an open task": (next) => {
    const [text, needle] = pick(next, TASKS);
    return { opening: [{ text, items: [{ kind: "fact", needle }] }] };
  },
  "all of them": (next, seed) => {
    const parts = [
      "a buried rule",
      "an overridden decision",
      "people and their roles",
      "a reference back",
      "an open task",
    ].map((name) => FAMILIES[name](next, seed));
    return { opening: parts.flatMap((part) => part.opening), late: parts.find((part) => part.late)?.late };
  },
};

/**
 * One conversation of a family: a system prompt, the opening statements (each its own user turn,
 * the agent acknowledging), then `turns` rounds of work (a request, a tool call and its result, an
 * answer) and chit-chat, and a late user turn that refers back.
 */
export function conversation(family, seed, turns = 24) {
  const next = random(seed * 7919 + family.length);
  const { opening, late } = FAMILIES[family](next, seed);
  const messages = [{ role: "system", content: "You are a careful engineering assistant for the payments team." }];
  const items = [];
  for (const { text, items: stated } of opening) {
    messages.push({ role: "user", content: text });
    for (const item of stated) items.push({ ...item, at: messages.length - 1 });
    messages.push({ role: "assistant", content: "Understood, noted." });
  }
  for (let turn = 0; turn < turns; turn++) {
    const chat = next() < 0.35;
    messages.push({ role: "user", content: chat ? pick(next, CHAT) : pick(next, WORK) });
    if (!chat) messages.push(...toolTurn(next, turn));
    messages.push({ role: "assistant", content: pick(next, ANSWERS) });
    if (late !== undefined && turn === turns - 3) {
      messages.push({ role: "user", content: late });
      messages.push({ role: "assistant", content: "Let me check that for you." });
    }
  }
  messages.push({ role: "user", content: pick(next, WORK) });
  messages.push({ role: "assistant", content: "On it." });
  return { messages, items };
}
