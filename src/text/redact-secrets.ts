import { scanIdentifiers } from "./scan-identifiers.js";

// Secrets that a summary made without a model must not copy: API keys and tokens by their
// well-known prefixes, bearer tokens, passwords in URLs, the values of secret-named settings
// (`.env` lines, JSON keys, headers), PEM private keys, and card numbers beside a card context.
// Every pattern here is a literal prefix followed by a single character class, or a bounded
// repetition, so no input makes one backtrack more than a constant: the cost stays linear in the
// text's length. Repetitions stop at 1,024 characters, since the engine keeps one backtracking
// entry per character of a run and overflows its stack on a run of megabytes; a token longer than
// that is followed to its end by a loop. PEM blocks are found by searching for their lines.

/** What stands in for a secret. */
export const REDACTED = "[redacted]";

const keyPatterns: RegExp[] = [
  // OpenAI and Anthropic (`sk-…`, `sk-proj-…`, `sk-ant-…`), Stripe (`sk_live_…`, `rk_live_…`).
  /\b(?:sk|rk)[-_][A-Za-z0-9_-]{16,1024}/g,
  // AWS access key ids.
  /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g,
  // GitHub tokens.
  /\b(?:gh[pousr]_[A-Za-z0-9]{20,1024}|github_pat_[A-Za-z0-9_]{20,1024})/g,
  // GitLab personal access tokens.
  /\bglpat-[A-Za-z0-9_-]{20,1024}/g,
  // Hugging Face and npm tokens.
  /\b(?:hf|npm)_[A-Za-z0-9]{30,1024}/g,
  // SendGrid API keys.
  /\bSG\.[A-Za-z0-9_-]{16,1024}\.[A-Za-z0-9_-]{16,1024}/g,
  // Stripe and Svix webhook signing secrets.
  /\bwhsec_[A-Za-z0-9+/=]{20,1024}/g,
  // Slack tokens.
  /\bxox[abposre]-[A-Za-z0-9-]{10,1024}/g,
  // Google API keys.
  /\bAIza[A-Za-z0-9_-]{30,1024}/g,
  // JSON Web Tokens.
  /\beyJ[A-Za-z0-9_-]{10,1024}\.[A-Za-z0-9_-]{10,1024}\.[A-Za-z0-9_-]{10,1024}/g,
  // Prefixes that end in `sk` or `pt` after a letter or `_`, which the `sk-`/`sk_` rule above cannot
  // see (no word boundary before its `sk`), and formats with prefixes of their own. The shapes are
  // the published rules of secret scanners:
  // Groq: gitleaks `groq-api-key`, `gsk_` then 48 letters and digits (keys seen hold 52).
  /\bgsk_[A-Za-z0-9]{48,1024}/g,
  // Pinecone: trufflehog `pinecone`, `pcsk_`, a key id of 4 or more letters and digits, `_`, then 40 or more.
  /\bpcsk_[A-Za-z0-9]{4,64}_[A-Za-z0-9]{40,1024}/g,
  // LangSmith: gitleaks `langsmith-api-key`, `lsv2_pt_` (personal) or `lsv2_sk_` (service), 32 characters, `_`, 10 more.
  /\blsv2_(?:pt|sk)_[A-Za-z0-9]{32}_[A-Za-z0-9]{10}/g,
  // xAI: trufflehog `xai`, `xai-` then 80 letters, digits and `_` (`xai-team` is no key).
  /\bxai-[A-Za-z0-9_]{80,1024}/g,
  // Perplexity: trufflehog `perplexity`, `pplx-` then 48 letters and digits.
  /\bpplx-[A-Za-z0-9]{48,1024}/g,
  // Google OAuth access tokens: trufflehog `googleoauth2`, `ya29.` then 10 or more letters, digits, `_` and `-`.
  /\bya29\.[A-Za-z0-9_-]{10,1024}/g,
  // Slack incoming webhooks: gitleaks `slack-web-hook`, `https://hooks.slack.com/services/` then 44 to
  // 46 letters, digits, `+` and `/` (`T…/B…/` and the secret). The path is the secret; the host stays.
  /(?<=\bhooks\.slack\.com\/services\/)[A-Za-z0-9+/]{40,1024}/g,
];

// `Bearer <token>` and `Basic <credentials>`, as written in an Authorization header.
const authorization = /\b(?:Bearer|Basic|Token)[ \t]{1,8}([A-Za-z0-9._~+/=-]{12,1024})/gi;
// The password of `scheme://user:password@host`.
const urlPassword = /\b[A-Za-z][A-Za-z0-9+.-]{0,20}:\/\/[^\s:/@"'<>]{0,256}:([^\s@/"'<>]{1,256})@/g;
// `DB_PASSWORD=…`, `"github_token": "…"`, `x-api-key: …`: a name, then the value of it; whether the
// name is a secret's is decided by `isSecretName`, whether the value is one by `isSecretValue`.
// Only the name and its separator are matched, so that a value of another name is read as text
// too (`"note": "x-api-key: …"`); the value of a secret's name is read from where the match ends.
// A quote may be escaped, as in JSON inside a JSON string (`{\"db_password\": \"…\"}`).
const namedSetting = /\b([A-Za-z][A-Za-z0-9_.-]{0,63})(?:\\{0,2}["'])?[ \t]{0,8}[:=][ \t]{0,8}/g;
const settingValue = /\\{0,2}"([^"\\\r\n]{1,512})|\\{0,2}'([^'\\\r\n]{1,512})|([^\s"'\\,;&}\]]{1,512})/dy;
// 13 to 19 digits, optionally grouped by single spaces or dashes: checked by Luhn and context.
const cardCandidate = /\b\d(?:[ -]?\d){12,18}\b/g;
// A word or a field name before a number that says it is a card's.
const cardContext = /card|credit|debit|visa|master|amex|discover|\bcc|\bpan\b/i;

/** The end of a token whose match stopped at the bound: on over the characters a token holds. */
function tokenEnd(text: string, end: number): number {
  let at = end;
  for (let code = text.charCodeAt(at); at < text.length; code = text.charCodeAt(++at)) {
    const letterOrDigit = (code >= 48 && code <= 57) || ((code | 0x20) >= 97 && (code | 0x20) <= 122);
    if (!letterOrDigit && code !== 95 && code !== 43 && code !== 47 && code !== 61 && code !== 45) break;
  }
  return at;
}

function passesLuhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let index = digits.length - 1; index >= 0; index--) {
    let digit = digits.charCodeAt(index) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/** The words of a name as code writes one: `AWS_SECRET_ACCESS_KEY`, `githubToken`, `x-api-key`, `db.password`. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[\s_.-]+/)
    .filter((word) => word !== "");
}

const secretLastWords = new Set([
  "password",
  "passwd",
  "passphrase",
  "pwd",
  "pass",
  "secret",
  "token",
  "apikey",
  "credential",
  "credentials",
  "cvv",
  "cvc",
  "auth",
  "authorization",
]);
const secretKeyKinds = new Set([
  "api",
  "private",
  "access",
  "secret",
  "account",
  "signing",
  "encryption",
  "master",
  "client",
]);

/**
 * Names whose values are secrets, whatever they look like: a name that ends in `password`,
 * `secret`, `token`, `api_key`, `private_key`, `access_key` (and the like), in any case and
 * spelling (`DB_PASSWORD`, `AWS_SECRET_ACCESS_KEY`, `github_token`, `x-api-key`, `AccountKey`),
 * or holds `password` or `secret` anywhere. `max_tokens` and `token_count` are not.
 *
 * @param name - a key, a setting's or a header's name
 * @returns whether its value is a secret
 */
export function isSecretName(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  const words = wordsOf(name);
  const last = words[words.length - 1];
  if (last === undefined) return false;
  if (secretLastWords.has(last)) return true;
  if (last === "key" && words.length > 1 && secretKeyKinds.has(words[words.length - 2] as string)) return true;
  return words.some((word) => word === "password" || word === "passwd" || word === "secret");
}

/**
 * Whether the value of a secret-named setting is a secret, and not a fact the name happens to
 * sit beside: a count (`token: 3 of 10`, `pass: 120`) or the working directory (`PWD=/home/…`).
 */
function isSecretValue(name: string, value: string): boolean {
  if (value === REDACTED || value.trim() === "" || /^(?:bearer|basic|token)$/i.test(value)) return false;
  const last = wordsOf(name).pop();
  if (/^\d{1,5}$/.test(value) && last !== "password" && last !== "passwd" && last !== "passphrase") return false;
  if (last === "pwd" && (value.startsWith("/") || value.startsWith("~") || /^[A-Za-z]:[\\/]/.test(value))) return false;
  return true;
}

/** A credential after `Bearer`/`Basic`: not an ordinary word (`Basic authentication`). */
function isCredential(text: string): boolean {
  return /[0-9+/=._~-]/.test(text) || (/[A-Z]/.test(text.slice(1)) && /[a-z]/.test(text));
}

/** Pushes `[start, end)` of each PEM private key block (to the end of the text when it has no end line). */
function pemBlocks(text: string, spans: number[]): void {
  let from = 0;
  for (;;) {
    const begin = text.indexOf("-----BEGIN ", from);
    if (begin === -1) return;
    const headerEnd = text.indexOf("-----", begin + 11);
    const header = headerEnd === -1 ? "" : text.slice(begin + 11, Math.min(headerEnd, begin + 80));
    if (headerEnd === -1 || headerEnd - begin > 80 || !header.endsWith("PRIVATE KEY")) {
      from = begin + 11;
      continue;
    }
    const end = text.indexOf("-----END ", headerEnd + 5);
    if (end === -1) {
      spans.push(begin, text.length);
      return;
    }
    const close = text.indexOf("-----", end + 9);
    const stop = close === -1 || close - end > 80 ? end + 9 : close + 5;
    spans.push(begin, stop);
    from = stop;
  }
}

const BACKSLASH = 92;

/** Whether a character is a hexadecimal digit. */
function isHex(code: number): boolean {
  return (code >= 48 && code <= 57) || ((code | 0x20) >= 97 && (code | 0x20) <= 102);
}

/**
 * `text` with each JSON escape that stands for a separator (`\n`, `\t`, `\r`, `\b`, `\f`, `\uXXXX`,
 * after any run of backslashes, as JSON inside a JSON string doubles them) replaced by as many
 * spaces: the same length, so positions in it are positions in `text`. A name or a key right after
 * an escape (`…\npassword: …`, `…\nsk-…`) then starts a word, as it does once the JSON is read.
 * `\"` and `\\` are left: a quote and a backslash already end a name. One pass over character codes.
 */
function escapesAsSpaces(text: string): string {
  let at = text.indexOf("\\");
  if (at === -1) return text;
  let result = "";
  let copied = 0;
  while (at !== -1 && at < text.length) {
    let end = at;
    while (text.charCodeAt(end) === BACKSLASH) end++;
    const letter = text.charCodeAt(end);
    let stop = -1;
    // n, t, r, b, f (lowercase only: `\N` is a backslash and a letter), or u and four hexadecimal digits.
    if (letter === 110 || letter === 116 || letter === 114 || letter === 98 || letter === 102) stop = end + 1;
    else if (
      letter === 117 &&
      isHex(text.charCodeAt(end + 1)) &&
      isHex(text.charCodeAt(end + 2)) &&
      isHex(text.charCodeAt(end + 3)) &&
      isHex(text.charCodeAt(end + 4))
    )
      stop = end + 5;
    if (stop !== -1) {
      result += text.slice(copied, at) + " ".repeat(stop - at);
      copied = stop;
      at = text.indexOf("\\", stop);
    } else at = text.indexOf("\\", end);
  }
  return copied === 0 ? text : result + text.slice(copied);
}

/**
 * Where the secrets of `text` stand, as sorted, disjoint `[start, end)` pairs, flattened
 * (`[start0, end0, start1, end1, …]`). Linear in the length of `text`.
 *
 * @param original - any text
 * @returns the spans, flattened
 */
export function secretSpans(original: string): number[] {
  const spans: number[] = [];
  // Read with JSON escapes as spaces, so that `\npassword: …` is the name `password`, not `npassword`.
  const text = escapesAsSpaces(original);
  // A match that stopped at its bound runs on to its token's end, and the next search starts there:
  // each character is read once, however long the run (`sk-sk-sk-…` would otherwise be quadratic).
  for (const pattern of keyPatterns) {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      const end = tokenEnd(text, match.index + match[0].length);
      spans.push(match.index, end);
      pattern.lastIndex = Math.max(end, match.index + 1);
    }
  }
  authorization.lastIndex = 0;
  for (let match = authorization.exec(text); match !== null; match = authorization.exec(text)) {
    const credential = match[1] as string;
    const end = tokenEnd(text, match.index + match[0].length);
    if (isCredential(credential)) spans.push(match.index + match[0].length - credential.length, end);
    authorization.lastIndex = Math.max(end, match.index + 1);
  }
  for (const match of text.matchAll(urlPassword))
    spans.push(match.index + match[0].length - 1 - (match[1] as string).length, match.index + match[0].length - 1);
  namedSetting.lastIndex = 0;
  for (let match = namedSetting.exec(text); match !== null; match = namedSetting.exec(text)) {
    const name = match[1] as string;
    if (!isSecretName(name)) continue;
    settingValue.lastIndex = match.index + match[0].length;
    const found = settingValue.exec(text);
    if (found === null) continue;
    const group = found[1] !== undefined ? 1 : found[2] !== undefined ? 2 : 3;
    const [start, end] = found.indices?.[group] ?? [0, 0];
    if (!isSecretValue(name, found[group] as string)) continue;
    spans.push(start, end);
    // A secret's value is not read again as names (`password=password=…`): each character once.
    namedSetting.lastIndex = Math.max(namedSetting.lastIndex, end);
  }
  for (const match of text.matchAll(cardCandidate)) {
    const digits = match[0].replace(/[ -]/g, "");
    if (digits.length < 13 || digits.length > 19 || !passesLuhn(digits)) continue;
    if (cardContext.test(text.slice(Math.max(0, match.index - 24), match.index)))
      spans.push(match.index, match.index + match[0].length);
  }
  pemBlocks(text, spans);
  return merged(spans);
}

function spanTest(spans: readonly number[]): (start: number, end: number) => boolean {
  let at = 0;
  return (start, end) => {
    // Back to the first span that could overlap, then on past those that end before `start`.
    while (at > 0 && (spans[at - 1] as number) > start) at -= 2;
    while (at < spans.length && (spans[at + 1] as number) <= start) at += 2;
    return at < spans.length && (spans[at] as number) < end;
  };
}

/** Flattened spans sorted by start, overlapping ones joined. */
function merged(spans: number[]): number[] {
  const pairs: [number, number][] = [];
  for (let index = 0; index < spans.length; index += 2)
    pairs.push([spans[index] as number, spans[index + 1] as number]);
  pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const result: number[] = [];
  for (const [start, end] of pairs) {
    const last = result.length - 1;
    if (last > 0 && start <= (result[last] as number)) result[last] = Math.max(result[last] as number, end);
    else result.push(start, end);
  }
  return result;
}

/**
 * A test of whether `[start, end)` of `text` overlaps a secret, for callers that read `text` by
 * position (a scan of identifiers): an identifier is judged in its context (`password: hunter2`),
 * not alone. Queries in increasing `start` cost constant time each on average.
 *
 * @param text - the text the positions are in
 * @returns `(start, end) => boolean`
 */
export function secretTest(text: string): (start: number, end: number) => boolean {
  return spanTest(secretSpans(text));
}

/**
 * The identifiers of `text` (as `scanIdentifiers` reads them) that are a secret or part of one in
 * their context: what a list of identifiers taken from `text` (a cut's marker) must leave out.
 *
 * @param text - the text the identifiers were read from
 * @returns the identifiers to leave out
 */
export function secretIdentifiers(text: string): ReadonlySet<string> {
  const secret = new Set<string>();
  const spans = secretSpans(text);
  if (spans.length === 0) return secret;
  const inSecret = spanTest(spans);
  scanIdentifiers(text, (identifier, start, end) => {
    if (inSecret(start, end)) secret.add(identifier);
  });
  return secret;
}

/**
 * `identifiers` taken from `text`, without those that are a secret in `text`: what a marker that
 * names the identifiers of a cut lists. Only `text` up to `readTo` (and a little past it, for a
 * value that runs on) is read: where the identifiers were read from, and all the context before.
 *
 * @param identifiers - identifiers read from `text` (by `scanIdentifiers` or `identifiersBetween`)
 * @param text - the text they were read from
 * @param readTo - where in `text` the identifiers were read up to
 * @returns the identifiers that may be shown
 */
export function withoutSecretIdentifiers(identifiers: readonly string[], text: string, readTo = text.length): string[] {
  if (identifiers.length === 0) return [];
  const secret = secretIdentifiers(readTo + 1024 < text.length ? text.slice(0, readTo + 1024) : text);
  return identifiers.filter((identifier) => !secret.has(identifier) && redactSecrets(identifier) === identifier);
}

/**
 * `text` with the secrets it shows replaced by `[redacted]`: API keys and tokens (`sk-…`, `AKIA…`,
 * `ghp_…`, `github_pat_…`, `glpat-…`, `hf_…`, `npm_…`, `SG.…`, `whsec_…`, `xox…-`, `AIza…`, JWTs,
 * `gsk_…`, `pcsk_…`, `lsv2_sk_…`/`lsv2_pt_…`, `xai-…`, `pplx-…`, `ya29.…`, Slack webhook URLs),
 * bearer and basic credentials, passwords in URLs, the values of secret-named settings, keys and
 * headers (`DB_PASSWORD=`, `"github_token":`, `x-api-key:`, Azure's `AccountKey=`), PEM private key
 * blocks, and card numbers (Luhn-checked, beside a word naming a card). Counts, paths and
 * timestamps stay. A JSON escape (`\n`, `\t`, `\u000a`) separates words, as it does once the JSON
 * is read. Linear in the length of `text`. The one redaction of the library: every other
 * check of a secret reads the spans it redacts.
 *
 * @param text - any text
 * @returns the text, with each secret replaced
 * @example
 * ```ts
 * redactSecrets("DB_PASSWORD=hunter2xyz"); // "DB_PASSWORD=[redacted]"
 * ```
 */
export function redactSecrets(text: string): string {
  const spans = secretSpans(text);
  if (spans.length === 0) return text;
  let result = "";
  let copied = 0;
  for (let index = 0; index < spans.length; index += 2) {
    result += text.slice(copied, spans[index]) + REDACTED;
    copied = spans[index + 1] as number;
  }
  return result + text.slice(copied);
}
