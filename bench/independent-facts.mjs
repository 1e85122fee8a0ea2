// A second fact extractor for `bench:continuity`, written from the measure's definition alone and
// sharing no code with `bench/facts.mjs` or the library: a fact is a value with its kind, and a
// request keeps a fact only where it holds the same value as the same kind.
//
// Kinds, from the definition (identifiers in a message's text, tool result or tool-call arguments):
// - `id`: a token that holds a digit and a letter (`#W2378156` = `W2378156`, `HAT106`,
//   `gift_card_7480005`), or a run of 5 digits or more that no money context makes an amount
//   (`1355937109`), or any number under a field whose name says it is an id (`order_id`, `zip`,
//   `phone`, `…_number`, `code`, `item_ids`: a long id as the summary writes it, `item_ids: 6086499569`).
// - `amount`: a number with its field. Written `$185`, `185 USD`, `185 dollars`; a value under a
//   key (`"price": 185`, `price: 185`, `price=185`); a number after a money word (`fare 185`,
//   `refund of 185`); or a decimal with two fraction digits (`54.04`). `185`, `185.00` and `$185`
//   are one amount; a bare `185` in prose, or the `250` inside `gift_card_250`, is no amount.
// - `date`: `2024-05-14` (a timestamp counts by its date), `May 14`; a time of day (`10:00`) is none.
// - `email`, `url`, `path` (a token with a slash between letters, or a file name `name.ext`), and
//   `name` (code names: `snake_case`, `camelCase`, `PascalCase` with an inner capital, `a.b`).
// JSON keys are schema, not facts (a key that itself holds a digit, `gift_card_7480005`, is an id);
// tool names are not arguments and are left out.
//
// Reads OpenAI-chat transcripts (`/work/shared/data/transcripts`, `index.json`): `content` a string
// or parts with `text`, assistant `tool_calls[].function.arguments` a JSON string, `role: "tool"`
// results a string (JSON or prose).

const MONEY_WORDS = new Set(
  "price prices fare fares cost costs amount amounts total totals balance refund refunds refunded fee fees paid pay payment charge charged charges subtotal credit credits compensation value worth usd dollar dollars".split(
    " ",
  ),
);
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

const isDigit = (c) => c >= 48 && c <= 57;
const isUpper = (c) => c >= 65 && c <= 90;
const isLower = (c) => c >= 97 && c <= 122;
const isLetter = (c) => isUpper(c) || isLower(c);
// Characters a token is made of; its end's punctuation is trimmed afterwards.
const inToken = (c) =>
  isLetter(c) ||
  isDigit(c) ||
  c === 95 ||
  c === 35 ||
  c === 36 ||
  c === 46 ||
  c === 44 ||
  c === 45 ||
  c === 47 ||
  c === 64 ||
  c === 58 ||
  c === 126 ||
  c === 43 ||
  c === 37 ||
  c === 63 ||
  c === 61 ||
  c === 38;

/** An id-like field name: its numbers are ids, not amounts. */
function idField(field) {
  const f = field.toLowerCase();
  return (
    f === "id" ||
    f === "ids" ||
    f.endsWith("_id") ||
    f.endsWith("_ids") ||
    /[a-z]Ids$/.test(field) ||
    f.endsWith("_numbers") ||
    (f.endsWith("id") && f.length > 2 && /[a-z]Id$/.test(field)) ||
    f.endsWith("_number") ||
    f.endsWith("number") ||
    f === "zip" ||
    f.endsWith("zip") ||
    f.endsWith("_code") ||
    f === "code" ||
    f.includes("phone") ||
    f === "ssn"
  );
}

/** `185`, `185.00`, `1,234.50` → `185`, `185`, `1234.5`. */
function amountValue(text) {
  let v = text.replace(/,/g, "");
  if (v.includes(".")) v = v.replace(/0+$/, "").replace(/\.$/, "");
  return v;
}

/** A numeric token's fact, given what stands before it (a field or a money word) and after it. */
function numberFact(raw, field, before, after, add) {
  const signed = raw.startsWith("$");
  const num = signed ? raw.slice(1) : raw;
  if (!/^\d{1,3}(,\d{3})+(\.\d+)?$|^\d+(\.\d+)?$/.test(num)) return;
  const digits = num.replace(/[.,]/g, "");
  if (field !== undefined && idField(field)) {
    if (digits.length >= 2) add("id", num);
    return;
  }
  const money =
    signed ||
    field !== undefined ||
    (before !== undefined && MONEY_WORDS.has(before.toLowerCase())) ||
    (after !== undefined && /^(usd|dollars?)$/i.test(after)) ||
    /^\d[\d,]*\.\d\d$/.test(num);
  if (money) {
    const value = amountValue(num);
    // A one-digit amount needs its `$` or a money word (`$5`, `fee 5`, `"price": 5`): a field of any name would make every count an amount.
    const moneyField = field !== undefined && MONEY_WORDS.has(field.toLowerCase());
    if (
      value.length >= 2 ||
      value.includes(".") ||
      signed ||
      moneyField ||
      (before !== undefined && MONEY_WORDS.has(before.toLowerCase()))
    )
      add("amount", value);
    return;
  }
  if (!num.includes(".") && !num.includes(",") && num.length >= 5) add("id", num);
}

/** The facts of one token (no field around it), each by `add(kind, value)`. */
function tokenFact(token, add) {
  if (/^https?:\/\//i.test(token)) {
    if (token.length >= 10) add("url", token);
    return;
  }
  const stamp = /^(\d{4}-\d{2}-\d{2})(?:[T ]\d|$)/.exec(token);
  if (stamp) return add("date", stamp[1]);
  // A time of day is no fact: the definition names dates.
  if (/^\d{1,2}:\d{2}(?::\d{2})?$/.test(token)) return;
  if (/^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$/.test(token)) return add("email", token.toLowerCase());
  const bare = token.replace(/^[#~]+/, "");
  if (
    /[0-9]/.test(bare) &&
    /[A-Za-z]/.test(bare) &&
    !bare.includes("/") &&
    !/^\d+(\.\d+)?(ms|s|kb|mb|gb|px|%|st|nd|rd|th|am|pm|h|m|d|x)$/i.test(bare)
  )
    return add("id", bare);
  if (/[A-Za-z]\/|\/[A-Za-z]/.test(bare)) return add("path", bare.replace(/^\.\//, ""));
  if (
    /^[A-Za-z_][A-Za-z0-9_-]*\.(py|js|ts|tsx|jsx|mjs|json|md|txt|yml|yaml|toml|cfg|ini|rs|go|java|c|h|cpp|rb|sh|html|css|csv|xml|lock)$/.test(
      bare,
    )
  )
    return add("path", bare);
  if (
    /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$/.test(bare) &&
    /[a-z]/.test(bare) &&
    !/^(e\.g|i\.e|etc)$/i.test(bare)
  ) {
    add("name", bare);
    for (const part of bare.split(".")) if (part.length >= 3) nameFact(part, add);
    return;
  }
  nameFact(bare, add);
}

function nameFact(word, add) {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(word) || word.length < 3) return;
  if (/[A-Za-z]_[A-Za-z0-9]|[a-z0-9]_[a-z]/.test(word) || /[a-z][A-Z]/.test(word)) add("name", word);
}

/**
 * Scans free text once, left to right, over character codes: tokens, with the word before each
 * (a money word, or a `key:` / `key=` / `"key":` field) and the word after it.
 */
export function textFacts(text, add) {
  if (typeof text !== "string" || text === "") return;
  const tokens = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32;
    if (inToken(c)) {
      if (start === -1) start = i;
    } else if (start !== -1) {
      // A token of punctuation alone (`:` after a quoted key) is part of the gap between words.
      if (/[A-Za-z0-9]/.test(text.slice(start, i))) tokens.push([start, i]);
      start = -1;
    }
  }
  // Month dates: `May 14`, `March 3rd`.
  for (let t = 0; t + 1 < tokens.length; t++) {
    const word = text.slice(tokens[t][0], tokens[t][1]).replace(/\.$/, "").toLowerCase();
    const month = MONTHS.indexOf(word.slice(0, 3));
    if (
      month === -1 ||
      !(
        word.length === 3 ||
        "january february march april may june july august september october november december sept"
          .split(" ")
          .includes(word)
      )
    )
      continue;
    if (tokens[t + 1][0] - tokens[t][1] !== 1) continue;
    const day = /^(\d{1,2})(?:st|nd|rd|th)?[,.]?$/.exec(text.slice(tokens[t + 1][0], tokens[t + 1][1]));
    if (day && Number(day[1]) >= 1 && Number(day[1]) <= 31) add("date", `${MONTHS[month]} ${Number(day[1])}`);
  }
  for (let t = 0; t < tokens.length; t++) {
    let [s, e] = tokens[t];
    // A JSON escape left in text (`\n1. Cancel`) is a separator, not part of the word after it.
    if (s > 0 && text.charCodeAt(s - 1) === 92 && /^[ntr](?![a-z])/.test(text.slice(s, s + 2))) s++;
    let token = text.slice(s, e);
    // A `key:` or `key=` glued to its value: `price:185`, `order_id=W123`.
    const glued = /^([A-Za-z_][A-Za-z0-9_]*)[:=]([^:=].*)$/.exec(token);
    let field;
    if (glued && !/^https?$/i.test(glued[1])) {
      field = glued[1];
      token = glued[2];
    }
    token = token.replace(/[.,:;?!=&%+\-/]+$/, "");
    if (token === "") continue;
    if (field === undefined) {
      // `"price": 185`, `price: 185`, `price = 185`: the word before, ended by a colon or `=`.
      const gap = text.slice(t > 0 ? tokens[t - 1][1] : 0, s);
      const prev = t > 0 ? text.slice(tokens[t - 1][0], tokens[t - 1][1]) : "";
      const keyed = /^([A-Za-z_][A-Za-z0-9_]*)[:=]$/.exec(prev);
      if (keyed && /^\s*["']?$/.test(gap)) field = keyed[1];
      else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(prev) && /^["']?\s*[:=]\s*["']?$/.test(gap) && /[:=]/.test(gap))
        field = prev;
    }
    const before = t > 0 ? text.slice(tokens[t - 1][0], tokens[t - 1][1]).replace(/[.,:;]+$/, "") : undefined;
    const beforeTwo =
      t > 1 && /^(of|is|was|at|for)$/i.test(before ?? "")
        ? text.slice(tokens[t - 2][0], tokens[t - 2][1]).replace(/[.,:;]+$/, "")
        : undefined;
    const after =
      t + 1 < tokens.length && tokens[t + 1][0] - e <= 1
        ? text.slice(tokens[t + 1][0], tokens[t + 1][1]).replace(/[.,:;]+$/, "")
        : undefined;
    if (/^\$?[\d,.]+$/.test(token) && /\d/.test(token)) {
      numberFact(token, field, beforeTwo ?? before, after, add);
      continue;
    }
    if (field !== undefined && /^\$?[\d,.]+$/.test(token)) continue;
    tokenFact(token, add);
  }
}

/** Facts of a JSON value: a number or numeric string with its key as field; strings read as text; keys are schema. */
function valueFacts(value, field, add, depth = 0) {
  if (depth > 20) return;
  if (typeof value === "number") {
    if (Number.isFinite(value)) numberFact(String(value), field ?? "value", undefined, undefined, add);
  } else if (typeof value === "string") {
    const s = value.trim();
    if (/^\$?\d[\d,]*(\.\d+)?$/.test(s)) numberFact(s, field ?? "value", undefined, undefined, add);
    else if (field !== undefined && /^[A-Z0-9]{5,8}$/.test(s) && /\d/.test(s)) add("id", s);
    else textFacts(value, add);
  } else if (Array.isArray(value)) {
    for (const item of value) valueFacts(item, field, add, depth + 1);
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (/\d/.test(key)) tokenFact(key, add);
      valueFacts(item, key, add, depth + 1);
    }
  }
}

/** Text that may be JSON: walked by structure when it parses, else read as text. */
function payloadFacts(text, add) {
  if (typeof text !== "string") return;
  const s = text.trim();
  if (s.startsWith("{") || s.startsWith("[")) {
    try {
      return valueFacts(JSON.parse(s), undefined, add);
    } catch {
      // prose after all
    }
  }
  textFacts(text, add);
}

const cache = new WeakMap();
/** Every typed fact of a message (`kind:value` strings): its text, its tool result, its tool calls' arguments. */
export function messageFacts(message) {
  const hit = cache.get(message);
  if (hit) return hit;
  const found = new Set();
  const add = (kind, value) => found.add(`${kind}:${value}`);
  const content = message.content;
  if (typeof content === "string") (message.role === "tool" ? payloadFacts : textFacts)(content, add);
  else if (Array.isArray(content))
    for (const part of content) if (typeof part?.text === "string") textFacts(part.text, add);
  for (const call of message.tool_calls ?? []) payloadFacts(call.function?.arguments ?? "", add);
  const list = [...found];
  cache.set(message, list);
  return list;
}

/** What an assistant message writes: its text and its tool calls' arguments. */
export const writtenFacts = (message) => (message.role === "assistant" ? messageFacts(message) : []);

/** The typed facts of free text (a summary, a prompt). */
export function factsOf(text) {
  const found = new Set();
  textFacts(text, (kind, value) => found.add(`${kind}:${value}`));
  return [...found];
}

/** Every typed fact a request shows. */
export function visibleFacts(messages) {
  const seen = new Set();
  for (const message of messages) for (const fact of messageFacts(message)) seen.add(fact);
  return seen;
}
