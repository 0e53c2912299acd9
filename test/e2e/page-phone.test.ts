/**
 * The search page on a phone (390 × 844 CSS pixels) and on a desktop: on the phone a search run
 * shows its results first, the form folded to its name line and the map behind "Show map"; on the
 * desktop the form stays whole beside nothing hidden. On both, typing moves nothing: the search as
 * you type folds nothing away. On the phone a result's popup lies inside the map, its close button
 * in view (it ran 83 px past the map's edge). Saves search-page-phone.png to test-results/.
 */
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { base, browserPerFile, leaveName, openPage, SHOTS, SIZES, statusSays } from "./browser.ts";
import { drawnMarkers, mapView, settled } from "./map-geometry.ts";

const PHONE = SIZES[1].viewport;

const browser = browserPerFile();

const top = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((e) => e.getBoundingClientRect().top + window.scrollY);
const options = (page: Page) => page.getByRole("button", { name: "Options" });

describe("on a phone", () => {
  it("a search shows its results first, the form folded to its name", async () => {
    const page = await openPage(browser(), { viewport: PHONE });
    expect(await options(page).getAttribute("aria-expanded")).toBe("true");
    expect(await page.getByLabel("Country", { exact: true }).isVisible()).toBe(true);
    await page.getByLabel("Cities", { exact: true }).check();
    await page.getByLabel("Name", { exact: true }).fill("wien");
    await page.getByLabel("Name", { exact: true }).press("Enter"); // searched, its suggestions closed
    await page.waitForFunction(() => (document.querySelector("#results li")?.textContent ?? "").startsWith("Vienna"));
    expect(await options(page).getAttribute("aria-expanded")).toBe("false");
    expect(await page.getByLabel("Country", { exact: true }).isVisible()).toBe(false);
    expect(await page.getByLabel("Name", { exact: true }).isVisible()).toBe(true);
    // The first result within the first screen, half of it to spare (it was 1,170 px down).
    const first = await top(page, "#results li");
    expect(first).toBeLessThan(PHONE.height / 2);
    // The map waits behind "Show map"; nothing is wider than the screen.
    expect(await page.locator("#map").isVisible()).toBe(false);
    expect(await page.getByRole("button", { name: "Show map" }).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(SHOTS, "search-page-phone.png"), fullPage: false });
    await page.context().close();
  });

  it("Options unfolds the form; it stays open while a filter changes, and folds after Enter", async () => {
    const page = await openPage(browser(), { viewport: PHONE });
    await page.getByLabel("Name", { exact: true }).fill("arena");
    await page.getByLabel("Name", { exact: true }).press("Enter");
    await statusSays(page, /^[\d,]+ venues named /);
    expect(await options(page).getAttribute("aria-expanded")).toBe("false");
    await options(page).click();
    expect(await options(page).getAttribute("aria-expanded")).toBe("true");
    const country = page.getByLabel("Country", { exact: true });
    await country.fill("DE");
    await page.waitForFunction(() => /country=DE/.test(document.querySelector("#curl")?.textContent ?? ""));
    await statusSays(page, /^[\d,]+ venues named /);
    const stadium = page.waitForResponse((r) => r.url().includes("name=stadium"));
    await page.getByLabel("Name", { exact: true }).fill("stadium");
    await stadium;
    await page.waitForFunction(() =>
      /^[\d,]+ venues named /.test(document.querySelector("#status")?.textContent ?? ""),
    );
    expect(await country.isVisible()).toBe(true);
    await page.getByLabel("Name", { exact: true }).press("Enter");
    await page.waitForFunction(() => document.getElementById("options")?.getAttribute("aria-expanded") === "false");
    expect(await country.isVisible()).toBe(false);
    await page.context().close();
  });
});

/** Where the element is in the window, as a person sees it (CSS pixels). */
const boxOf = (page: Page, label: string) =>
  page.getByLabel(label, { exact: true }).evaluate((e) => {
    const { x, y, width, height } = e.getBoundingClientRect();
    return { x, y, width, height };
  });

describe.each(SIZES)("typing a name ($screen)", ({ viewport }) => {
  it("moves nothing: the search as you type folds nothing away; Enter folds the form on a phone", async () => {
    const page = await openPage(browser(), { viewport });
    const name = page.getByLabel("Name", { exact: true });
    await name.click();
    const before = await boxOf(page, "Name");
    const answered = page.waitForResponse((r) => r.url().endsWith("/1.0/search/venues?name=arena&matched=1"));
    await name.pressSequentially("arena");
    await answered;
    await statusSays(page, /^[\d,]+ venues/);
    await page.getByRole("listbox", { name: "Suggestions" }).waitFor();
    expect(await boxOf(page, "Name"), "the name box, where it was").toEqual(before);
    for (const label of ["Venues", "Cities", "City", "Country"]) {
      expect(await page.getByLabel(label, { exact: true }).isVisible(), label).toBe(true);
    }
    const searched = page.waitForResponse((r) => r.url().endsWith("/1.0/search/venues?name=arena&matched=1"));
    await name.press("Enter");
    await searched;
    await statusSays(page, /^[\d,]+ venues/);
    const phone = viewport.width === PHONE.width;
    if (phone) await page.waitForFunction(() => document.getElementById("options")?.ariaExpanded === "false");
    expect(await page.getByLabel("City", { exact: true }).isVisible(), "City, after Enter").toBe(!phone);
    await page.context().close();
  });
});

describe("on a phone, the map", () => {
  it("is shown above the results by Show map, framing them, and by a result's show on map", async () => {
    const page = await openPage(browser(), { viewport: PHONE });
    await page.getByLabel("Cities", { exact: true }).check();
    await page.getByLabel("Name", { exact: true }).fill("paris");
    await leaveName(page); // its suggestions would push "Show map" down
    await page.waitForFunction(() => / on the map\.$/.test(document.querySelector("#mapinfo")?.textContent ?? ""));
    await page.getByRole("button", { name: "Show map" }).click();
    expect(await page.getByRole("button", { name: "Hide map" }).getAttribute("aria-expanded")).toBe("true");
    const markers = await settled(page);
    const view = await mapView(page);
    expect(view.width).toBeGreaterThan(300);
    // Framed: every marker drawn within the map, which now comes before the results.
    for (const { at } of markers)
      expect(at && at.x >= 0 && at.x <= view.width && at.y >= 0 && at.y <= view.height).toBe(true);
    expect(await top(page, "#map")).toBeLessThan(await top(page, "#results li"));

    await page.getByRole("button", { name: "Hide map" }).click();
    expect(await page.locator("#map").isVisible()).toBe(false);
    await page.locator("#results li").first().getByRole("button", { name: "show on map" }).click();
    expect(await page.locator("#map").isVisible()).toBe(true);
    expect(await page.locator(".leaflet-popup-content .name").textContent()).toBe("Paris");
    expect((await drawnMarkers(page)).length).toBe(markers.length);
    await page.context().close();
  });
});

/** The box of the first element `selector` finds, in the window (CSS pixels). */
const box = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((e) => {
      const { left, top, right, bottom } = e.getBoundingClientRect();
      return { left, top, right, bottom };
    });

type Box = Awaited<ReturnType<typeof box>>;

const within = (inner: Box, outer: Box) =>
  inner.left >= outer.left && inner.right <= outer.right && inner.top >= outer.top && inner.bottom <= outer.bottom;

describe.each(["shown", "hidden"] as const)("on a phone, the map %s, a result's show on map", (map) => {
  it("opens its popup inside the map, its close button in view", async () => {
    const page = await openPage(browser(), { viewport: PHONE }, base(), "/?type=venues&name=arena");
    await page.waitForFunction(() => / on the map\.$/.test(document.querySelector("#mapinfo")?.textContent ?? ""));
    if (map === "shown") await page.getByRole("button", { name: "Show map" }).click();
    await page.locator("#results li").first().getByRole("button", { name: "show on map" }).click();
    await page.waitForFunction(() => {
      const popup = document.querySelector(".leaflet-popup");
      return popup !== null && getComputedStyle(popup).opacity === "1";
    });
    await settled(page); // Leaflet pans the map to bring a popup into it
    const frame = await box(page, "#map");
    const screen = { left: 0, top: 0, right: PHONE.width, bottom: PHONE.height };
    expect(within(frame, screen), "the map in view").toBe(true);
    expect(
      await box(page, ".leaflet-popup-content-wrapper"),
      `the popup, in the map ${JSON.stringify(frame)}`,
    ).toSatisfy((b: Box) => within(b, frame));
    const close = page.getByRole("button", { name: "Close popup" });
    expect(
      await box(page, ".leaflet-popup-close-button"),
      `its close button, in the map ${JSON.stringify(frame)}`,
    ).toSatisfy((b: Box) => within(b, frame));
    await close.click();
    await page.locator(".leaflet-popup").waitFor({ state: "detached" }); // closed, once faded out
    await page.context().close();
  });
});

describe("on a desktop", () => {
  it("the form stays whole after a search, and the map beside the results", async () => {
    const page = await openPage(browser());
    await page.getByLabel("Name", { exact: true }).fill("arena");
    await statusSays(page, /^[\d,]+ venues named /);
    expect(await options(page).isVisible()).toBe(false);
    expect(await page.getByRole("button", { name: "Show map" }).isVisible()).toBe(false);
    expect(await page.getByLabel("Country", { exact: true }).isVisible()).toBe(true);
    expect(await page.locator("#map").isVisible()).toBe(true);
    await page.context().close();
  });
});
