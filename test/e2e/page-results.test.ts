/**
 * The list of results at a desktop's size and a phone's: each result is one Tab stop, its own link,
 * named by the record's name (and the name that matched beside it, when it is another: Swainsboro ·
 * Paris) and opening that record on the page (each had two stops, the second a
 * link named by raw coordinates, "map (-23.49521, -46.86724)", to another site in a new tab); a
 * link to another site, in a marker's popup, says so and that it opens a new tab.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { base, browserPerFile, openPage, showMap, SIZES, statusSays } from "./browser.ts";

const browser = browserPerFile();

interface City {
  id: string;
  name: string;
  coords: { lat: number; long: number };
  matched?: { name: string };
}

/** The cities the API finds for the address's search, as the page asks for them (which name matched). */
async function apiCities(query: string): Promise<City[]> {
  const response = await fetch(`${base()}/1.0/search/cities?${query}&matched=1`, {
    headers: { Accept: "application/json" },
  });
  return ((await response.json()) as { cities: City[] }).cities;
}

/** A city's link as the list shows it: its name, and the name that matched beside it when it is another. */
const linkText = ({ name, matched }: City): string =>
  matched && matched.name !== name ? `${name} · ${matched.name}` : name;

/** Each Tab stop from the list's first on, while the focus is in the list: its tag, its text and its address. */
async function tabStops(page: Page): Promise<{ tag: string; text: string; href: string }[]> {
  await page.locator("#results").evaluate((list) => {
    const all = [...list.querySelectorAll<HTMLElement>("a[href], button, input, select, [tabindex]")];
    all.find((e) => e.tabIndex >= 0)?.focus();
  });
  const stops = [];
  for (;;) {
    const stop = await page.evaluate(() => {
      const e = document.activeElement;
      if (!(e instanceof HTMLElement) || e.closest("#results") === null) return null;
      return { tag: e.tagName.toLowerCase(), text: e.textContent ?? "", href: e.getAttribute("href") ?? "" };
    });
    if (stop === null) return stops;
    stops.push(stop);
    await page.keyboard.press("Tab");
  }
}

describe.each(SIZES)("a result ($screen)", ({ viewport }) => {
  it("is one Tab stop, its own link, named by its name (and the one that matched), opening it here", async () => {
    const query = "name=paris&country=US";
    const cities = await apiCities(query);
    expect(cities.length).toBeGreaterThan(1);
    const page = await openPage(browser(), { viewport }, base(), `/?type=cities&${query}`);
    await statusSays(page, /^[\d,]+ cities named paris/);
    const record = ({ id, name }: { id: string; name: string }) =>
      `/?${new URLSearchParams({ type: "cities", id, name, country: "US" }).toString()}`;
    const stops = cities.map((c) => ({ tag: "a", text: linkText(c), href: record(c) }));
    expect(await tabStops(page)).toEqual(stops);
    // Found by another of their names: Swainsboro, one of whose names is "Paris".
    expect(stops.map((stop) => stop.text)).toContain("Swainsboro · Paris");
    // Nothing in the list opens a new tab.
    expect(await page.locator("#results a[target]").count()).toBe(0);

    // A plain click opens the record on the page (no reload: what the page holds stays).
    await page.evaluate(() => Object.assign(window, { kept: true }));
    const second = cities[1] ?? { id: "", name: "", coords: { lat: 0, long: 0 } };
    await page
      .locator("#results li")
      .nth(1)
      .getByRole("link", { name: linkText(second), exact: true })
      .click();
    await page.waitForURL(`${base()}${record(second)}`);
    await page.waitForFunction(() => document.querySelectorAll("#results li").length === 1);
    // A record looked up: its name alone (no name searched, none matched).
    expect(await page.locator("#results li a").textContent()).toBe(second.name);
    expect(await page.evaluate(() => (window as unknown as { kept?: boolean }).kept)).toBe(true);
    await page.context().close();
  });

  it("on the map: its popup's link to OpenStreetMap says where it goes, and that it opens a new tab", async () => {
    const page = await openPage(browser(), { viewport }, base(), "/?type=cities&name=paris&country=FR");
    await statusSays(page, /^[\d,]+ cit(y|ies) named paris/);
    await showMap(page);
    await page.locator("#results li").first().getByRole("button", { name: "show on map" }).click();
    const link = page.locator(".leaflet-popup-content").getByRole("link");
    expect(await link.textContent()).toBe("Open in OpenStreetMap (new tab)");
    const [paris] = await apiCities("name=paris&country=FR");
    const { lat, long } = paris?.coords ?? {};
    expect(await link.getAttribute("href")).toBe(
      `https://www.openstreetmap.org/?mlat=${lat}&mlon=${long}#map=12/${lat}/${long}`,
    );
    // Every link of the page that opens a new tab says so.
    const newTabs = await page.locator("a[target=_blank]").allTextContents();
    expect(newTabs.length).toBeGreaterThan(0);
    expect(newTabs.filter((text) => !text.endsWith("(new tab)"))).toEqual([]);
    await page.context().close();
  });
});
