/**
 * The search page end to end, in headless Chromium against `wrangler dev` on the default data
 * (test/e2e/global-setup.ts). Saves screenshots to test-results/. The map: search-map.test.ts; on a
 * phone: page-phone.test.ts.
 */
import { join } from "node:path";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { base, errors, launch, leaveName, openPage as open, SHOTS } from "./browser.ts";
import { settled } from "./map-geometry.ts";

/** Paris, for "near me". */
const HERE = { latitude: 48.8566, longitude: 2.3522 };

let browser: Browser;
let page: Page;

const openPage = (options: BrowserContextOptions) => open(browser, options);

beforeAll(async () => {
  browser = await launch();
  page = await open(browser);
});

afterAll(async () => {
  await browser.close();
});

afterEach(() => {
  expect(errors).toEqual([]);
});

const results = () => page.locator("#results li");
const statusText = (p: Page) => p.locator("#status").textContent();

describe("the search page", () => {
  it("searches cities as you type, each result a link to its record", async () => {
    await page.goto(`${base()}/`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Venue & City Search");
    await page.getByLabel("Cities", { exact: true }).check();
    await page.getByLabel("Name", { exact: true }).fill("paris");
    await page.waitForFunction(() => document.querySelectorAll("#results li").length > 0);
    expect(await results().first().textContent()).toContain("Paris");
    expect(await page.locator("#status").textContent()).toMatch(/^[\d,]+ cities named paris/);
    expect(await results().first().locator("a").getAttribute("href")).toMatch(/^\/\?type=cities&id=\d+&name=Paris$/);
  });

  it("filters and pages venues", async () => {
    await page.getByLabel("Venues", { exact: true }).check();
    await page.getByLabel("Name", { exact: true }).fill("arena");
    await page.getByLabel("Country", { exact: true }).fill("US");
    await page.waitForFunction(() =>
      /^[\d,]+ venues named arena in United States/.test(document.querySelector("#status")?.textContent ?? ""),
    );
    const first = await results().allTextContents();
    expect(first.length).toBe(30);
    expect(await page.locator("#pageinfo").textContent()).toMatch(/^Page 1 of \d+/);
    await page.getByRole("button", { name: "Next →" }).click();
    await page.waitForFunction(() => /^Page 2 /.test(document.querySelector("#pageinfo")?.textContent ?? ""));
    await page.waitForFunction((previous) => document.querySelector("#results li")?.textContent !== previous, first[0]);
    expect(await page.getByRole("button", { name: "← Previous" }).isEnabled()).toBe(true);
    expect(await page.locator("#curl").textContent()).toMatch(
      /\/1\.0\/search\/venues\?name=arena&country=US&p=2&matched=1'$/,
    );
    // The README's picture: the results beside their map, framed once every venue is placed.
    await page.waitForFunction(() => / on the map\.$/.test(document.querySelector("#mapinfo")?.textContent ?? ""));
    await settled(page);
    // From the form's last line: the status, the list and the whole map in the picture.
    await page.evaluate(() => window.scrollTo(0, (document.getElementById("status")?.offsetTop ?? 0) - 100));
    await page.screenshot({ path: join(SHOTS, "search-page.png"), fullPage: false });
    await page.evaluate(() => window.scrollTo(0, 0));
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
});

describe("the search page", () => {
  it("forgives typos and offers the corrected name", async () => {
    await page.getByLabel("Names in", { exact: true }).selectOption("en");
    await page.getByLabel("Name", { exact: true }).fill("berln");
    await leaveName(page); // its suggestions would push "did you mean" down
    await page.waitForFunction(() => /forgiving typos/.test(document.querySelector("#status")?.textContent ?? ""));
    expect(await results().first().locator(".name").textContent()).toBe("Berlin");
    const suggestion = page.locator("#suggest");
    expect(await suggestion.isVisible()).toBe(true);
    expect(await suggestion.textContent()).toMatch(/^Did you mean berlin\? Nothing matched “berln” exactly/);
    await page.screenshot({ path: join(SHOTS, "search-page-typo.png"), fullPage: false });

    const exact = page.waitForResponse((r) => r.url().includes("name=berlin") && r.headers()["x-match"] === "exact");
    await page.getByRole("button", { name: "Search for “berlin”" }).click();
    await exact;
    expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe("berlin");
    await page.waitForFunction(() => document.querySelector<HTMLElement>("#suggest")?.hidden === true);
    expect(await statusText(page)).toMatch(/^[\d,]+ cities named berlin\.$/);
    expect(await results().first().locator(".name").textContent()).toBe("Berlin");
  });

  it("can match names exactly only", async () => {
    await page.getByLabel("Spelling", { exact: true }).selectOption("0");
    await page.getByLabel("Name", { exact: true }).fill("berln");
    await page.waitForFunction(
      () => document.querySelector("#status")?.textContent === "No cities named berln, exact names only.",
    );
    expect(await page.locator("#suggest").isHidden()).toBe(true);
    expect(await page.locator("#curl").textContent()).toMatch(/\/1\.0\/search\/cities\?name=berln&typos=0&matched=1'$/);
    await page.getByLabel("Spelling", { exact: true }).selectOption("1");
  });
});

describe("the search page", () => {
  it("searches near the browser's location, nearest first", async () => {
    const near = await openPage({ geolocation: HERE, permissions: ["geolocation"] });
    try {
      await near.getByLabel("Cities", { exact: true }).check();
      const request = near.waitForRequest((r) => r.url().includes("/1.0/search/cities?"));
      await near.getByLabel("Where", { exact: true }).selectOption("25");
      const url = new URL((await request).url());
      expect(Object.fromEntries(url.searchParams)).toEqual({ lat: "48.8566", long: "2.3522", radius: "25" });
      await near.waitForFunction(() =>
        /^[\d,]+ cities within 25 km of you/.test(document.querySelector("#status")?.textContent ?? ""),
      );
      const distances = (await near.locator("#results li .distance").allTextContents()).map((t) => parseFloat(t));
      expect(distances.length).toBeGreaterThan(5);
      expect(distances.length).toBe(await near.locator("#results li").count());
      expect(distances).toEqual([...distances].sort((a, b) => a - b));
      expect(distances.every((d) => d >= 0 && d <= 25)).toBe(true);
      expect(await near.locator("#results li .name").first().textContent()).toBe("Paris");
      expect(await near.locator("#locate").textContent()).toBe("Near your location (48.8566, 2.3522).");
      expect(await near.locator("#curl").textContent()).toMatch(
        /\/1\.0\/search\/cities\?lat=48\.8566&long=2\.3522&radius=25'$/,
      );

      // With a name and a wider radius: still near, still with distances.
      await near.getByLabel("Name", { exact: true }).fill("versailles");
      await near.getByLabel("Where", { exact: true }).selectOption("100");
      await near.waitForFunction(() =>
        /within 100 km of you/.test(document.querySelector("#status")?.textContent ?? ""),
      );
      expect(await near.locator("#results li .name").first().textContent()).toBe("Versailles");
      expect(await near.locator("#curl").textContent()).toMatch(
        /\?name=versailles&lat=48\.8566&long=2\.3522&radius=100&matched=1'$/,
      );
      await near.screenshot({ path: join(SHOTS, "search-page-near.png"), fullPage: false });

      // Venues near the point carry their city's distance too.
      await near.getByLabel("Venues", { exact: true }).check();
      await near.getByLabel("Name", { exact: true }).fill("");
      await near.waitForFunction(() =>
        /^[\d,]+ venues within 100 km of you/.test(document.querySelector("#status")?.textContent ?? ""),
      );
      expect(await near.locator("#results li .distance").count()).toBe(await near.locator("#results li").count());

      // Anywhere again: no location sent, no distances.
      await near.getByLabel("Name", { exact: true }).fill("arena");
      await near.getByLabel("Where", { exact: true }).selectOption("");
      await near.waitForFunction(() =>
        /^[\d,]+ venues named arena\.$/.test(document.querySelector("#status")?.textContent ?? ""),
      );
      expect(await near.locator("#curl").textContent()).toMatch(/\/1\.0\/search\/venues\?name=arena&matched=1'$/);
      expect(await near.locator("#locate").textContent()).toBe("");
      expect(await near.locator("#results li .distance").count()).toBe(0);
    } finally {
      await near.context().close();
    }
  });
});

describe("the search page", () => {
  it("says so when the location is not shared", async () => {
    const denied = await openPage({ permissions: [] });
    try {
      await denied.getByLabel("Cities", { exact: true }).check();
      await denied.getByLabel("Where", { exact: true }).selectOption("25");
      await denied.waitForFunction(() =>
        /permission was denied/.test(document.querySelector("#locate")?.textContent ?? ""),
      );
      expect(await denied.locator("#locate").textContent()).toBe(
        "Location permission was denied: allow it for this site to search near you. Searching everywhere.",
      );
      expect(await denied.getByLabel("Where", { exact: true }).inputValue()).toBe("");
      expect(await denied.locator("#curl").textContent()).not.toContain("lat=");
    } finally {
      await denied.context().close();
    }
  });
});
