/**
 * What issue 33 saw a new user miss, at a desktop's size and a phone's: the limit to the map's area
 * as a chip that a new name or its ✕ ends; Copy that says what it did; the API's limits on the
 * fields and its refusals explained next to them; the XML view keeping the markers; no name said
 * twice in a result line. Every test also checks that the page logged no error (browser.ts).
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserPerFile, leaveName, openOptions, openPage, showMap, SIZES, statusSays } from "./browser.ts";
import { drawnMarkers, settled } from "./map-geometry.ts";

const browser = browserPerFile();

const chip = (page: Page) => page.getByRole("button", { name: "Remove the limit to the map's area" });
const nameField = (page: Page) => page.getByLabel("Name", { exact: true });

/** Fills the name and leaves it (its suggestions closed); the search request it sends. */
async function searchName(page: Page, name: string): Promise<URLSearchParams> {
  const request = page.waitForRequest(
    (r) => r.url().includes("/1.0/search/") && r.url().includes(`name=${encodeURIComponent(name)}`),
  );
  await nameField(page).fill(name);
  await leaveName(page);
  return new URL((await request).url()).searchParams;
}

describe.each(SIZES)("the limit to the map's area ($screen)", ({ viewport }) => {
  it("is a chip; it ends when the name changes, or with its ✕", async () => {
    const page = await openPage(browser(), { viewport });
    await page.getByLabel("Cities", { exact: true }).check();
    await searchName(page, "berlin");
    await statusSays(page, /^[\d,]+ cities named berlin/);
    expect(await chip(page).isVisible()).toBe(false);
    await showMap(page);
    const inArea = page.waitForRequest((r) => r.url().includes("bbox="));
    await page.getByRole("button", { name: "Search this area" }).click();
    expect(new URL((await inArea).url()).searchParams.get("name")).toBe("berlin");
    expect(await chip(page).isVisible()).toBe(true);
    expect(await page.locator("#limits").textContent()).toContain("Within the map's area");

    // A new name is searched everywhere: "paris" finds Paris, not a "parish" near Berlin.
    expect((await searchName(page, "paris")).has("bbox")).toBe(false);
    await statusSays(page, /^[\d,]+ cities named paris\b/);
    expect(await chip(page).isVisible()).toBe(false);
    expect(await page.locator("#results li .name").first().textContent()).toBe("Paris");
    expect(await page.locator("#suggest").isHidden()).toBe(true);

    const again = page.waitForResponse((r) => r.url().includes("bbox="));
    await page.getByRole("button", { name: "Search this area" }).click();
    await again;
    const anywhere = page.waitForRequest((r) => r.url().includes("/1.0/search/cities?name=paris"));
    await chip(page).click();
    expect(new URL((await anywhere).url()).searchParams.has("bbox")).toBe(false);
    expect(await chip(page).isVisible()).toBe(false);
    expect(await nameField(page).evaluate((e) => e === document.activeElement)).toBe(true);
    await page.context().close();
  });
});

describe.each(SIZES)("Copy ($screen)", ({ viewport }) => {
  it("copies the curl command and says so", async () => {
    const page = await openPage(browser(), { viewport, permissions: ["clipboard-read", "clipboard-write"] });
    await nameField(page).fill("arena");
    await statusSays(page, /^[\d,]+ venues named arena/);
    await page.getByRole("button", { name: "Copy" }).click();
    await page.waitForFunction(() => document.querySelector("#copied")?.textContent === "Copied.");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await page.locator("#curl").textContent());
    await page.context().close();
  });

  it("says when the browser refuses, and selects the command to copy by hand", async () => {
    const page = await openPage(browser(), { viewport });
    // As Chromium answers when the clipboard is denied to the site.
    await page.context().addInitScript(() => {
      const refuse = () => Promise.reject(new DOMException("Write permission denied.", "NotAllowedError"));
      Object.defineProperty(navigator.clipboard, "writeText", { value: refuse });
    });
    await page.reload();
    await page.getByRole("button", { name: "Copy" }).click();
    await page.waitForFunction(() =>
      /did not let the page copy/.test(document.querySelector("#copied")?.textContent ?? ""),
    );
    expect(await page.evaluate(() => getSelection()?.toString())).toBe(await page.locator("#curl").textContent());
    await page.context().close();
  });
});

describe.each(SIZES)("the XML view ($screen)", ({ viewport }) => {
  it("keeps the results on the map, read from the XML", async () => {
    const page = await openPage(browser(), { viewport });
    await showMap(page);
    await page.getByLabel("Show", { exact: true }).selectOption("xml");
    await nameField(page).fill("stadium");
    await page.waitForFunction(() => /<venues [^>]*total=/.test(document.querySelector("#raw")?.textContent ?? ""));
    await page.waitForFunction(() => / on the map\.$/.test(document.querySelector("#mapinfo")?.textContent ?? ""));
    const fromXml = (await settled(page)).map((m) => m.label);
    expect(fromXml.length).toBe(30);
    // The same search in the list view (JSON) puts the same results in the same places.
    await openOptions(page);
    await page.getByLabel("Show", { exact: true }).selectOption("list");
    await page.waitForFunction(() => document.querySelectorAll("#results li").length > 0);
    await page.waitForFunction(() => / on the map\.$/.test(document.querySelector("#mapinfo")?.textContent ?? ""));
    expect((await settled(page)).map((m) => m.label)).toEqual(fromXml);
    expect((await drawnMarkers(page)).every((m) => m.at !== null || !m.label)).toBe(true);
    await page.context().close();
  });
});
