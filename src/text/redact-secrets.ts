import { scanIdentifiers } from "./scan-identifiers.js";
import { tokenSpans } from "./secret-tokens.js";

// Secrets that no door may let out (SPEC §42: "no secret leaves by recall, the summary or a
// marker"): tokens by their shape (`secret-tokens.ts`), credentials after `Bearer`/`Basic`,
// passwords in URLs and on command lines, the values of secret-named settings (`.env` lines, JSON
// keys, headers, XML elements, NuGet's `value=`), private key blocks, and card numbers beside a
// card context. Every pattern here is literals and character classes with bounded repetitions, so
// no input makes one backtrack more than a constant, and where a pattern could be tried again over
// what it read (a URL, a token, a value) the next search starts past it: the cost stays linear in
// the text's length.
//
// Every door reads every format; the doors differ in what else they may leave out, and so in what
// their reading weighs, each inside the size ceiling of the import that holds it (SPEC §39: a
// ceiling never rises).
// - Recall and the inspect page show messages as written (`secretSpans`): a value is judged by its
//   shape and the name beside it together (`"token": "USDC"`, `"pass": false`, a `PasswordLastUsed`
//   date stay), a command's own flags by the command (`ssh -p 2222` keeps its port), and the ids of
//   APIs by their prefix. They live in the stateful layer and the tools, which pay for it.
// - The model-free summary is made of ids and named values, and reads those as recall does; what
//   follows a flag that may carry a password, it leaves out whatever the command
//   (`summarySecretSpans`): `extractiveSummary` has its own ceiling, which the summary's own work
//   shares.
// - A truncation marker's list, an error's excerpt and an OpenTelemetry event only name or quote a
//   cut in passing, and leave out whatever may be a secret (`likely-secrets.ts`): a token by a
//   cruder test, the value of any secret-named setting, whatever follows such a flag. They are the
//   doors of `compactor`, whose redaction so weighs less than the 20 formats it read before.

/** What stands in for a secret. */
export const REDACTED = "[redacted]";

// `DB_PASSWORD=…`, `"github_token": "…"`, `x-api-key: …`, `<password>…</password>`, NuGet's
// `<add key="ClearTextPassword" value="…"/>` (gitleaks `nuget-config-password`): a name, then the
// value of it. Only the name and its separator are matched, so that a value of another name is
// read as text too (`"note": "x-api-key: …"`); the value of a secret's name is read from where the
// match ends. A quote may be escaped, as in JSON inside a JSON string (`{\"db_password\": \"…\"}`),
// and a name may open with underscores (`.npmrc`'s `_authToken=`).
const namedSetting = /\b_{0,2}([A-Za-z][\w.-]{0,63})(?:\\{0,2}["'])?[ \t]{0,8}([:=>]|value=)[ \t]{0,8}/g;
const settingValue = /\\{0,2}"([^"\\\r\n]{1,512})|\\{0,2}'([^'\\\r\n]{1,512})|([^\s"'\\,;&}\]]{1,512})/dy;
// What follows a value read to its bound, up to where the value ends.
const valueRest = /[^\s"'\\,;&}\]<]*/y;

/**
 * Pushes the value of each setting whose name and value `isSecret` judges a secret's.
 *
 * @param text - the text, JSON escapes read as spaces
 * @param spans - where the spans go, flattened
 * @param isSecret - the test of a name and its value
 */
export function settingSpans(text: string, spans: number[], isSecret: (name: string, value: string) => boolean): void {
  namedSetting.lastIndex = 0;
  for (let match = namedSetting.exec(text); match !== null; match = namedSetting.exec(text)) {
    const [, name = "", separator] = match;
    // A segment of an ARN or a URN (`…:123456789012:secret:prod/db`) is no name, and `>` ends one only in a tag (`<password>`).
    if (
      !isSecretName(name) ||
      (separator === ":" && text[match.index - 1] === ":") ||
      (separator === ">" && text[match.index - 1] !== "<")
    )
      continue;
    settingValue.lastIndex = match.index + match[0].length;
    const found = settingValue.exec(text);
    const group = found?.findIndex((part, index) => index > 0 && part !== undefined) ?? -1;
    const [start = 0, end = 0] = found?.indices?.[group] ?? [];
    // An element's value ends where its closing tag starts.
    const value = (found?.[group] ?? "").split(separator === ">" ? "<" : "\0")[0] as string;
    if (!isSecret(name, value)) continue;
    // A value longer than was read (an AWS session token holds 800 characters and more) runs on to
    // its end, and is not read again as names (`password=password=…`): each character once.
    valueRest.lastIndex = end;
    valueRest.test(text);
    spans.push(start, value.length < end - start ? start + value.length : valueRest.lastIndex);
    namedSetting.lastIndex = Math.max(namedSetting.lastIndex, valueRest.lastIndex);
  }
}

// The last word of a secret's name, whole (`pass`, `auth`, an Azure SAS URL's `sig`, a session cookie's
// `sid`) or at its end (`PGPASSWORD`, `npmtoken`, `PHPSESSID`, `JSESSIONID`).
const secretWord =
  /^(?:pass|pwd|cv[vc]|auth(?:orization)?|sig|sid|credentials?)$|(?:passw(?:or)?d|passphrase|secret|apikey|token|sess(?:ion)?(?:id)?)$/;

/**
 * The words of a name as code writes one (`AWS_SECRET_ACCESS_KEY`, `githubToken`, `x-api-key`,
 * `db.password`), without a number at its end or a last word that asks for the same value again
 * (Django's `password2`, Rails' `password_confirmation`, `passwordRepeat`): those name what the
 * words before them name.
 */
const wordsOf = (name: string): string[] =>
  name
    .replace(/[_.-]?(?:\d+|confirm(?:ation)?|again|repeat)$/i, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[\s_.-]+/)
    .filter((word) => word !== "");

/**
 * Names whose values are secrets, when their values look like one: a name that ends in
 * `password`, `secret`, `token`, `api_key`, `private_key`, `access_key` (and the like), in any case
 * and spelling (`DB_PASSWORD`, `PGPASSWORD`, `AWS_SECRET_ACCESS_KEY`, `github_token`, `x-api-key`,
 * `AccountKey`, `_authToken`, an Azure SAS URL's `sig`, a session cookie's `sid` or `PHPSESSID`),
 * or holds `password` or `secret` anywhere. `max_tokens` and `token_count` are not.
 *
 * @param name - a key, a setting's or a header's name
 * @returns whether its value is a secret
 */
export function isSecretName(name: string): boolean {
  if (name.length > 64 || !/pass|pwd|secret|token|key|auth|credential|cv[vc]|sig|sess|sid/i.test(name)) return false;
  const words = wordsOf(name);
  const last = words.pop() ?? "";
  return (
    secretWord.test(last) ||
    (last === "key" &&
      /^(?:api|private|access|secret|account|signing|encryption|master|client)$/.test(words[words.length - 1] ?? "")) ||
    words.some((word) => /^(?:password|passwd|secret)$/.test(word))
  );
}

/**
 * Each JSON escape that stands for a separator (`\n`, `\t`, `\u000a`, after the backslashes JSON
 * inside a JSON string doubles) as as many spaces, so that `\npassword: …` is the name `password`,
 * not `npassword`: the same length, so positions in it are positions in `text`.
 */
export const escapesAsSpaces = (text: string): string =>
  text.replace(/\\{1,8}(?:[ntrbf]|u[\dA-Fa-f]{4})/g, (escaped) => " ".repeat(escaped.length));

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

/**
 * Pushes the secrets every door reads the same way: credentials after `Bearer`/`Basic`, card
 * numbers beside a word that names a card, and private key blocks (PEM's and OpenPGP's, gitleaks
 * `private-key`, to the end of the text when they have no end line; the private part of a PuTTY key
 * file, the PuTTY manual's "PPK file format", from `Private-Lines:` to the end of the `Private-MAC:`
 * line).
 *
 * @param text - the text, JSON escapes read as spaces
 * @param spans - where the spans go, flattened
 */
export function credentialSpans(text: string, spans: number[]): void {
  for (const match of text.matchAll(/\b(?:Bearer|Basic|Token)[ \t]{1,8}([\w.~+/=-]{12,1024})[\w.~+/=-]*/dgi)) {
    // A credential, not an ordinary word (`Basic authentication`).
    if (
      /[\d+/=._~-]/.test(match[1] as string) ||
      (/[A-Z]/.test((match[1] as string).slice(1)) && /[a-z]/.test(match[1] as string))
    )
      spans.push((match.indices?.[1] ?? [0])[0] as number, match.index + match[0].length);
  }
  for (const match of text.matchAll(/\b\d(?:[ -]?\d){12,18}\b/g)) {
    if (
      passesLuhn(match[0].replace(/[ -]/g, "")) &&
      /card|credit|debit|visa|master|amex|discover|\bcc|\bpan\b/i.test(
        text.slice(Math.max(0, match.index - 24), match.index),
      )
    )
      spans.push(match.index, match.index + match[0].length);
  }
  for (const match of text.matchAll(
    /-----BEGIN [A-Z0-9 ]{0,64}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]{0,64}-----|$)|\bPrivate-Lines:[\s\S]*?(?:Private-MAC:.*|$)/g,
  ))
    spans.push(match.index, match.index + match[0].length);
}

/**
 * Whether `value`, the value of `name`, is a secret: a secret's name beside a value shaped as one.
 * No value is one that says a flag, a state or a placeholder (`"pass": false`, `password: required`,
 * `${DB_PASSWORD}`, `********`, `<your-token>`). Beside a password's name any other value is one but
 * the working directory (`PWD=/home/…`). Beside another name (a token's, a key's, a signature's, or
 * a name that holds `password` or `secret` before a last word of its own: `PasswordLastUsed`,
 * `SecretArn`, `password_policy`, `secretName`) a secret is a word that mixes as generated text
 * does (a digit and a letter, a capital inside, a symbol other than `-`, `_` and `.`), of at least
 * 8 characters (16 when the secret's word is not the name's last: `password_hash_algorithm` is no
 * secret's name), or of 24 of any kind, and no ARN, date, or token that is a place in a list
 * (Google's `nextPageToken`, AWS' `NextToken`, `continuation_token`): `"token": "USDC"`, a count and
 * `"secret": "my-app-secret-name"` are no secrets.
 *
 * @param name - the key or setting's name
 * @param value - its value, as text
 * @returns whether the value is to be redacted
 * @example
 * ```ts
 * isSecretSetting("token", "USDC"); // false
 * ```
 */
export function isSecretSetting(name: string, value: string): boolean {
  const trimmed = value.trim();
  const words = wordsOf(name);
  const last = words.pop() ?? "";
  if (
    !isSecretName(name) ||
    /^(?:true|false|null|none|required|optional|hidden|masked|)$/i.test(trimmed) ||
    /^(?:\$[{A-Z_]|\{\{|<.{0,64}>$|([*xX•.#-])\1{2,}$)/.test(trimmed)
  )
    return false;
  if (/passw(?:or)?d$|passphrase$|^pwd$/.test(last)) return !(last === "pwd" && /^[/~]/.test(trimmed));
  if (
    /^(?:arn:|\d{4}-\d\d-\d\d)/.test(trimmed) ||
    (last.endsWith("token") &&
      /^(?:page|next|continuation|cursor|sync)$/.test(last === "token" ? (words.pop() ?? "") : last.slice(0, -5)))
  )
    return false;
  return (
    !/\s/.test(trimmed) &&
    (trimmed.length >= 24 ||
      (trimmed.length >= (secretWord.test(last) || last === "key" ? 8 : 16) &&
        /^(?=.*\d)(?=.*[A-Za-z])|.[A-Z].*[a-z]|[a-z].*[A-Z]|[!-,/:-@[-^`{-~]/.test(trimmed)))
  );
}

// A password a command line carries in a flag, as an agent's shell prints it back: `-u`/`--user
// user:password` (curl: gitleaks `curl-auth-user`), `-p` with the password attached (MySQL's and
// MariaDB's clients; `-p shop` prompts, and names a database), `--password` and `--pass`, and after
// a login, `sshpass` or `redis-cli`, `-p`, `-a` or a `.netrc` line's `password` with the password
// after a space (`docker login -p …`; `-p` elsewhere in docker is a port). The command is looked
// for only behind such a flag, at most 128 characters back on its line. And a URL's `user:` with
// what follows it: its password runs to the first `@` a host follows (host characters up to `/`,
// `?`, `#` or the URL's end), so that one holding `@` or `/` (`p@ssw0rd!2024@db…`) is read whole.
// A URL is read once, at most 512 characters of it.
const passwordPattern =
  /\s(?:(?:-u|--user)[ =]?["']?[^\s:"'@]{1,256}:|-p(?=[^\s"'-]{4})|--[\w-]{0,32}(?:pass(?:word)?|token|secret|api-?key|auth)[ =]["']?(?=[^\s"'-])|(?:-[pa]|password)(?<=\b(?:login|sshpass|redis-cli|mongo(?:sh)?|machine)\b[^\n]{0,128})[ =\t]["']?)([^\s"']{1,256})|\w:\/\/[^\s:/@"'<>]{0,256}:([^\s"'<>]{1,512})/dg;

// What follows a flag that may carry a password (`-p`, `-u`, `-a`, `--user`, `--pass`, `--password`)
// on any command line or a `.netrc` line's `password`, and a URL's `user:` up to its last `@`.
const afterFlag =
  /\s(?:-[pua]|--(?:user|[\w-]{0,32}(?:pass(?:word)?|token|secret|key|auth))|password)[ =]?["']?([^\s"']{1,256})|\w:\/\/[^\s:/@"'<>]{0,256}:([^\s"'<>]{1,256})@/dg;

/**
 * `passwordSpans` for a digest (a summary, a marker, an excerpt), which may leave out a port or a
 * word more: whatever follows a flag that may carry a password on any line, and a URL's password
 * up to its last `@`.
 *
 * @param text - the text, JSON escapes read as spaces
 * @param spans - where the spans go, flattened
 */
export function likelyPasswordSpans(text: string, spans: number[]): void {
  for (const match of text.matchAll(afterFlag)) spans.push(...(match.indices?.[match[1] === undefined ? 2 : 1] ?? []));
}

/**
 * Pushes the passwords of command lines and URLs.
 *
 * @param text - the text, JSON escapes read as spaces
 * @param spans - where the spans go, flattened
 */
export function passwordSpans(text: string, spans: number[]): void {
  for (const match of text.matchAll(passwordPattern)) {
    const [start = 0, end = 0] = match.indices?.[match[1] === undefined ? 2 : 1] ?? [];
    const length =
      match[1] === undefined ? (match[2] as string).search(/.@[\w.:[\]-]{1,256}(?![^/?#\s"'<>])/) + 1 : end - start;
    if (length > 0) spans.push(start, start + length);
  }
}

/** What finds one kind of secret in a text (its JSON escapes read as spaces), pushing its spans. */
export type SpanReader = (text: string, spans: number[]) => void;

/**
 * The spans `readers` find in `original`, sorted, disjoint and flattened. `original` is read with
 * each JSON escape that stands for a separator as spaces (see `escapesAsSpaces`).
 *
 * @param original - any text
 * @param readers - what finds each kind of secret
 * @returns the spans, flattened
 */
export function spansBy(original: string, readers: readonly SpanReader[]): number[] {
  const spans: number[] = [];
  const text = escapesAsSpaces(original);
  for (const read of readers) read(text, spans);
  return merged(spans);
}

/** Pushes the values of the settings `isSecretSetting` judges secrets. */
const judgedSettingSpans: SpanReader = (text, spans) => settingSpans(text, spans, isSecretSetting);

/**
 * Where the secrets of `text` stand, as recall and the inspect page read them, as sorted, disjoint
 * `[start, end)` pairs, flattened (`[start0, end0, start1, end1, …]`). Linear in the length of `text`.
 *
 * @param original - any text
 * @returns the spans, flattened
 */
export function secretSpans(original: string): number[] {
  return spansBy(original, [tokenSpans, credentialSpans, judgedSettingSpans, passwordSpans]);
}

/**
 * Where the secrets of `text` stand, as the model-free summary reads them: as `secretSpans` does,
 * but for command lines and URLs, read as a digest may read them (`likelyPasswordSpans`): a summary
 * is made of ids and named values, which keep their place, and seldom of a port after `ssh -p`.
 *
 * @param original - any text
 * @returns the spans, flattened
 */
export function summarySecretSpans(original: string): number[] {
  return spansBy(original, [tokenSpans, credentialSpans, judgedSettingSpans, likelyPasswordSpans]);
}

/**
 * `text` with its secrets replaced by `[redacted]`, as the model-free summary reads them (see
 * `summarySecretSpans`).
 *
 * @param text - any text
 * @returns the text, each secret replaced
 */
export function redactSummarySecrets(text: string): string {
  return replaced(text, summarySecretSpans(text));
}

/**
 * `secretTest` as the model-free summary reads secrets (see `summarySecretSpans`).
 *
 * @param text - the text the positions are in
 * @returns `(start, end) => boolean`
 */
export function summarySecretTest(text: string): (start: number, end: number) => boolean {
  return spanTest(summarySecretSpans(text));
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
export function merged(spans: number[]): number[] {
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
  return replaced(text, secretSpans(text));
}

/**
 * `text` with each of `spans` replaced by `[redacted]`.
 *
 * @param text - any text
 * @param spans - sorted, disjoint `[start, end)` pairs of `text`, flattened
 * @returns the text, each span replaced
 */
export function replaced(text: string, spans: readonly number[]): string {
  let result = "";
  let copied = 0;
  for (let index = 0; index < spans.length; index += 2) {
    result += text.slice(copied, spans[index]) + REDACTED;
    copied = spans[index + 1] as number;
  }
  return result + text.slice(copied);
}
