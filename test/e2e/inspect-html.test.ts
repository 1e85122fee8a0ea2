// `inspect --html`: the report of a shipped transcript opened in headless Chromium (Debian's, driven
// by playwright-core): the timeline, the plan's parts and a message's detail are shown, the page
// asks for nothing over the network, and markup in a message stays text. The screenshot is kept in
// .vitest/inspect-report.png.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumHint, chromiumPath } from "../support/chromium-path.mjs";

const executablePath = chromiumPath();
if (executablePath === undefined) {
  // In CI a missing browser is a failure, never a skip.
  if (process.env["CI"]) throw new Error(`Chromium is missing: ${chromiumHint}`);
  console.log(`Skipping the HTML report tests: Chromium is missing; ${chromiumHint}.`);
}

const root = new URL("../../", import.meta.url).pathname;
const cli = join(root, "dist/cli.js");
const transcript = join(root, "test/fixtures/transcripts/moatless/django__django-12284.json");
const dir = mkdtempSync(join(tmpdir(), "inspect-html-"));

function inspect(...args: string[]) {
  const result = spawnSync(process.execPath, [cli, "inspect", ...args, "--json"], { encoding: "utf8" });
  expect(result.stderr).toBe("");
  return JSON.parse(result.stdout) as {
    messages: number;
    plan: { older: { messages: number }; tail: { messages: number } };
  };
}

describe.skipIf(executablePath === undefined)("inspect --html in a browser", () => {
  let browser: Browser;
  let page: Page;
  const requests: string[] = [];
  const errors: string[] = [];

  async function open(file: string) {
    requests.length = 0;
    errors.length = 0;
    await page.goto(`file://${file}`);
  }

  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: executablePath!,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
    });
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    page.on("request", (request) => requests.push(request.url()));
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => void (message.type() === "error" && errors.push(message.text())));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it("shows the timeline, the plan's parts and a message on click, with nothing fetched", {
    timeout: 60_000,
  }, async () => {
    const html = join(dir, "report.html");
    const report = inspect(transcript, "--max-tokens", "12000", "--mask", "--html", html);
    await open(html);
    // One block per message, coloured by what the plan does with it.
    const blocks = page.locator("#timeline .block");
    expect(await blocks.count()).toBe(report.messages);
    const fates = await blocks.evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).dataset["fate"]));
    expect(fates.filter((fate) => fate === "summarized")).toHaveLength(report.plan.older.messages);
    expect(fates.filter((fate) => fate === "masked").length).toBeGreaterThan(0);
    expect(fates[0]).toBe("head");
    expect(await page.locator("#timeline .budget").textContent()).toBe("budget 12,000");
    expect(await page.locator("#legend").textContent()).toMatch(/summarized \(44\).*masked \(\d+\)/);
    // The plan's parts, as the text report gives them.
    expect(await page.locator("#parts").textContent()).toContain(`older (summarized)${report.plan.older.messages}`);
    expect(await page.locator("#room").textContent()).toContain("the head (system prompt) takes");

    // A summarized message on click: its facts and its JSON.
    const messages = JSON.parse(readFileSync(transcript, "utf8")) as { content: string }[];
    await blocks.nth(2).click();
    expect(await page.locator("#detail .facts").textContent()).toMatch(/^assistant · summarized · \d+ tokens$/);
    expect(await page.locator("#detail .message-json").textContent()).toBe(JSON.stringify(messages[2], null, 2));
    expect(await page.locator("#messages tr.selected td").first().textContent()).toBe("2");
    // A masked one: what is sent instead.
    await page.locator('#timeline .block[data-fate="masked"]').first().click();
    expect(await page.locator("#detail .facts").textContent()).toMatch(/· masked · [\d,]+ tokens → [\d,]+ as sent$/);
    expect(await page.locator("#detail .message-after").count()).toBe(1);

    await blocks.nth(2).click();
    mkdirSync(join(root, ".vitest"), { recursive: true });
    await page.screenshot({ path: join(root, ".vitest/inspect-report.png") });
    expect(errors).toEqual([]);
    expect(requests.every((url) => url.startsWith("file://"))).toBe(true);
  });

  it("keeps markup in a message as text, and shows tool-pair problems", { timeout: 60_000 }, async () => {
    const hostile = [
      { role: "user", content: '</script><script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">' },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_<b>1</b>", type: "function", function: { name: "f", arguments: "{}" } }],
      },
      { role: "user", content: "\u2028next\u2029 <!-- comment" },
    ];
    const file = join(dir, "hostile.json");
    writeFileSync(file, JSON.stringify(hostile));
    const html = join(dir, "hostile.html");
    spawnSync(process.execPath, [cli, "inspect", file, "--html", html], { encoding: "utf8" });
    await open(html);
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.locator("#timeline .block").count()).toBe(3);
    expect(await page.locator("#problems").textContent()).toContain("message 1: missing-result for call call_<b>1</b>");
    await page.locator("#timeline .block").first().click();
    expect(await page.locator("#detail .message-json").textContent()).toContain("<img src=x onerror=");
    expect(await page.locator("#plan-line").textContent()).toContain("No budget given");
    expect(errors).toEqual([]);
    expect(requests.every((url) => url.startsWith("file://"))).toBe(true);
  });
});
