/**
 * The page's search in its address (src/page/address.ts), at a desktop's size and a phone's: a
 * link opens its search (the fields filled, the results listed, the map where it was), Back and
 * Forward walk the searches done (a burst of typing is one), Reload keeps the search, and an
 * address the page did not write neither breaks it nor hides the API's refusal.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { base, browserPerFile, openPage, showMap, SIZES, statusSays } from "./browser.ts";
import { mapView, settled } from "./map-geometry.ts";

const browser = browserPerFile();

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

/** The names of a page of the API's answer to `path` (what the list must show). */
async function apiNames(path: string): Promise<string[]> {
  const response = await fetch(`${base()}${path}`, { headers: { Accept: "application/json" } });
  const body = (await response.json()) as { venue?: { name: string }[]; cities?: { name: string }[] };
  return (body.venue ?? body.cities ?? []).map((result) => result.name);
}

/** Waits until the list shows exactly these names, in this order. */
async function listShows(page: Page, names: string[]): Promise<void> {
  await page.waitForFunction(
    (expected) =>
      JSON.stringify([...document.querySelectorAll("#results li .name")].map((n) => n.textContent)) === expected,
    JSON.stringify(names),
  );
}

const pageInfo = (page: Page) => page.locator("#pageinfo").textContent();

describe.each(SIZES)("a link to a search ($screen)", ({ viewport }) => {
  it("opens the search: its fields, its results, its page", async () => {
    const page = await openPage(browser(), { viewport }, base(), "/?type=venues&name=arena&country=US&p=2");
    await listShows(page, await apiNames("/1.0/search/venues?name=arena&country=US&p=2"));
    expect(await field(page, "Venues").isChecked()).toBe(true);
    expect(await field(page, "Name").inputValue()).toBe("arena");
    expect(await field(page, "Country").inputValue()).toBe("US");
    expect(await pageInfo(page)).toMatch(/^Page 2 of \d+/);

    await page.goto(`${base()}/?type=cities&name=munich&lang=de&view=json`);
    await page.waitForFunction(() => (document.querySelector("#raw")?.textContent ?? "").startsWith("{\n"));
    expect(JSON.parse((await page.locator("#raw").textContent()) ?? "")).toMatchObject({ type: "cities" });
    expect(await field(page, "Cities").isChecked()).toBe(true);
    expect(await field(page, "Names in").inputValue()).toBe("de");
    expect(await field(page, "Show").inputValue()).toBe("json");
    expect(await page.locator("#raw").textContent()).toContain('"name": "München"');
    await page.context().close();
  });
});

/** The searches of the history test: each one's address, the API's names and its page. */
const STADIUM = { address: "/?type=venues&name=stadium", api: "/1.0/search/venues?name=stadium" };
const ARENA = { address: "/?type=venues&name=arena", api: "/1.0/search/venues?name=arena" };
const ARENA_2 = { address: "/?type=venues&name=arena&p=2", api: "/1.0/search/venues?name=arena&p=2" };

/** Checks that the page shows a search of the history test: its address, its name, its results and its page. */
async function expectShown(page: Page, search: typeof STADIUM, name: string, pageNumber: number): Promise<void> {
  await listShows(page, await apiNames(search.api));
  expect(page.url()).toBe(`${base()}${search.address}`);
  expect(await field(page, "Name").inputValue()).toBe(name);
  expect(await pageInfo(page)).toMatch(new RegExp(`^Page ${pageNumber} of `));
}

/** Types a new name a key at a time, pausing long enough between keys for each to be searched; the names searched. */
async function typeSlowly(page: Page, name: string): Promise<string[]> {
  const searched: string[] = [];
  const sent = (r: { url(): string }) => {
    if (r.url().includes("/1.0/search/")) searched.push(new URL(r.url()).searchParams.get("name") ?? "");
  };
  page.on("request", sent);
  await field(page, "Name").selectText();
  await field(page, "Name").pressSequentially(name, { delay: 400 });
  await statusSays(page, /^[\d,]+ venues named /);
  page.off("request", sent);
  return searched;
}

describe.each(SIZES)("Back, Forward and Reload ($screen)", ({ viewport }) => {
  it("walk the searches done, a burst of typing as one; Reload keeps the search", async () => {
    const page = await openPage(browser(), { viewport });
    await field(page, "Name").fill("stadium");
    await field(page, "Name").press("Enter");
    await expectShown(page, STADIUM, "stadium", 1);
    // Searched as typed, "a", "ar", "are" … leave no entries of their own.
    expect((await typeSlowly(page, "arena")).length).toBeGreaterThan(1);
    await expectShown(page, ARENA, "arena", 1);
    await page.getByRole("button", { name: "Next →" }).click();
    await expectShown(page, ARENA_2, "arena", 2);

    await page.goBack();
    await expectShown(page, ARENA, "arena", 1);
    await page.goBack();
    await expectShown(page, STADIUM, "stadium", 1);
    await page.goBack();
    await statusSays(page, /^Type a name/);
    expect(await field(page, "Name").inputValue()).toBe("");
    expect(await page.locator("#results li").count()).toBe(0);
    expect(page.url()).toBe(`${base()}/`);

    await page.goForward();
    await expectShown(page, STADIUM, "stadium", 1);
    await page.goForward();
    await expectShown(page, ARENA, "arena", 1);
    await page.goForward();
    await expectShown(page, ARENA_2, "arena", 2);
    await page.reload();
    await expectShown(page, ARENA_2, "arena", 2);
    await page.context().close();
  });
});

describe.each(SIZES)("a slow answer ($screen)", ({ viewport }) => {
  it("never overwrites a later search, nor the page without one", async () => {
    const page = await openPage(browser(), { viewport });
    let slow = Promise.resolve();
    await page.route(/\/1\.0\/search\/venues\?name=stadium$/, (route) => {
      // Answered late, when the page has moved on (and no longer waits for it).
      slow = new Promise((resolve) => setTimeout(resolve, 1500)).then(() => route.continue().catch(() => undefined));
    });
    await field(page, "Name").fill("stadium");
    await page.waitForFunction(() => document.querySelector("#status")?.textContent === "Searching …");
    await field(page, "Name").fill("");
    await statusSays(page, /^Type a name/);
    await slow;
    await page.waitForTimeout(200);
    expect(await page.locator("#status").textContent()).toMatch(/^Type a name/);
    expect(await page.locator("#results li").count()).toBe(0);

    await field(page, "Name").fill("stadium");
    await page.waitForFunction(() => document.querySelector("#status")?.textContent === "Searching …");
    await field(page, "Name").fill("arena");
    await listShows(page, await apiNames("/1.0/search/venues?name=arena"));
    await slow;
    await page.waitForTimeout(200);
    await listShows(page, await apiNames("/1.0/search/venues?name=arena"));
    await page.context().close();
  });
});

/** Asks "search this area"; the box it sent, as numbers. */
async function searchThisArea(page: Page): Promise<number[]> {
  await settled(page);
  const request = page.waitForRequest((r) => r.url().includes("bbox="));
  await page.getByRole("button", { name: "Search this area" }).click();
  const bbox = new URL((await request).url()).searchParams.get("bbox") ?? "";
  await statusSays(page, /^([\d,]+ (city|cities)|No cities) /); // a street's width may hold no city
  return bbox.split(",").map(Number);
}

describe.each(SIZES)("a search near a point or in the map's area ($screen)", ({ viewport }) => {
  it("reopens near the point of its address, without asking where the browser is", async () => {
    const page = await openPage(browser(), { viewport }, base(), "/?type=cities&lat=48.8566&long=2.3522&radius=25");
    await statusSays(page, /^[\d,]+ cities within 25 km of 48\.8566, 2\.3522/);
    expect(await page.locator("#results li .name").first().textContent()).toBe("Paris");
    expect(await field(page, "Where").inputValue()).toBe("25");
    expect(await page.locator("#locate").textContent()).toBe(
      "Near 48.8566, 2.3522, the point of the search this page's address names.",
    );
    await page.context().close();
  });

  it("reloads in the same area, the map showing it as it did, down to the street", async () => {
    const page = await openPage(browser(), { viewport }, base(), "/?type=cities&name=berlin&country=DE");
    await statusSays(page, /^[\d,]+ cities named berlin in Germany/);
    // The first result at the map's place zoom (12), then as close as the map goes (19), where the
    // rounding of the box outwards takes more than the 1% by which Leaflet would keep a zoom.
    await page.getByRole("button", { name: "show on map" }).first().click();
    for (let zoom = 12; zoom < 19; zoom++) {
      await settled(page);
      await page.getByRole("button", { name: "Zoom in" }).click();
    }
    const box = await searchThisArea(page);
    const names = await page.locator("#results li .name").allTextContents();
    expect(page.url()).toContain("&bbox=");
    await page.reload();
    await statusSays(page, /^([\d,]+ (city|cities)|No cities) /);
    await listShows(page, names);
    expect(await field(page, "Name").inputValue()).toBe("berlin");
    expect(await page.getByRole("button", { name: "Remove the limit to the map's area" }).isVisible()).toBe(true);
    await showMap(page);
    const again = await searchThisArea(page);
    // The same view: the same span (not the next zoom out) at the same place, within a pixel
    // (a degree of latitude takes more pixels than one of longitude: a longitude's pixel bounds both).
    const [west = 0, , east = 0] = box;
    const pixel = (east - west) / (await mapView(page)).width;
    expect(pixel).toBeGreaterThan(0);
    again.forEach((edge, i) => expect(Math.abs(edge - (box[i] ?? NaN)), `${again} against ${box}`).toBeLessThan(pixel));
    await page.context().close();
  });
});

describe.each(SIZES)("an address the page did not write ($screen)", ({ viewport }) => {
  it("is searched for what the page can show, and written again without the rest", async () => {
    const odd = "/?type=nope&name=paris&p=zero&lat=abc&radius=25&lang=xx&view=html&foo=1";
    const page = await openPage(browser(), { viewport }, base(), odd);
    await listShows(page, await apiNames("/1.0/search/venues?name=paris"));
    expect(page.url()).toBe(`${base()}/?type=venues&name=paris`);
    expect(await field(page, "Where").inputValue()).toBe("");
    expect(await field(page, "Names in").inputValue()).toBe("en");
    await page.context().close();
  });

  it("shows the API's refusal of a value, next to its field", async () => {
    const page = await openPage(browser(), { viewport }, base(), `/?type=cities&name=${"x".repeat(120)}`);
    await statusSays(page, /^Not searched: see “Name”\.$/);
    expect(await page.locator("#name-error").textContent()).toBe("Too long: at most 100 characters.");
    expect(await field(page, "Name").inputValue()).toHaveLength(120);
    await page.context().close();
  });
});
