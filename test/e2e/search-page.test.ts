/**
 * The search page end to end: `wrangler dev` on the default data, driven in headless Chromium
 * (Debian's, at /usr/bin/chromium, through playwright-core). Saves screenshots to test-results/.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDevServer, type DevServer } from "../../scripts/lib/dev-server.ts";
import { Progress } from "../../scripts/lib/progress.ts";
import { runImport } from "../../scripts/lib/run-import.ts";
import { ROOT } from "../../scripts/lib/project.ts";

const PORT = 8789;
const SHOTS = join(ROOT, "test-results");

let server: DevServer | undefined;
let browser: Browser | undefined;
let page: Page;

beforeAll(async () => {
  await runImport({ target: { kind: "local" } }, new Progress(process.stderr, true));
  server = await startDevServer({ port: PORT });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  mkdirSync(SHOTS, { recursive: true });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

const results = () => page.locator("#results li");

describe("the search page", () => {
  it("searches cities as you type, with map links", async () => {
    await page.goto(`${server?.base ?? ""}/`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Venue & City Search");
    await page.getByLabel("Cities", { exact: true }).check();
    await page.getByLabel("Name", { exact: true }).fill("paris");
    await page.waitForFunction(() => document.querySelectorAll("#results li").length > 0);
    expect(await results().first().textContent()).toContain("Paris");
    expect(await page.locator("#status").textContent()).toMatch(/cities found/);
    expect(await results().first().locator("a").getAttribute("href")).toMatch(
      /^https:\/\/www\.openstreetmap\.org\/\?mlat=48\.85/,
    );
  });

  it("filters and pages venues", async () => {
    await page.getByLabel("Venues", { exact: true }).check();
    await page.getByLabel("Name", { exact: true }).fill("arena");
    await page.getByLabel("Country", { exact: true }).fill("US");
    await page.waitForFunction(() => /venues found/.test(document.querySelector("#status")?.textContent ?? ""));
    const first = await results().allTextContents();
    expect(first.length).toBe(30);
    expect(await page.locator("#pageinfo").textContent()).toMatch(/^Page 1 of \d+/);
    await page.getByRole("button", { name: "Next →" }).click();
    await page.waitForFunction(() => /^Page 2 /.test(document.querySelector("#pageinfo")?.textContent ?? ""));
    await page.waitForFunction((previous) => document.querySelector("#results li")?.textContent !== previous, first[0]);
    expect(await page.getByRole("button", { name: "← Previous" }).isEnabled()).toBe(true);
    expect(await page.locator("#curl").textContent()).toMatch(/\/1\.0\/search\/venues\?name=arena&country=US&p=2'$/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, "search-page.png"), fullPage: false });
  });

  it("shows the raw XML and JSON, and the matching curl command", async () => {
    await page.getByLabel("Show", { exact: true }).selectOption("xml");
    await page.waitForFunction(() => (document.querySelector("#raw")?.textContent ?? "").startsWith("<?xml"));
    expect(await page.locator("#raw").isVisible()).toBe(true);
    expect(await page.locator("#curl").textContent()).toContain("-H 'Accept: application/xml'");
    await page.getByLabel("Show", { exact: true }).selectOption("json");
    await page.waitForFunction(() => (document.querySelector("#raw")?.textContent ?? "").startsWith("{\n"));
    expect(JSON.parse((await page.locator("#raw").textContent()) ?? "")).toMatchObject({ type: "venues", page: 2 });
    await page.getByLabel("Show", { exact: true }).selectOption("list");
  });

  it("shows names in the language chosen", async () => {
    await page.getByLabel("Cities", { exact: true }).check();
    await page.getByLabel("Country", { exact: true }).fill("");
    await page.getByLabel("Names in", { exact: true }).selectOption("de");
    await page.getByLabel("Name", { exact: true }).fill("munich");
    await page.waitForFunction(() => (document.querySelector("#results li")?.textContent ?? "").startsWith("München"));
    expect(await page.locator("#curl").textContent()).toContain("-H 'Accept-Language: de'");
  });

  it("fits a phone screen", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel("Names in", { exact: true }).selectOption("en");
    await page.getByLabel("Name", { exact: true }).fill("wien");
    await page.waitForFunction(() => (document.querySelector("#results li")?.textContent ?? "").startsWith("Vienna"));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, "search-page-phone.png"), fullPage: false });
  });
});
