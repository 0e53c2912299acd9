/**
 * The search page's map, in headless Chromium with the tiles off (test/e2e/global-setup.ts):
 * markers where the results are (measured on the screen, test/e2e/map-geometry.ts), the box
 * "search this area" asks for against the view the map shows after it was moved, "near me", and
 * the data credits. Saves screenshots to test-results/.
 */
import { join } from "node:path";
import type { Page, Request } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { CitiesPage, VenuesPage } from "../../src/shape.ts";
import { base, browserPerFile, leaveName, openPage, SHOTS } from "./browser.ts";
import {
  drawnMarkers,
  edgesOf,
  latitudePixels,
  longitudePixels,
  mapView,
  pixelsOff,
  projectionOf,
  settled,
  type Point,
} from "./map-geometry.ts";

const browser = browserPerFile();

/** Searches cities (a name, a country); the answer, once its markers are placed. */
async function searchCities(page: Page, name: string, country = ""): Promise<CitiesPage> {
  await page.getByLabel("Cities", { exact: true }).check();
  await page.getByLabel("Country", { exact: true }).fill(country);
  const query = new URLSearchParams(country ? { name, country, matched: "1" } : { name, matched: "1" }).toString();
  const answer = page.waitForResponse((r) => r.url().endsWith(`/1.0/search/cities?${query}`) && r.ok());
  await page.getByLabel("Name", { exact: true }).fill(name);
  const body = (await (await answer).json()) as CitiesPage;
  await page.waitForFunction(
    (n) => document.querySelector("#mapinfo")?.textContent === `${n} of ${n} on the map.`,
    body.cities.length,
  );
  return body;
}

/** The markers, drawn where the projection of the map puts each point (in order). */
async function expectMarkersAt(page: Page, points: Point[]) {
  const markers = await settled(page);
  expect(markers.length).toBe(points.length);
  const projection = projectionOf(points, markers);
  // Leaflet's zoom levels are whole: the world is 256 × 2^zoom pixels wide.
  const zoom = Math.log2(projection.scale / 256);
  expect(zoom).toBeCloseTo(Math.round(zoom), 2);
  points.forEach((point, i) => {
    const at = markers[i]?.at;
    if (at) expect(pixelsOff(projection, point, at), `marker ${i}`).toBeLessThan(1.5);
  });
  return { markers, projection };
}

/** The bbox a request asks for, as numbers: [minLong, minLat, maxLong, maxLat]. */
function bboxOf(request: Request): number[] {
  const params = new URL(request.url()).searchParams;
  expect(params.has("lat") || params.has("long") || params.has("radius")).toBe(false);
  return (params.get("bbox") ?? "").split(",").map(Number);
}

/**
 * Waits until the map stands at `zoom`: Leaflet's zoom proxy (an empty element of its map pane)
 * is scaled by 2^(zoom − 1) when a move ends.
 */
async function zoomIs(page: Page, zoom: number): Promise<void> {
  await page.waitForFunction((z) => {
    const proxy = document.querySelector<HTMLElement>("#map .leaflet-proxy");
    const scale = /scale\(([^)]+)\)/.exec(proxy?.style.transform ?? "")?.[1];
    return scale !== undefined && Math.abs(Math.log2(Number(scale)) + 1 - z) < 1e-6;
  }, zoom);
  await settled(page);
}

/** Asks "search this area"; the request it sends. */
async function searchThisArea(page: Page): Promise<Request> {
  const request = page.waitForRequest((r) => /\/1\.0\/search\/\w+\?.*bbox=/.test(r.url()));
  await page.getByRole("button", { name: "Search this area" }).click();
  return request;
}

describe("the map", () => {
  it("puts every city found where it is, framed", async () => {
    const page = await openPage(browser());
    const body = await searchCities(page, "paris");
    expect(body.cities.length).toBeGreaterThan(3);
    const { markers } = await expectMarkersAt(
      page,
      body.cities.map((c) => c.coords),
    );
    expect(markers.every((m) => m.at !== null)).toBe(true);
    const view = await mapView(page);
    for (const { at } of markers) {
      expect(at && at.x >= 0 && at.x <= view.width && at.y >= 0 && at.y <= view.height).toBe(true);
    }
    expect(markers[0]?.label).toBe("Paris — Île-de-France, France");
    await page.context().close();
  });

  it("puts venues at their own point, else at their city's, asking each city once", async () => {
    const page = await openPage(browser());
    const lookups: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/1.0/city/")) lookups.push(r.url());
    });
    const answer = page.waitForResponse((r) => r.url().includes("/1.0/search/venues?name=arena") && r.ok());
    await page.getByLabel("Name", { exact: true }).fill("arena");
    await leaveName(page); // its suggestions would push the first result down
    const venues = ((await (await answer).json()) as VenuesPage).venue;
    const placed = venues.filter((v) => v.coords !== undefined || v.city !== undefined);
    await page.waitForFunction(
      (n) => document.querySelector("#mapinfo")?.textContent?.startsWith(`${n} of `),
      placed.length,
    );
    const cityIds = new Set(venues.flatMap((v) => (v.coords === undefined && v.city ? [v.city.id] : [])));
    // Each city once, whoever asked first: the map, or the name's suggestions naming a venue's country.
    const looked = lookups.map((url) => new URL(url).pathname.split("/").at(-1) ?? "");
    expect(new Set(looked).size).toBe(looked.length);
    for (const id of cityIds) expect(looked).toContain(id);
    const points = await Promise.all(
      placed.map(async (v) => {
        if (v.coords) return v.coords;
        const city = await page.request.get(`${base()}/1.0/city/${v.city?.id ?? ""}`, {
          headers: { Accept: "application/json" },
        });
        return ((await city.json()) as { coords: Point }).coords;
      }),
    );
    await expectMarkersAt(page, points);

    // A result's "show on map" opens its marker's popup.
    await page.locator("#results li").first().getByRole("button", { name: "show on map" }).click();
    expect(await page.locator(".leaflet-popup-content .name").textContent()).toBe(venues[0]?.name);

    // The same page again: every city's place is known by now.
    // Each city once: going to page 2 and back asks for none of page 1's cities again.
    const asked = lookups.length;
    await page.getByRole("button", { name: "Next →" }).click();
    await page.getByRole("button", { name: "← Previous" }).click();
    await page.waitForFunction(() => /^Page 1 /.test(document.querySelector("#pageinfo")?.textContent ?? ""));
    await settled(page);
    expect(lookups.slice(asked).filter((url) => lookups.indexOf(url) < asked)).toEqual([]);
    await page.context().close();
  });
});

describe("search this area", () => {
  it("asks for the box the moved map shows, and leaves the map where it is", async () => {
    const page = await openPage(browser());
    const body = await searchCities(page, "paris");
    const points = body.cities.map((c) => c.coords);
    await settled(page);
    const view = await mapView(page);
    // Drag the map as a person would: a third of its width to the left and down a little.
    await page.mouse.move(view.left + view.width / 2, view.top + view.height / 2);
    await page.mouse.down();
    await page.mouse.move(view.left + view.width / 6, view.top + view.height / 2 + 40, { steps: 12 });
    await page.mouse.up();
    const { projection } = await expectMarkersAt(page, points);
    const edges = edgesOf(projection, view);

    const answer = page.waitForResponse((r) => r.url().includes("bbox="));
    const request = await searchThisArea(page);
    expect(new URL(request.url()).searchParams.get("name")).toBe("paris");
    const [minLong, minLat, maxLong, maxLat] = bboxOf(request);
    expect(longitudePixels(projection, minLong ?? NaN, edges.west)).toBeLessThan(1.5);
    expect(longitudePixels(projection, maxLong ?? NaN, edges.east)).toBeLessThan(1.5);
    expect(latitudePixels(projection, minLat ?? NaN, edges.south)).toBeLessThan(1.5);
    expect(latitudePixels(projection, maxLat ?? NaN, edges.north)).toBeLessThan(1.5);
    // The map stays where it was put: the results of the area are drawn by the same projection.
    const inArea = (await (await answer).json()) as CitiesPage;
    await page.waitForFunction(() =>
      /^[\d,]+ cities named paris in the map's area/.test(document.querySelector("#status")?.textContent ?? ""),
    );
    const after = await settled(page);
    inArea.cities.forEach((city, i) => {
      const at = after[i]?.at;
      if (at) expect(pixelsOff(projection, city.coords, at)).toBeLessThan(1.5);
    });
    expect(await page.getByRole("button", { name: "Remove the limit to the map's area" }).isVisible()).toBe(true);
    expect(await page.locator("#curl").textContent()).toContain("bbox=");
    await page.context().close();
  });

  it("wraps a view across the antimeridian, and a view wider than the world is all of it", async () => {
    const page = await openPage(browser());
    const body = await searchCities(page, "suva", "FJ");
    const suva = body.cities[0]?.coords.long ?? NaN;
    // Each click waited for at its zoom: under load a click could land before the view it zooms out of.
    await zoomIs(page, 12);
    for (let zoom = 11; zoom >= 4; zoom--) {
      await page.locator(".leaflet-control-zoom-out").click();
      await zoomIs(page, zoom);
    }
    const [minLong, , maxLong] = bboxOf(await searchThisArea(page));
    expect(minLong).toBeGreaterThan(maxLong ?? NaN);
    // The map zooms out about its centre, Suva (178.4° E): the box's middle, across 180°.
    const middle = (minLong ?? NaN) + ((maxLong ?? NaN) + 360 - (minLong ?? NaN)) / 2;
    expect(Math.abs(middle - suva)).toBeLessThan(0.2); // half a pixel at zoom 4: 0.04°

    while ((await page.locator(".leaflet-control-zoom-out.leaflet-disabled").count()) === 0) {
      await page.locator(".leaflet-control-zoom-out").click();
      await settled(page);
    }
    const whole = bboxOf(await searchThisArea(page));
    expect([whole[0], whole[2]]).toEqual([-180, 180]);
    await page.context().close();
  });
});

describe("the map and the page", () => {
  it("centres on the browser's location for a search near it", async () => {
    const page = await openPage(browser(), {
      geolocation: { latitude: 48.8566, longitude: 2.3522 },
      permissions: ["geolocation"],
    });
    await page.getByLabel("Cities", { exact: true }).check();
    await page.getByLabel("Where", { exact: true }).selectOption("25");
    await page.waitForFunction(() => /within 25 km of you/.test(document.querySelector("#status")?.textContent ?? ""));
    await settled(page);
    const view = await mapView(page);
    const [you] = await drawnMarkers(page, "you-marker");
    expect(you?.label).toBe("Your location");
    expect(Math.abs((you?.at?.x ?? NaN) - view.width / 2)).toBeLessThan(1.5);
    expect(Math.abs((you?.at?.y ?? NaN) - view.height / 2)).toBeLessThan(1.5);
    const reach = await page.locator("#map path.you-reach").boundingBox();
    expect(reach && reach.x >= view.left - 1 && reach.x + reach.width <= view.left + view.width + 1).toBe(true);
    await page.screenshot({ path: join(SHOTS, "search-map-near.png"), fullPage: false });
    await page.context().close();
  });

  it("credits the data it shows", async () => {
    const page = await openPage(browser());
    // The default data: GeoNames cities and generated venues (docs/api.md#data-credits).
    expect(await page.locator("#credits").textContent()).toBe(
      "Cities and their names: GeoNames (CC BY 4.0). Venues are generated examples.",
    );
    expect(await page.locator("#credits a").first().getAttribute("href")).toBe("https://www.geonames.org/");
    await page.context().close();
  });
});
