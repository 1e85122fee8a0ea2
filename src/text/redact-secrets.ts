// Secrets that a summary made without a model must not copy: API keys and tokens by their
// well-known prefixes, bearer tokens, passwords in URLs and in `password=`-style settings, and
// card numbers that pass the Luhn check. Every pattern here is a literal prefix followed by a
// single character class, or a bounded repetition, so no input makes one backtrack: the cost
// stays linear in the text's length.

/** What stands in for a secret. */
export const REDACTED = "[redacted]";

const keyPatterns: RegExp[] = [
  // OpenAI and Anthropic (`sk-…`, `sk-proj-…`, `sk-ant-…`), Stripe (`sk_live_…`, `rk_live_…`).
  /\b(?:sk|rk)[-_][A-Za-z0-9_-]{16,}/g,
  // AWS access key ids.
  /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g,
  // GitHub tokens.
  /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g,
  // Slack tokens.
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  // Google API keys.
  /\bAIza[A-Za-z0-9_-]{30,}/g,
  // JSON Web Tokens.
  /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g,
];

// `Bearer <token>` and `Basic <credentials>`, as written in an Authorization header.
const authorization = /\b(Bearer|Basic|Token)[ \t]{1,8}[A-Za-z0-9._~+/=-]{12,}/gi;
// The password of `scheme://user:password@host`.
const urlPassword = /(\b[A-Za-z][A-Za-z0-9+.-]{0,20}:\/\/[^\s:/@"'<>]{0,256}:)[^\s@/"'<>]{1,256}@/g;
// `password=…`, `"api_key": "…"`, `secret: …`: the value after a secret-sounding name.
const namedSecret =
  /\b((?:pass(?:word|wd|phrase)?|pwd|secret|client[_-]?secret|api[_-]?key|access[_-]?key|private[_-]?key|auth[_-]?token|access[_-]?token|refresh[_-]?token|token)["']?[ \t]{0,8}[:=][ \t]{0,8}["']?)([^\s"',;&}]{1,512})/gi;
// 13 to 19 digits, optionally grouped by single spaces or dashes: checked by Luhn before redacting.
const cardCandidate = /\b\d(?:[ -]?\d){12,18}\b/g;

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

/** Argument names whose values are secrets, whatever they look like. */
export function isSecretName(name: string): boolean {
  return /^(?:pass(?:word|wd|phrase)?|pwd|secret|client[_-]?secret|api[_-]?key|apikey|access[_-]?key|private[_-]?key|auth(?:orization)?|auth[_-]?token|access[_-]?token|refresh[_-]?token|token|credentials?|cvv|cvc)$/i.test(
    name.length > 40 ? "" : name,
  );
}

/**
 * `text` with the secrets it shows replaced by `[redacted]`: API keys and tokens (`sk-…`, `AKIA…`,
 * `ghp_…`, `xox…-`, `AIza…`, JWTs), bearer and basic credentials, passwords in URLs, values of
 * `password`/`secret`/`token`/`api_key` settings, and card numbers (Luhn-checked). Linear in the
 * length of `text`.
 *
 * @param text - any text
 * @returns the text, with each secret replaced
 */
export function redactSecrets(text: string): string {
  let result = text;
  for (const pattern of keyPatterns) result = result.replace(pattern, REDACTED);
  result = result.replace(authorization, (_match, scheme: string) => `${scheme} ${REDACTED}`);
  result = result.replace(urlPassword, (_match, before: string) => `${before}${REDACTED}@`);
  result = result.replace(namedSecret, (match, name: string, value: string) => (value === REDACTED ? match : `${name}${REDACTED}`));
  result = result.replace(cardCandidate, (match) => {
    const digits = match.replace(/[ -]/g, "");
    return digits.length >= 13 && digits.length <= 19 && passesLuhn(digits) ? REDACTED : match;
  });
  return result;
}
