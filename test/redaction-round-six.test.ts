// Round six of redaction: the formats an agent's shell and config reads print every day, which came
// back whole from recall (each beside the rule of gitleaks or trufflehog it follows, in
// src/text/secret-formats.ts and src/text/redact-secrets.ts), and the ordinary facts beside a
// secret-sounding name that redaction must leave as they are.
import { describe, expect, it } from "vitest";
import { extractiveSummary, memoryStore, statefulCompactor } from "../src/index.js";
import { isSecretSetting, redactSecrets } from "../src/text/redact-secrets.js";
import { redactLikelySecrets } from "../src/text/likely-secrets.js";
import { builders } from "./support/builders.js";

const { user, assistant, toolCall, toolResult } = builders["openai-chat"];

/** Made-up characters of a given class, as a generated token holds them. */
const alnum = (length: number, seed = 3): string => {
  const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  let out = "";
  for (let index = 0; index < length; index++)
    out += chars[(index * 37 + seed * 11 + ((index * index) % 7)) % chars.length];
  return out;
};
const hex = (length: number, seed = 5): string =>
  Array.from({ length }, (_, index) => "0123456789abcdef"[(index * 7 + seed) % 16]).join("");

/** Each text as a shell or a config file prints it, and the secret in it that no recall may return. */
export const roundSix: [string, string, string][] = [
  [
    "a PGP private key block",
    `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBGXk${alnum(60)}\n=${alnum(4)}\n-----END PGP PRIVATE KEY BLOCK-----`,
    `lQOYBGXk${alnum(60)}`,
  ],
  [
    "a PuTTY private key",
    `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAI${alnum(20)}\nPrivate-Lines: 1\nAAAAIH${alnum(40, 7)}\nPrivate-MAC: ${hex(64)}`,
    `AAAAIH${alnum(40, 7)}`,
  ],
  ["PGPASSWORD", "PGPASSWORD=Xq7pL2mN9vB4 psql -h db.internal -U app", "Xq7pL2mN9vB4"],
  ["mysql -p", "mysql -u root -pS3cr3tPassw0rd shop -e 'select 1'", "S3cr3tPassw0rd"],
  ["curl -u", "curl -u admin:Sup3rS3cret https://api.example.com/v1/users", "Sup3rS3cret"],
  ["docker login -p", `docker login -u deploy -p dckr_pat_${alnum(27)} registry.example.com`, `dckr_pat_${alnum(27)}`],
  [
    "a database URL whose password holds @",
    "DATABASE_URL=postgres://app:p@ssw0rd!2024@db.internal:5432/shop",
    "ssw0rd!2024",
  ],
  ["a database URL whose password holds /", "connect to postgres://app:pa/ss9wd@db.internal:5432/shop now", "ss9wd"],
  [
    "vault login output",
    `Key                  Value\n---                  -----\ntoken                hvs.CAESI${alnum(90)}\ntoken_duration       768h`,
    `hvs.CAESI${alnum(90)}`,
  ],
  ["a Slack app-level token", `SLACK_APP=xapp-1-A0${alnum(9).toUpperCase()}-${"4".repeat(13)}-${hex(64)}`, hex(64)],
  [
    "an Azure SAS signature",
    "https://acct.blob.core.windows.net/c/b.txt?sv=2022-11-02&ss=b&srt=sco&sp=rl&se=2026-01-01T00:00:00Z&sig=Zm9vYmFyYmF6%2Bqux%2FAb12Cd34Ef56Gh78%3D",
    "Zm9vYmFyYmF6%2Bqux",
  ],
  ["an .npmrc auth token", `//registry.npmjs.org/:_authToken=${alnum(36, 9)}`, alnum(36, 9)],
  ["an .npmrc basic auth", "_auth=ZGVwbG95OlN1cDNyUzNjcmV0IQ==", "ZGVwbG95OlN1cDNyUzNjcmV0IQ=="],
  ["a session cookie", `Set-Cookie: session=${alnum(40, 2)}; Path=/; HttpOnly; Secure`, alnum(40, 2)],
  ["a Supabase secret key", `SUPABASE_KEY=sb_secret_${alnum(32, 4)}`, alnum(32, 4)],
  ["a Linear key", `lin_api_${alnum(40, 6)}`, alnum(40, 6)],
  ["a Sentry organization token", `sntrys_eyJpYXQiOjE2ODc${alnum(80, 8)}_${alnum(43, 9)}`, alnum(80, 8)],
  ["a Grafana service account token", `glsa_${alnum(32, 10)}_${hex(8)}`, alnum(32, 10)],
  [
    "an age secret key",
    `AGE-SECRET-KEY-1${"QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L".repeat(2).slice(0, 58)}`,
    "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L".repeat(2).slice(0, 58),
  ],
  // From round five:
  ["a Replicate token", `REPLICATE_API_TOKEN r8_${alnum(37, 11)}`, alnum(37, 11)],
  ["a PyPI upload token", `pypi-AgEIcHlwaS5vcmc${alnum(70, 12)}`, alnum(70, 12)],
  ["a DigitalOcean token", `dop_v1_${hex(64, 3)}`, hex(64, 3)],
  ["a Shopify access token", `shpat_${hex(32, 7)}`, hex(32, 7)],
  ["a Notion token", `ntn_${"4".repeat(11)}${alnum(35, 13)}`, alnum(35, 13)],
  ["a Postman key", `PMAK-${hex(24, 1)}-${hex(34, 2)}`, hex(34, 2)],
  ["a Prefect key", `pnu_${alnum(36, 14)}`, alnum(36, 14)],
  ["a Databricks token", `dapi${hex(32, 9)}`, hex(32, 9)],
  // Found by attacking the redaction again: formats with no `:` or `=` beside the name, and secrets beside CJK and emoji.
  ["a .netrc line", `machine api.heroku.com login me@example.com password ${alnum(20, 15)}`, alnum(20, 15)],
  ["an XML element", "<password>Hunter2Xyz</password>", "Hunter2Xyz"],
  ["a NuGet config", '<add key="ClearTextPassword" value="Hunter2Xyz!" />', "Hunter2Xyz!"],
  ["a key after CJK", `密钥：sk-proj-${alnum(40, 16)}`, alnum(40, 16)],
  ["a password after an emoji", "🔑password=Hunter2Xyz!", "Hunter2Xyz!"],
  ["a password of CJK and emoji", "password: 秘密の合言葉🔥123", "秘密の合言葉🔥123"],
  ["PGPASSWORD among Japanese", "環境変数 PGPASSWORD=Zx9mN2pQ7 を設定", "Zx9mN2pQ7"],
  ["a MongoDB URL with an escaped @ and a /", "mongodb+srv://admin:P%40ss/w0rd@cluster0.mongodb.net/db", "P%40ss/w0rd"],
];

describe("no format of round six leaves by redaction", () => {
  it.each(roundSix)("%s", (_, text, secret) => {
    const redacted = redactSecrets(text);
    expect(redacted).not.toContain(secret);
    expect(redacted).toContain("[redacted]");
  });

  it.each(roundSix)("%s, as JSON in a tool result", (_, text, secret) => {
    expect(redactSecrets(JSON.stringify({ output: text }))).not.toContain(secret);
  });

  it("a database URL keeps its host, and a password without @ as before", () => {
    expect(redactSecrets("postgres://app:p@ssw0rd!2024@db.internal:5432/shop")).toBe(
      "postgres://app:[redacted]@db.internal:5432/shop",
    );
    expect(redactSecrets("https://u:hunter2@example.com/x?mail=a@b.com")).toBe(
      "https://u:[redacted]@example.com/x?mail=a@b.com",
    );
  });

  // Built from the outside: one token of each format the rules of gitleaks (`config/gitleaks.toml`)
  // and trufflehog describe, its body as long as the rule asks at least, made of the characters the
  // rule allows. Most are read by the one rule for a prefix and a generated body, not a list.
  const mixed = (length: number, seed?: number) => alnum(length, seed).replace(/^(.)(.)(.)/, "$1" + "7Q");
  const hexBody = (length: number) => hex(length);
  const tokens: [string, string][] = [
    ["gitleaks 1password-service-account-token", `ops_eyJ${mixed(100)}`],
    ["gitleaks adobe-client-secret", `p8e-${mixed(32)}`],
    ["gitleaks age-secret-key", `AGE-SECRET-KEY-1${"QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L".repeat(2).slice(0, 58)}`],
    ["gitleaks 1password-secret-key", "A3-ASWWYB-798JRYLJVD-E2JGB-XR6WE-SHWXR"],
    ["gitleaks alibaba-access-key-id", `LTAI${mixed(20)}`],
    ["gitleaks artifactory-api-key", `AKCp${mixed(69)}`],
    ["gitleaks artifactory-reference-token", `cmVmd${mixed(59)}`],
    ["gitleaks aws-amazon-bedrock-api-key-long-lived", `ABSK${mixed(109)}`],
    ["gitleaks aws-amazon-bedrock-api-key-short-lived", `bedrock-api-key-${mixed(40)}`],
    ["gitleaks aws-access-token", "AKIAIOSFODNN7EXAMPLE"],
    ["gitleaks azure-ad-client-secret", `abc8Q~${mixed(34)}`],
    ["gitleaks clojars-api-token", `CLOJARS_${mixed(60)}`],
    ["gitleaks databricks-api-token", `dapi${hexBody(32)}`],
    ["gitleaks digitalocean-pat", `dop_v1_${hexBody(64)}`],
    ["gitleaks digitalocean-access-token", `doo_v1_${hexBody(64)}`],
    ["trufflehog dockerhub", `dckr_pat_${mixed(27)}`],
    ["gitleaks doppler-api-token", `dp.pt.${mixed(43)}`],
    ["gitleaks duffel-api-token", `duffel_live_${mixed(43)}`],
    ["gitleaks dynatrace-api-token", `dt0c01.${mixed(24)}.${mixed(64)}`],
    ["gitleaks easypost-api-token", `EZAK${mixed(54)}`],
    ["gitleaks facebook-page-access-token", `EAAM${mixed(100)}`],
    ["gitleaks flyio-access-token", `fo1_${mixed(43)}`],
    ["gitleaks frameio-api-token", `fio-u-${mixed(64)}`],
    ["gitleaks gcp-api-key", `AIza${mixed(35)}`],
    ["gitleaks github-pat", `ghp_${mixed(36)}`],
    ["gitleaks github-fine-grained-pat", `github_pat_${mixed(22)}_${mixed(59)}`],
    ["gitleaks gitlab-pat", `glpat-${mixed(20)}`],
    ["gitleaks gitlab-runner-authentication-token", `glrt-${mixed(20)}`],
    ["gitleaks gitlab-deploy-token", `gldt-${mixed(20)}`],
    ["gitleaks gitlab-ptt", `glptt-${hexBody(40)}`],
    ["gitleaks grafana-cloud-api-token", `glc_${mixed(32)}`],
    ["gitleaks grafana-service-account-token", `glsa_${mixed(32)}_${hexBody(8)}`],
    ["gitleaks hashicorp-tf-api-token", `${mixed(14)}.atlasv1.${mixed(64)}`],
    ["gitleaks heroku-api-key-v2", `HRKU-AA${mixed(58)}`],
    ["gitleaks huggingface-access-token", `hf_${mixed(34)}`],
    ["gitleaks infracost-api-token", `ico-${mixed(32)}`],
    ["gitleaks linear-api-key", `lin_api_${mixed(40)}`],
    ["gitleaks notion-api-token", `ntn_${mixed(46)}`],
    ["gitleaks npm-access-token", `npm_${mixed(36)}`],
    ["gitleaks openshift-user-token", `sha256~${mixed(43)}`],
    ["gitleaks planetscale-api-token", `pscale_tkn_${mixed(43)}`],
    ["gitleaks postman-api-token", `PMAK-${hexBody(24)}-${hexBody(34)}`],
    ["gitleaks prefect-api-token", `pnu_${mixed(36)}`],
    ["gitleaks pulumi-api-token", `pul-${hexBody(40)}`],
    ["gitleaks pypi-upload-token", `pypi-AgEIcHlwaS5vcmc${mixed(70)}`],
    ["gitleaks readme-api-token", `rdme_${mixed(70)}`],
    ["gitleaks rubygems-api-token", `rubygems_${hexBody(48)}`],
    ["gitleaks sendinblue-api-token", `xkeysib-${hexBody(64)}-${mixed(16)}`],
    ["gitleaks sentry-org-token", `sntrys_eyJ${mixed(80)}`],
    ["gitleaks sentry-user-token", `sntryu_${hexBody(64)}`],
    ["gitleaks shopify-access-token", `shpat_${hexBody(32)}`],
    ["gitleaks slack-app-token", `xapp-1-A0${mixed(9).toUpperCase()}-4444444444444-${hexBody(64)}`],
    ["gitleaks slack-bot-token", `xoxb-${"1".repeat(12)}-${"2".repeat(13)}-${mixed(24)}`],
    ["gitleaks sourcegraph-access-token", `sgp_${mixed(40)}`],
    ["gitleaks square-access-token", `sq0atp-${mixed(22)}`],
    ["gitleaks stripe-access-token", `sk_live_${mixed(24)}`],
    ["gitleaks twilio-api-key", `SK${hexBody(32)}`],
    ["gitleaks vault-service-token", `hvs.${mixed(90)}`],
    ["gitleaks vault-batch-token", `hvb.${mixed(90)}`],
    ["trufflehog atlassian", `ATATT3${mixed(60)}`],
    ["trufflehog figmapersonalaccesstoken", `figd_${mixed(40)}`],
    ["trufflehog nvapi", `nvapi-${mixed(64)}`],
    ["trufflehog replicate", `r8_${mixed(37)}`],
    ["trufflehog supabasetoken", `sbp_${hexBody(40)}`],
    ["trufflehog tavily", `tvly-${mixed(32)}`],
    ["trufflehog xai", `xai-${mixed(80)}`],
    ["Supabase secret API keys", `sb_secret_${mixed(32)}`],
  ];
  it.each(tokens)("%s", (_, token) => {
    const redacted = redactSecrets(`key ${token} end`);
    expect(redacted).toContain("[redacted]");
    expect(redacted).not.toContain(token.slice(-12));
  });

  it("none reaches recall_context or the fallback summary", async () => {
    const messages: object[] = [{ role: "system", content: "s" }];
    roundSix.forEach(([name, text], index) =>
      messages.push(
        user(`step ${index}: ${name}`),
        toolCall(`c${index}`, "run", { cmd: "cat" }),
        toolResult(`c${index}`, text),
        assistant("ok"),
      ),
    );
    messages.push(user("go on"));
    const stateful = statefulCompactor({
      maxTokens: 600,
      keepTail: 100,
      summarize: () => "s",
      archive: true,
      conversationId: "shell",
      store: memoryStore(),
    });
    expect(await stateful(messages)).not.toBeNull();
    const recalled = await stateful.recall(`1-${messages.length}`, { maxTokens: 100_000 });
    expect(recalled).toContain("[message");
    const summary = extractiveSummary(messages as never, { maxTokens: 8_000 });
    for (const [, , secret] of roundSix) {
      expect(recalled).not.toContain(secret);
      expect(summary).not.toContain(secret);
    }
  });
});

describe("ordinary facts beside a secret's name stay", () => {
  // Each as an API or a shell prints it: the shape of the value and the name beside it together
  // say it is no secret.
  const nearMisses: string[] = [
    '"PasswordLastUsed": "2024-05-01T10:22:33+00:00"',
    "PasswordLastUsed: 2024-05-01",
    '"ARN": "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf"',
    '"SecretArn": "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf"',
    "arn:aws:secretsmanager:eu-west-1:123456789012:secret:billing/api-x1Y2z3",
    '"nextPageToken": "CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA2MjBpNmRqZWQSEAoOMTcwMzExMjAwMDAwMDA"',
    '"NextToken": "eyJOZXh0VG9rZW4iOiBudWxsLCAiYm90b190cnVuY2F0ZV9hbW91bnQiOiAxfQ=="',
    '"token": "USDC"',
    '"token": "WETH"',
    '"pass": false',
    '"pass": true',
    '"password_policy": "minimum 12 characters"',
    '"token_type": "access_token"',
    '"secretName": "db-credentials"',
    '"SecretId": "prod/db"',
    '"password": null',
    '"api_key": null',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a config line as a shell prints it, a reference and no secret
    "API_KEY=${API_KEY}",
    'password: "********"',
    '"token": "<your-token>"',
    "password: required",
    "token: expired",
    "secret: rotated",
    '"PasswordResetRequired": false',
    '"continuation_token": "MTcwMzExMjAwMDAwMDAtYWJj"',
    "docker run -p 8080:80 nginx",
    "mysql -p shop",
    "curl -u admin https://api.example.com",
    "Set-Cookie: theme=dark; Path=/",
    "the hvs. prefix marks a Vault service token",
    "r8_ prefixes a Replicate token; pypi- a PyPI one",
    "https://example.com/users/@ada and mailto:ada@example.com",
    "ssh git@github.com:org/repo.git",
    // Found by attacking the redaction again:
    '"secret": "my-app-secret-name"',
    '"password_hash_algorithm": "argon2id"',
    "token: 見つかりません",
    '"token": "🚀MOON"',
    "Set-Cookie: lang=en-US; Path=/",
    "ssh -p 2222 host",
    "mysql -P 3306 -h db",
    "docker login registry.example.com",
    "sig=abc",
  ];
  it.each(nearMisses)("%s", (text) => {
    expect(redactSecrets(text)).toBe(text);
  });

  it("a tool call's arguments keep a currency token and a flag in the fallback summary", () => {
    const messages = [
      user("Swap order #W2378156."),
      toolCall("c1", "swap", { order: "#W2378156", token: "USDC", pass: false, password: "hunter2xyzQ" }),
      toolResult("c1", "swapped"),
    ];
    const summary = extractiveSummary(messages, { maxTokens: 4_000 });
    expect(summary).toContain("USDC");
    expect(summary).not.toContain("hunter2xyzQ");
  });

  it("isSecretSetting judges the name and the value together", () => {
    expect(isSecretSetting("token", "USDC")).toBe(false);
    expect(isSecretSetting("token", "tok3n-value-9876")).toBe(true);
    expect(isSecretSetting("password", "dragon")).toBe(true);
    expect(isSecretSetting("PasswordLastUsed", "2024-05-01")).toBe(false);
  });
});

describe("attacked again: formats and facts the first reading missed", () => {
  // An agent's shell and config reads once more, each a format that came back whole (or in part)
  // from recall, the model-free summary or a marker, or an ordinary fact that did not.
  const secrets: [string, string, string][] = [
    // `aws sts get-session-token` prints a session token of 800 characters and more.
    [
      "an AWS session token past 512 characters",
      `{"SessionToken": "IQoJb3JpZ2luX2VjE${alnum(900, 17)}"}`,
      alnum(900, 17).slice(-40),
    ],
    // Command lines take a key after a space as well as after `=` (netlify's `--auth`, the `--api-key`
    // of many a CLI; `--token` and `--access-token` were read, as `Token …` is).
    ["netlify --auth", `netlify deploy --prod --auth ${alnum(43, 20)}`, alnum(43, 20)],
    ["--api-key", `mytool sync --api-key ${alnum(32, 19)} --verbose`, alnum(32, 19)],
    // Telegram: gitleaks `telegram-bot-api-token`; Discord: trufflehog `discordbottoken`.
    ["a Telegram bot token", `TELEGRAM=123456789:AAH${alnum(32, 21)}`, alnum(32, 21)],
    ["a Discord bot token", `bot.run("MTA${alnum(23, 22)}.Gh${alnum(4, 23)}.${alnum(27, 24)}")`, alnum(27, 24)],
    // Django's UserCreationForm posts password1 and password2; Rails' forms password_confirmation.
    ["Django's password2", `password1=${"Hunter2Xyz!"}&password2=${"Hunter2Xyz!"}`, "Hunter2Xyz!"],
    ["Rails' password_confirmation", '{"user": {"password_confirmation": "Tr0ub4dor&3"}}', "Tr0ub4dor&3"],
    ["mongosh -p", "mongosh -u admin -p S3cretMongo7 --authenticationDatabase admin", "S3cretMongo7"],
    [".netrc without a login", `machine ftp.example.com password ${alnum(18, 25)}`, alnum(18, 25)],
  ];
  it.each(secrets)("%s: recall's redaction", (_, text, secret) => {
    expect(redactSecrets(text)).not.toContain(secret);
  });
  it.each(secrets)("%s: a marker's redaction", (_, text, secret) => {
    expect(redactLikelySecrets(text)).not.toContain(secret);
  });
  it.each(secrets)("%s: the model-free summary", (_, text, secret) => {
    const summary = extractiveSummary(
      [
        user(`Deploy order #W2378156 with ${text}`),
        toolCall("c1", "run", { cmd: text }),
        toolResult("c1", `ok: ${text}`),
      ],
      { maxTokens: 8_000 },
    );
    expect(summary).toContain("#W2378156");
    expect(summary).not.toContain(secret);
  });

  // Ids of a token's shape that are public, or that a support agent reads back.
  const facts = [
    // Stripe's publishable key and Supabase's, public by design (they ship in a web page).
    `const stripe = Stripe("pk_live_${alnum(24, 26)}")`,
    `SUPABASE_ANON=sb_publishable_${alnum(24, 27)}`,
  ];
  it.each(facts)("%s stays", (text) => {
    expect(redactSecrets(text)).toBe(text);
  });
});
