// Tokens known by their shape. Most API keys and tokens are a short prefix that ends in `_`, `-` or
// `~` (`sk-`, `ghp_`, `glpat-`, `r8_`, `pypi-`, `lin_api_`, `sntrys_`, `glsa_`, `sb_secret_`, …:
// gitleaks' and trufflehog's rules for them differ in the prefix, hardly in the body), then a body
// of generated characters. Those are read by one rule, not a list: a prefix of a letter and up to
// 11 letters or digits, up to two short segments more (`sk-ant-api03-`, `dckr_pat_`), then a body
// of at least 16 letters, digits or `+` that holds a digit and a letter, and a capital or 32
// characters or more, as generated text does. So a format no rule lists yet is read too, and a name
// of words (`npm_package_version`, `hf_hub_download`, `xai-report-2024-05-01`) or a short id in lower
// case is not. The ids that APIs and agents write in the same shape, which hold no secret and which
// an agent reads back, are left: tool calls and their results (`call_`, `toolu_`, `fc_`, `ctc_`,
// `ws_`), messages, requests and responses (`msg_`, `req_`, `resp_`, `rs_`, `cmp_`, Claude Code's
// `agent_`), OpenAI's organizations, projects and files, Stripe's objects (`pi_`, `ch_`, `cus_`,
// `evt_`, `sub_`, `in_`, `acct_`, `pm_`) and publishable keys (`pk_`), GitHub's node ids (`PR_kwDO…`)
// and integrity hashes (`sha512-…`). The formats whose prefix ends in a dot, whose body
// may be of one case, or that have no prefix of that shape, are rows of their own, each beside its
// rule. On the 73 MB of real sessions and transcripts of the test bed, the rule and the rows read
// 13 spans, all of them two ids of 32 hexadecimal digits.
//
// Each pattern is literals and bounded classes, and a token found is skipped whole (the next
// search starts at its end), so each character is read a bounded number of times, however long
// the run (`sk-sk-sk-…`). A body is read up to 1,024 characters, and a longer token followed to its
// end by a pattern that never backtracks: the engine keeps one backtracking entry per character of
// a bounded run, and overflows its stack on a run of megabytes.

const prefixed = /\b[A-Za-z][A-Za-z0-9]{0,11}[_.~-](?:[A-Za-z0-9]{1,8}[_.-]){0,2}([A-Za-z0-9+]{16,1024})/g;
// What `prefixed` reads that is no token: the ids above, and a prefix that ends in a dot (a module's
// or an object's name: `source.recipeFileSha256`).
const notToken =
  /^(?:(?:call|toolu|msg|req|resp|rs|fc|ctc|ws|cmp|agent|org|proj|file|pi|ch|cus|evt|sub|in|acct|pm|pk)[_-]|[A-Z]{1,5}_kw|sha\d+-|[A-Za-z][A-Za-z0-9]{0,11}\.)/;

/** The formats that `prefixed` does not read, each by the rule it follows; made into one pattern on first use. */
const shapes = [
  // AWS: gitleaks `aws-access-token`.
  "A(?:KIA|SIA|BIA|CCA|3T[A-Z0-9])[A-Z0-9]{16}",
  // Databricks: gitleaks `databricks-api-token`; Twilio: gitleaks `twilio-api-key` (`SK` and 32).
  "(?:dapi|SK)[a-fA-F0-9]{32}(?!\\w)",
  // Slack webhooks: gitleaks `slack-web-hook` (and its workflow and trigger URLs); Microsoft Teams:
  // gitleaks `microsoft-teams-webhook`. The path is the secret, and the host stays.
  "hooks\\.slack\\.com/\\w+/([A-Za-z0-9+/]{40})",
  "webhookb2/([A-Za-z0-9@/-]{60})",
];
/**
 * The formats that the summary and recall read precisely, where a marker's reading takes them for a
 * prefix's body or a long run of generated characters (`longRun`) and takes more with them.
 */
const preciseShapes = [
  // Prefixes whose body may be of one case or too short for the rule above: OpenAI, Anthropic and
  // Stripe keys, GitHub's, GitLab's, Hugging Face's and npm's tokens, webhook signing secrets, and
  // xAI's (gitleaks `openai-api-key`, `anthropic-api-key`, `stripe-access-token`, `github-pat`,
  // `github-fine-grained-pat`, `gitlab-pat`, `huggingface-access-token`, `npm-access-token`,
  // trufflehog `xai`).
  "(?:[sr]k[-_]|gh[pousr]_|github_pat_|glpat-|hf_|npm_|whsec_|xai-)[A-Za-z0-9]{16}",
  // Prefixes that end in a dot: Google OAuth access tokens (trufflehog `googleoauth2`), HashiCorp Vault
  // (gitleaks `vault-service-token`, `vault-batch-token`: `vault login` prints one under `token`),
  // SendGrid (`sendgrid-api-token`), Terraform Cloud (`hashicorp-tf-api-token`, its 14 characters before
  // `.atlasv1.` an id), Doppler (`doppler-api-token`, and its other kinds in trufflehog `doppler`),
  // Dynatrace (`dynatrace-api-token`).
  "(?:ya29|hv[sb]|SG|atlasv1|dp\\.[a-z]{2}|dt0c01)\\.[\\w-]{16}",
  // Google API keys: gitleaks `gcp-api-key`; Atlassian: trufflehog `atlassian`; Amazon Bedrock: gitleaks
  // `aws-amazon-bedrock-api-key-long-lived`; Artifactory: gitleaks `artifactory-api-key`,
  // `artifactory-reference-token`; Facebook and Square: gitleaks `facebook-page-access-token`,
  // `square-access-token`; EasyPost: gitleaks `easypost-api-token`, `easypost-test-api-token`;
  // Alibaba Cloud: gitleaks `alibaba-access-key-id`; Slack: gitleaks `slack-bot-token`,
  // `slack-user-token`, `slack-legacy-workspace-token`, `slack-app-token` (runs of digits and
  // capitals between dashes); 1Password: gitleaks `1password-secret-key`; age: gitleaks `age-secret-key`;
  // Postman: gitleaks `postman-api-token` (two runs of hexadecimal digits).
  "(?:AIza|ATATT3|ABSK|AKCp|cmVmd|EAA[ACM]|EZ[AT]K|LTAI|xox[abposre]-|xapp-|A3-|AGE-SECRET-KEY-1|PMAK-)[\\w-]{20}",
  // JSON Web Tokens: gitleaks `jwt` (the third part is read on as the token's rest).
  "eyJ[\\w-]{10,1024}\\.[\\w-]{10}",
  // Telegram bots: gitleaks `telegram-bot-api-token` (the bot's number, `:A`, 34 more); Discord bots:
  // trufflehog `discordbottoken` (three parts, the first of 24 to 26 after `M`, `N` or `O`).
  "\\d{5,16}:A[\\w-]{34}",
  "[MNO][\\w-]{23,25}\\.[\\w-]{6}\\.[\\w-]{27}",
  // Azure AD client secrets: gitleaks `azure-ad-client-secret` (three characters, a digit, `Q~`, 31 to 34 more).
  "[\\w~.]{3}\\dQ~[\\w~.-]{31}",
];
// A run of 32 characters or more: a marker leaves it out when it mixes a digit with letters of both
// cases, whatever its format (a token of no rule here, the key of a query string). A slash ends it,
// so that a path or a URL (`/Users/Alice/Projects/MyApp2/src/index.ts`) is named as it was.
const longRun = /\b[\w+=-]{32,1024}/g;
let shapePattern: RegExp | undefined;
let precisePattern: RegExp | undefined;

// What follows a token, as far as it goes, once its pattern stopped at its bound.
const rest = /[\w+/=.-]*/y;

/** Pushes the spans of the tokens `patterns` find, those of `prefixed` and `longRun` as `isToken` judges their bodies. */
function spansOf(
  text: string,
  spans: number[],
  patterns: RegExp[],
  isToken: (whole: string, body: string) => boolean,
): void {
  for (const pattern of patterns) {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      const [whole, group = whole] = match;
      rest.lastIndex = match.index + whole.length;
      rest.test(text);
      pattern.lastIndex = rest.lastIndex;
      const judged = pattern === prefixed || pattern === longRun;
      if (judged && !isToken(whole, group)) continue;
      spans.push(match.index + whole.length - (judged ? whole : group).length, rest.lastIndex);
    }
  }
}

const patternOf = (sources: string[]): RegExp => new RegExp(`\\b(?:${sources.join("|")})`, "g");

/**
 * Pushes `[start, end)` of each token `text` holds (all of it, or a row's group), flattened: a
 * prefix's body holds a digit and a letter, and a capital or 32 characters or more.
 *
 * @param text - the text, JSON escapes read as spaces
 * @param spans - where the spans go
 */
export function tokenSpans(text: string, spans: number[]): void {
  spansOf(
    text,
    spans,
    [prefixed, (shapePattern ??= patternOf(shapes)), (precisePattern ??= patternOf(preciseShapes))],
    (whole, body) =>
      !notToken.test(whole) && /\d/.test(body) && /[a-z]/i.test(body) && (body.length >= 32 || /[A-Z]/.test(body)),
  );
}

/**
 * `tokenSpans` for what may only leave a token out (a marker's list, an error's excerpt): a
 * prefix's body need only hold a digit and a letter, the ids and names of that shape are
 * taken too, and so is any run of 32 characters or more that mixes a digit with letters of both
 * cases, in place of the rows only the summary and recall read.
 *
 * @param text - the text, JSON escapes read as spaces
 * @param spans - where the spans go
 */
export function likelyTokenSpans(text: string, spans: number[]): void {
  spansOf(
    text,
    spans,
    [prefixed, (shapePattern ??= patternOf(shapes)), longRun],
    (whole, body) =>
      /\d/.test(body) && (whole !== body ? /[a-z]/i.test(body) : /[a-z]/.test(body) && /[A-Z]/.test(body)),
  );
}
