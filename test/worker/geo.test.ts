/**
 * Search near a point (docs/api.md#near-a-point) against brute force: every record of every page, and the total,
 * compared with a scan of all the test data, measured with the haversine formula written out
 * again in test/support (not the worker's). Circles in cities, across the antimeridian, around a
 * pole, with and without a name and filters.
 */
import { env } from "cloudflare:workers";
import { ownPointSql } from "../../src/data-contract/venue-points.ts";
import { beforeAll, describe, expect, it } from "vitest";
import { normalize } from "../../src/data-contract/normalize.ts";
import type { CityJson, VenueJson } from "../../src/shape.ts";
import { km } from "../support/haversine.ts";
import { allPages, getJson, getXml, parseXml } from "./helpers.ts";

interface City {
  pos: number;
  id: string;
  lat: number;
  lng: number;
  country_code: string;
  population: number;
}
interface Venue {
  pos: number;
  id: string;
  name: string;
  city_id: string | null;
  /** Its own point, else its city's (null: neither). */
  lat: number | null;
  lng: number | null;
  own: number;
}

let cities: City[] = [];
let venues: Venue[] = [];

beforeAll(async () => {
  cities = (await env.DB.prepare("SELECT pos, id, lat, lng, country_code, population FROM cities").all<City>()).results;
  venues = (
    await env.DB.prepare(
      `SELECT v.pos, v.id, v.name, c.id AS city_id, coalesce(v.lat, c.lat) AS lat, coalesce(v.lng, c.lng) AS lng,
              ${ownPointSql("v", "lat")} IS NOT NULL AS own FROM venues v LEFT JOIN cities c ON c.pos = v.city_pos`,
    ).all<Venue>()
  ).results;
});

/** Cities by population (largest first), then geonameid: the order of docs/api.md#matching */
const cityOrder = (a: City, b: City) => b.population - a.population || Number(a.id) - Number(b.id);

function citiesWithin(lat: number, lng: number, radius: number): { city: City; d: number }[] {
  return cities
    .map((city) => ({ city, d: km(lat, lng, city.lat, city.lng) }))
    .filter((x) => x.d <= radius)
    .sort((a, b) => a.d - b.d || cityOrder(a.city, b.city));
}

/** Venues within the circle by their own point, else their city's: nearest first, then the name tiers, then pos. */
function venuesWithin(lat: number, lng: number, radius: number, name?: string): { venue: Venue; d: number }[] {
  const tier = (v: Venue) =>
    name === undefined ? 0 : normalize(v.name) === name ? 0 : normalize(v.name).startsWith(name) ? 1 : 2;
  return venues
    .filter((v) => v.lat !== null && v.lng !== null)
    .filter(
      (v) =>
        name === undefined ||
        normalize(v.name)
          .split(" ")
          .some((w) => w.startsWith(name)),
    )
    .map((venue) => ({ venue, d: km(lat, lng, venue.lat ?? 0, venue.lng ?? 0) }))
    .filter((x) => x.d <= radius)
    .sort((a, b) => a.d - b.d || tier(a.venue) - tier(b.venue) || a.venue.pos - b.venue.pos);
}

const CIRCLES: [string, number, number, number][] = [
  ["central London, 10 km", 51.5074, -0.1278, 10],
  ["Paris, 100 km", 48.8566, 2.3522, 100],
  ["Zürich, 50 km", 47.3769, 8.5417, 50],
  ["Zürich, 300 km", 47.3769, 8.5417, 300],
  ["Vienna, 500 km", 48.2082, 16.3738, 500],
  ["Los Angeles, 25 km by default", 34.0522, -118.2437, 25],
  ["San Francisco, 100 km", 37.7749, -122.4194, 100],
  ["Sydney, 50 km", -33.8688, 151.2093, 50],
  ["across the antimeridian, 500 km", -16.5, 179.9, 500],
  ["around the North Pole, 500 km", 89.9, 0, 500],
  ["the middle of the Atlantic, 100 km", 30, -40, 100],
];

const query = (lat: number, lng: number, radius: number) =>
  `lat=${lat}&long=${lng}${radius === 25 ? "" : `&radius=${radius}`}`;

describe("cities near a point, against brute force", () => {
  it.each(CIRCLES)("%s: every page and the total", async (_label, lat, lng, radius) => {
    const expected = citiesWithin(lat, lng, radius);
    const { total, items } = await allPages<CityJson>(`/1.0/search/cities?${query(lat, lng, radius)}`, "cities");
    expect(total).toBe(expected.length);
    expect(items.map((c) => c.id)).toEqual(expected.map((x) => x.city.id));
    items.forEach((c, i) => expect(c.distance).toBeCloseTo(expected[i]?.d ?? NaN, 1));
  });

  it("with a country: the same circle, only that country", async () => {
    const expected = citiesWithin(47.3769, 8.5417, 300).filter((x) => x.city.country_code === "DE");
    expect(expected.length).toBeGreaterThan(0);
    const { total, items } = await allPages<CityJson>(
      "/1.0/search/cities?lat=47.3769&long=8.5417&radius=300&country=de",
      "cities",
    );
    expect(total).toBe(expected.length);
    expect(items.map((c) => c.id)).toEqual(expected.map((x) => x.city.id));
  });
});

describe("venues near a point, against brute force", () => {
  it.each(CIRCLES)("%s: every page and the total", async (_label, lat, lng, radius) => {
    const expected = venuesWithin(lat, lng, radius);
    const { total, items } = await allPages<VenueJson>(`/1.0/search/venues?${query(lat, lng, radius)}`, "venue");
    expect(total).toBe(expected.length);
    expect(items.map((v) => v.id)).toEqual(expected.map((x) => x.venue.id));
    items.forEach((v, i) => expect(v.distance).toBeCloseTo(expected[i]?.d ?? NaN, 1));
  });

  it.each([
    ["stadthalle", 48.2082, 16.3738, 100],
    ["club", 47.3769, 8.5417, 300],
    ["arena", 48.8566, 2.3522, 500],
  ] as const)("named %s: nearest first, then the name tiers, every page", async (name, lat, lng, radius) => {
    const expected = venuesWithin(lat, lng, radius, name);
    expect(expected.length).toBeGreaterThan(0);
    const { total, items } = await allPages<VenueJson>(
      `/1.0/search/venues?name=${name}&${query(lat, lng, radius)}`,
      "venue",
    );
    expect(total).toBe(expected.length);
    expect(items.map((v) => v.id)).toEqual(expected.map((x) => x.venue.id));
  });

  it("with a city filter: only that city's venues, each at its own point or its city's", async () => {
    const expected = venuesWithin(47.4, 8.5, 50).filter((x) => x.venue.city_id === "2657896");
    expect(expected.some((x) => x.venue.own === 1) && expected.some((x) => x.venue.own === 0)).toBe(true);
    const { total, items } = await allPages<VenueJson>(
      "/1.0/search/venues?cityId=2657896&lat=47.4&long=8.5&radius=50",
      "venue",
    );
    expect(total).toBe(expected.length);
    expect(items.map((v) => v.id)).toEqual(expected.map((x) => x.venue.id));
  });
});

describe("the answer's shape", () => {
  it("puts distance after url (venue) and after country (city) in JSON, and as an XML attribute", async () => {
    const venue = (
      (await (await getJson("/1.0/search/venues?lat=47.3769&long=8.5417")).json()) as { venue: VenueJson[] }
    ).venue[0];
    expect(Object.keys(venue ?? {}).at(-1)).toBe("distance");
    // After url comes the venue's own coords when it has them, then its kind.
    const keys = Object.keys(venue ?? {});
    expect(keys.slice(venue?.coords === undefined ? -3 : -4)).toEqual(
      venue?.coords === undefined ? ["url", "kind", "distance"] : ["url", "coords", "kind", "distance"],
    );
    const city = (
      (await (await getJson("/1.0/search/cities?lat=47.3769&long=8.5417")).json()) as { cities: CityJson[] }
    ).cities[0];
    expect(Object.keys(city ?? {})).toEqual(["id", "name", "state", "stateCode", "coords", "country", "distance"]);
    const { root } = parseXml(await (await getXml("/1.0/search/cities?lat=47.3769&long=8.5417")).text());
    expect(Number(root.children[0]?.attributes.distance)).toBe(city?.distance);
    const venues = parseXml(await (await getXml("/1.0/search/venues?lat=47.3769&long=8.5417")).text()).root;
    expect(Number(venues.children[0]?.attributes.distance)).toBe(venue?.distance);
  });

  it("shares a cache entry between coordinates equal to 4 decimals, and not otherwise", async () => {
    await (await getJson("/1.0/search/cities?lat=47.37690&long=8.54170&radius=60")).arrayBuffer();
    let hit = "";
    for (let i = 0; i < 50 && hit !== "HIT"; i++) {
      const res = await getJson("/1.0/search/cities?lat=47.376899&long=8.541701&radius=60.0");
      hit = res.headers.get("X-Cache") ?? "";
      await res.arrayBuffer();
    }
    expect(hit).toBe("HIT");
    const other = await getJson("/1.0/search/cities?lat=47.3771&long=8.5417&radius=60");
    expect(other.headers.get("X-Cache")).toBe("MISS");
  });

  it("answers 400 naming the parameter, in both formats", async () => {
    for (const [q, name] of [
      ["lat=91&long=0", "lat"],
      ["lat=0&long=200", "long"],
      ["lat=0&long=0&radius=600", "radius"],
      ["lat=1", "long"],
    ]) {
      const json = await getJson(`/1.0/search/venues?${q}`);
      expect(json.status).toBe(400);
      expect(((await json.json()) as { message: string }).message).toMatch(new RegExp(`^parameter ${name} `));
      const xml = await getXml(`/1.0/search/cities?${q}`);
      expect(xml.status).toBe(400);
      expect(parseXml(await xml.text()).root.children.find((c) => c.name === "message")?.text).toMatch(
        new RegExp(`^parameter ${name} `),
      );
    }
  });
});

describe("the circles above", () => {
  it("hold data where there is some, and none where there is none", () => {
    const counts = Object.fromEntries(CIRCLES.map(([label, lat, lng, r]) => [label, citiesWithin(lat, lng, r).length]));
    for (const label of [
      "central London, 10 km",
      "Paris, 100 km",
      "Zürich, 50 km",
      "Los Angeles, 25 km by default",
      "Sydney, 50 km",
    ]) {
      expect(counts[label], label).toBeGreaterThan(0);
    }
    expect(counts["Zürich, 300 km"]).toBeGreaterThan(5);
    expect(counts["Vienna, 500 km"]).toBeGreaterThan(counts["Zürich, 50 km"] ?? 0);
    expect(counts["the middle of the Atlantic, 100 km"]).toBe(0);
  });
});
