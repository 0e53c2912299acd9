/**
 * The map's tiles, at a desktop's size and a phone's: a site without tiles says so on the map, and
 * so does one whose tile server cannot be reached; with tiles served, zooming and panning (which
 * makes Leaflet drop tiles still loading) leaves nothing in the console: the Content-Security-Policy
 * allows the data: image Leaflet stops them with, and no more. The second server of
 * global-setup.ts has tiles on this machine, where nothing answers unless the test does.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { browserPerFile, leaveName, openPage, showMap, SIZES } from "./browser.ts";
import { settled } from "./map-geometry.ts";

/** A tile: one grey pixel, stretched. */
const TILE = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

const browser = browserPerFile();

const note = (page: Page) => page.locator("#tiles-note");

/** Cities named Paris, on the map. */
async function searchParis(page: Page): Promise<void> {
  await showMap(page);
  await page.getByLabel("Cities", { exact: true }).check();
  await page.getByLabel("Name", { exact: true }).fill("paris");
  await leaveName(page); // its suggestions would push the map down
  await page.waitForFunction(() => / on the map\.$/.test(document.querySelector("#mapinfo")?.textContent ?? ""));
  await settled(page);
}

describe.each(SIZES)("the map's tiles ($screen)", ({ viewport }) => {
  it("a site without tiles says so, and allows images from itself only", async () => {
    const page = await openPage(browser(), { viewport });
    const response = await page.request.get(page.url());
    expect(response.headers()["content-security-policy"]).toContain("img-src 'self';");
    await searchParis(page);
    expect(await note(page).textContent()).toBe("No map tiles on this site: the results are placed on a blank map.");
    expect(await note(page).isVisible()).toBe(true);
    await page.context().close();
  });

  it("tiles that cannot be loaded are said to be missing", async () => {
    const page = await openPage(browser(), { viewport }, inject("tilesBase"));
    await searchParis(page);
    await page.waitForFunction(() => document.querySelector<HTMLElement>("#tiles-note")?.hidden === false);
    expect(await note(page).textContent()).toBe(
      "The map's tiles could not be loaded: the results are placed on a blank map.",
    );
    await page.context().close();
  });

  it("tiles served: no note, and no console error however the map moves", async () => {
    const page = await openPage(browser(), { viewport }, inject("tilesBase"));
    let served = 0;
    await page.route(`${inject("tiles")}/**`, async (route) => {
      served++;
      await new Promise((resolve) => setTimeout(resolve, 40)); // some still loading when dropped
      await route.fulfill({ body: TILE, contentType: "image/png" });
    });
    const response = await page.request.get(page.url());
    expect(response.headers()["content-security-policy"]).toContain(`img-src 'self' data: ${inject("tiles")};`);
    await searchParis(page);
    // In and back out, each step once the last is drawn (Leaflet drops a click while it zooms).
    for (const control of ["in", "in", "in", "out", "out", "out"]) {
      await page.locator(`.leaflet-control-zoom-${control}`).click();
      await settled(page);
    }
    expect(served).toBeGreaterThan(4);
    expect(await note(page).isVisible()).toBe(false);
    await page.context().close();
  });
});
