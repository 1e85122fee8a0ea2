// Facts, as the continuity measure defines them, found here independently of the library's own
// scanner: ids that hold a digit (`#W2378156` and `W2378156` are one fact, so are `HAT106` and
// `gift_card_7480005`), paths and file names, amounts (`$250`, `250.00` and `250` are one amount; a
// number is an amount only with its `$`, its key, a money word before it or two fraction digits: the
// `250` of `HAT250` or a bare count is none; a one-digit amount needs its `$` or a money word: `$5`,
// `"price": 5`, not `"quantity": 5`; under an id's key, `item_ids: 6086499569` as the summary writes
// it, a number is an id),
// dates (`2024-05-14`, the date of `2024-05-14T10:00:00`, `May 14`, `May 14th`), emails, URLs, and
// in code the names of functions, classes and methods (snake_case, camelCase, PascalCase, dotted
// names). A fact is its kind and its value in one canonical form (`amount:250`, `id:W2378156`), so
// that a request shows it only where it holds the same value as the same kind. A time of day is no
// fact (the definition names dates), nor is a word of capitals without a digit (`EWR`: "ids that
// hold a digit"); a tool call's name and a JSON payload's keys are the schema, not its arguments,
// and are left out (a key that holds a digit, `gift_card_7480005`, is an id).

const months =
  "Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?";
const factPattern = new RegExp(
  [
    String.raw`https?:\/\/[^\s"'<>)\]\\]+`,
    // A timestamp is its date; a time of day is read whole, so that its minutes are no amount, and is no fact.
    String.raw`\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?`,
    String.raw`\b\d{1,2}:\d{2}(?::\d{2})?\b`,
    String.raw`\b(?:${months})\.? \d{1,2}(?:st|nd|rd|th)?\b`,
    String.raw`[#$]?\d{1,3}(?:,\d{3})+(?:\.\d+)?`,
    String.raw`[#$~/]?[A-Za-z0-9_][A-Za-z0-9_.\-/@#]*[A-Za-z0-9_]`,
    String.raw`\$?\d`,
  ].join("|"),
  "g",
);
const monthDate = new RegExp(String.raw`^(?:${months})\.? \d{1,2}(?:st|nd|rd|th)?$`);
// Words that make the number after them an amount (`fare 185`, `refund of 250`).
const moneyWords =
  /\b(?:price|prices|fare|fares|cost|costs|amount|total|balance|refund|refunded|fee|fees|paid|pay|payment|charge|charged|subtotal|credit|compensation|value)\s+(?:(?:of|is|was)\s+)?\$?$/i;
// A key before its value: `"price": `, `price: `, `price=`.
const keyBefore = /"?([A-Za-z_][A-Za-z0-9_]*)"?\s*[:=]\s*"?$/;
const idKey = (key) => /(?:^ids?$|_ids?$|[a-z]Ids?$|numbers?$|_code$|^code$|zip|phone)/i.test(key);
const moneyKey =
  /^(?:price|prices|fare|fares|cost|costs|amount|total|balance|refund|fee|fees|paid|payment|charge|subtotal|credit|compensation|value)$/i;

/**
 * A candidate as `kind:value`, or undefined when it is no fact. `before` is the text just before it:
 * a number is an amount only with a `$`, a key (`"price": 185`), a money word (`fare 185`) or two
 * fraction digits; under an id's key (`order_id`, `zip`) it is an id; alone it is an id from 5
 * digits, else no fact.
 */
function canonical(raw, before) {
  let token = raw.replace(/[.:,\-/]+$/, "");
  if (/^https?:\/\//i.test(token)) return token.length >= 10 && token.length <= 400 ? `url:${token}` : undefined;
  if (/^\d{1,2}:\d{2}(:\d{2})?$/.test(token)) return undefined;
  if (monthDate.test(token))
    return `date:${token
      .replace(/\.? +/, " ")
      .replace(/^(\w{3})\w*/, "$1")
      .replace(/(st|nd|rd|th)$/, "")}`;
  const signed = token.startsWith("$");
  // `#W2378156` is `W2378156`; `$250` is `250`.
  token = token.replace(/^[#$~]+/, "");
  // The date of a timestamp.
  const stamp = /^(\d{4}-\d{2}-\d{2})(?:[T ]\d|$)/.exec(token);
  if (stamp) return `date:${stamp[1]}`;
  if (token.length < 1 || token.length > 200) return undefined;
  // Amounts: grouping commas and a zero fraction do not make another amount.
  if (/^\d[\d,]*(\.\d+)?$/.test(token)) {
    const amount = token
      .replace(/,/g, "")
      .replace(/\.0+$/, "")
      .replace(/(\.\d*?)0+$/, "$1");
    const key = signed ? undefined : keyBefore.exec(before)?.[1];
    if (key !== undefined && idKey(key)) return `id:${amount}`;
    const money = signed || moneyWords.test(before) || (key !== undefined && moneyKey.test(key));
    if (money || key !== undefined || /\.\d\d$/.test(token))
      return amount.length >= 2 || amount.includes(".") || money ? `amount:${amount}` : undefined;
    return !token.includes(".") && !token.includes(",") && token.length >= 5 ? `id:${amount}` : undefined;
  }
  if (token.length < 2) return undefined;
  if (/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(token)) return `email:${token.toLowerCase()}`;
  if (/\d/.test(token))
    return /[A-Za-z0-9]{2}/.test(token) && !/^\d+(st|nd|rd|th)$/.test(token) ? `id:${token}` : undefined;
  if (token.length < 3) return undefined;
  if (/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(token)) return `email:${token.toLowerCase()}`;
  if (/[A-Za-z]\/|\/[A-Za-z]/.test(token)) return `path:${token}`;
  if (/_/.test(token) && /[A-Za-z]/.test(token)) return `name:${token}`;
  if (/[a-z][A-Z]/.test(token)) return `name:${token}`;
  return /^[A-Za-z][A-Za-z0-9]+\.[A-Za-z][A-Za-z0-9]{0,7}$/.test(token) ? `path:${token}` : undefined;
}

/** A fact's value without its kind: what an agent would search its archive for (`HAT252` of `id:HAT252`). */
export const factValue = (fact) => fact.slice(fact.indexOf(":") + 1);

const factsCache = new Map();
/** The facts of a text, each once, as `kind:value`; those that start before `from` are left out (a key before its value). */
export function factsOf(text, from = 0) {
  if (typeof text !== "string" || text === "") return [];
  const cacheKey = from === 0 ? text : `${from}\u0000${text}`;
  const cached = factsCache.get(cacheKey);
  if (cached) return cached;
  const found = new Set();
  // A JSON escape left in text (`\nOnce`, `\n1.`) is a line break, not part of the word after it: read as spaces, in place.
  const read = text.includes("\\") ? text.replace(/\\[ntr]/g, "  ") : text;
  for (const match of read.matchAll(factPattern)) {
    if (match.index < from) continue;
    const fact = canonical(match[0], read.slice(Math.max(0, match.index - 40), match.index));
    if (fact !== undefined) found.add(fact);
    // A dotted or slashed name also shows its parts: `models.Order` holds `Order`'s file `models`.
    const value = fact?.slice(fact.indexOf(":") + 1);
    if (
      value !== undefined &&
      !fact.startsWith("url:") &&
      !fact.startsWith("amount:") &&
      /[./]/.test(value) &&
      /[A-Za-z]/.test(value)
    ) {
      for (const part of value.split(/[./]/)) {
        const inner = part.length >= 3 ? canonical(part, "") : undefined;
        if (inner !== undefined) found.add(inner);
      }
    }
  }
  const list = [...found];
  if (text.length < 20_000) factsCache.set(cacheKey, list);
  return list;
}

/**
 * The facts of a JSON payload (tool-call arguments, a JSON result) by its structure: each value
 * read beside its key (`price: 185` is an amount, `order_id: 12345` an id), the key itself left out
 * unless it holds a digit (`gift_card_7480005`). Text that is no JSON is read as text.
 */
function payloadFacts(text) {
  const trimmed = typeof text === "string" ? text.trim() : "";
  if (!(trimmed.startsWith("{") || trimmed.startsWith("["))) return factsOf(text);
  let value;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return factsOf(text);
  }
  const found = new Set();
  const visit = (item, key, depth) => {
    if (depth > 20) return;
    if (Array.isArray(item)) for (const entry of item) visit(entry, key, depth + 1);
    else if (item && typeof item === "object") {
      for (const [name, entry] of Object.entries(item)) {
        if (/\d/.test(name)) for (const fact of factsOf(name)) found.add(fact);
        visit(entry, name, depth + 1);
      }
    } else if (typeof item === "string" || typeof item === "number") {
      const prefix = key === undefined ? "" : `${key}: `;
      for (const fact of factsOf(`${prefix}${item}`, prefix.length)) found.add(fact);
    }
  };
  visit(value, undefined, 0);
  return [...found];
}

/**
 * The values of a tool call's arguments object, one a line: a string argument's newlines stay
 * newlines (its JSON would glue `\n` to the next word) and the schema's key names are left out.
 */
function leafText(value) {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return value.map(leafText).join("\n");
  if (value && typeof value === "object") return Object.values(value).map(leafText).join("\n");
  return "";
}

/**
 * The text of a message's content, whatever its parts: OpenAI chat, the AI SDK's text, tool-call and
 * tool-result parts, Anthropic's `tool_use` and `tool_result` blocks, pi's `toolCall` parts.
 * Thinking is not text the agent wrote for anyone, and is left out.
 */
const partText = (part) =>
  part?.text ??
  (part?.type === "tool-call"
    ? `${part.toolName ?? ""} ${JSON.stringify(part.input ?? "")}`
    : part?.type === "tool-result"
      ? String(part.output?.value ?? "")
      : part?.type === "tool_use"
        ? `${part.name ?? ""} ${leafText(part.input)}`
        : part?.type === "toolCall"
          ? `${part.name ?? ""} ${leafText(part.arguments)}`
          : part?.type === "tool_result"
            ? typeof part.content === "string"
              ? part.content
              : Array.isArray(part.content)
                ? part.content.map((inner) => inner?.text ?? "").join("\n")
                : ""
            : "");
const contentText = (content) =>
  typeof content === "string" ? content : Array.isArray(content) ? content.map(partText).join("\n") : "";

const messageFactsCache = new WeakMap();
/** Every fact a message holds: its text, its tool result, its tool calls' arguments. */
export function messageFacts(message) {
  const cached = messageFactsCache.get(message);
  if (cached) return cached;
  const facts =
    message.role === "tool" && typeof message.content === "string"
      ? payloadFacts(message.content)
      : factsOf(contentText(message.content));
  const calls = (message.tool_calls ?? []).flatMap((call) => payloadFacts(call.function?.arguments ?? ""));
  const all = calls.length === 0 ? facts : [...facts, ...calls];
  messageFactsCache.set(message, all);
  return all;
}

/** What an assistant message writes: its text and its tool calls' arguments. */
export const writtenFacts = (message) => (message.role === "assistant" ? messageFacts(message) : []);

/** The facts a request shows: a set to look needed facts up in. */
export function visibleFacts(messages) {
  const seen = new Set();
  for (const message of messages) for (const fact of messageFacts(message)) seen.add(fact);
  return seen;
}
