/**
 * Inside a box and venues of a kind (docs/api.md#inside-a-box, #venues-at-their-own-place), through
 * the worker: every page and the total of boxes (across the antimeridian, the whole world, with a
 * name and with filters) against a brute-force scan of the test data; the XML; the 400s naming
 * `bbox` and `kind`; the cache key.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { normalize } from "../../src/data-contract/normalize.ts";
import type { CityJson, VenueJson } from "../../src/shape.ts";
import { allPages, getJson, getXml, parseXml, type ErrorJson } from "./helpers.ts";
import { RESULT_WINDOW } from "../../src/params/window.ts";

interface Place {
  pos: number;
  id: string;
  name: string;
  lat: number;
  lng: number;
  country_code: string | null;
  kind: string | null;
}

let cities: Place[] = [];
let venues: Place[] = [];

beforeAll(async () => {
  cities = (await env.DB.prepare("SELECT pos, id, name, lat, lng, country_code, NULL AS kind FROM cities").all<Place>())
    .results;
  venues = (
    await env.DB.prepare(
      `SELECT v.pos, v.id, v.name, coalesce(v.lat, c.lat) AS lat, coalesce(v.lng, c.lng) AS lng, v.country_code, v.kind
       FROM venues v LEFT JOIN cities c ON c.pos = v.city_pos WHERE coalesce(v.lat, c.lat) IS NOT NULL`,
    ).all<Place>()
  ).results;
});

type Box = [west: number, south: number, east: number, north: number];

function inBox([west, south, east, north]: Box, p: Place): boolean {
  const lngIn = west <= east ? p.lng >= west && p.lng <= east : p.lng >= west || p.lng <= east;
  return p.lat >= south && p.lat <= north && lngIn;
}

/** Brute force: the ids inside the box that `keep` keeps, in pos order (the order without a name). */
const expected = (list: Place[], box: Box, keep: (p: Place) => boolean = () => true) =>
  list
    .filter((p) => inBox(box, p) && keep(p))
    .sort((a, b) => a.pos - b.pos)
    .map((p) => p.id);

const BOXES: [string, Box][] = [
  ["central Europe", [5, 45, 17, 55]],
  ["California", [-125, 32, -114, 42]],
  ["across the antimeridian", [170, -50, -170, 0]],
  ["the whole world", [-180, -90, 180, 90]],
  ["a line of longitude", [8.5417, -90, 8.5417, 90]],
];

describe("bbox: pages and totals", () => {
  it.each(BOXES)("cities in %s: every page and the total, in the default order", async (_label, box) => {
    const { total, items } = await allPages<CityJson>(`/1.0/search/cities?bbox=${box.join(",")}`, "cities");
    const want = expected(cities, box);
    expect(total).toBe(want.length);
    expect(items.map((c) => c.id)).toEqual(want);
    for (const c of items) expect(c.distance).toBeUndefined();
  });

  it.each(BOXES)("venues in %s: every page and the total", async (_label, box) => {
    const { total, items, windowed } = await allPages<VenueJson>(`/1.0/search/venues?bbox=${box.join(",")}`, "venue");
    const want = expected(venues, box);
    expect(total).toBe(want.length);
    // Beyond the window, a 400 (allPages checks it); the pages up to it hold the first of the order.
    expect(windowed).toBe(want.length > RESULT_WINDOW);
    expect(items.map((v) => v.id)).toEqual(windowed ? want.slice(0, items.length) : want);
  });

  it("combines with a country and with a kind", async () => {
    const box: Box = [5, 45, 17, 55];
    const de = await allPages<CityJson>(`/1.0/search/cities?bbox=${box.join(",")}&country=DE`, "cities");
    expect(de.items.map((c) => c.id)).toEqual(expected(cities, box, (p) => p.country_code === "DE"));
    const world: Box = [-180, -90, 180, 90];
    const arenas = await allPages<VenueJson>(`/1.0/search/venues?bbox=${world.join(",")}&kind=arena`, "venue");
    expect(arenas.total).toBeGreaterThan(0);
    expect(arenas.items.map((v) => v.id)).toEqual(expected(venues, world, (p) => p.kind === "arena"));
    expect(arenas.items.every((v) => v.kind === "arena")).toBe(true);
  });

  it("with a name: the name tiers first, every match inside", async () => {
    const box: Box = [5, 45, 17, 55];
    const { total, items } = await allPages<VenueJson>(`/1.0/search/venues?bbox=${box.join(",")}&name=halle`, "venue");
    const want = venues.filter(
      (p) =>
        inBox(box, p) &&
        normalize(p.name)
          .split(" ")
          .some((w) => w.startsWith("halle")),
    );
    expect(total).toBe(want.length);
    expect(new Set(items.map((v) => v.id))).toEqual(new Set(want.map((p) => p.id)));
    const tier = (name: string) => (normalize(name) === "halle" ? 0 : normalize(name).startsWith("halle") ? 1 : 2);
    const tiers = items.map((v) => tier(v.name));
    expect(tiers).toEqual([...tiers].sort((a, b) => a - b));
  });

  it("answers XML in the same order, without distances", async () => {
    const res = await getXml("/1.0/search/cities?bbox=5,45,17,55");
    expect(res.status).toBe(200);
    const { root } = parseXml(await res.text());
    const ids = root.children.map((c) => c.attributes.id);
    expect(ids).toEqual(expected(cities, [5, 45, 17, 55]).slice(0, 50));
    expect(root.children.every((c) => c.attributes.distance === undefined)).toBe(true);
  });

  it("is 404 for an empty box and a page past the end, 400 for a page beyond the window", async () => {
    expect((await getJson("/1.0/search/cities?bbox=-40,-60,-39,-59")).status).toBe(404);
    expect((await getJson("/1.0/search/cities?bbox=5,45,17,55&p=20")).status).toBe(404);
    // Beyond the window of a search that cannot seek: a 400 naming it (docs/api.md#what-one-request-may-cost).
    const beyond = await getJson("/1.0/search/cities?bbox=5,45,17,55&p=21");
    expect(beyond.status).toBe(400);
    expect(((await beyond.json()) as ErrorJson).message).toBe(
      "parameter p must be at most 20 for a search in an area: such a search serves its first 1,000 cities; " +
        "narrow it (more words, a smaller area, a country or a state code) to reach the others",
    );
  });
});

describe("bbox: errors and the cache key", () => {
  it.each(["1,2,3", "a,b,c,d", "-181,0,10,10", "0,-91,10,10", "0,20,10,10", "0,0,10,10,5", "1e1,0,10,10"])(
    "rejects bbox=%s with a 400 naming it",
    async (value) => {
      const res = await getJson(`/1.0/search/venues?bbox=${value}`);
      expect(res.status).toBe(400);
      expect(((await res.json()) as ErrorJson).message).toContain("parameter bbox");
    },
  );

  it("rejects bbox together with lat and long", async () => {
    const res = await getJson("/1.0/search/cities?bbox=5,45,17,55&lat=47&long=8");
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorJson).message).toBe("parameter bbox cannot be combined with lat and long");
  });

  it("shares a cache entry between boxes equal to 5 decimals", async () => {
    await getJson("/1.0/search/cities?bbox=5,45,17,55");
    const again = await getJson("/1.0/search/cities?bbox=5.000001,45,17,55.0000");
    expect(again.headers.get("X-Cache")).toBe("HIT");
  });
});

describe("kind", () => {
  it("keeps the venues of a kind, in any spelling of it, with stored totals per country", async () => {
    const clubs = venues.filter((v) => v.kind === "club");
    const res = await getJson("/1.0/search/venues?kind=Club");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { total: number; venue: VenueJson[] };
    const all = (await env.DB.prepare("SELECT count(*) AS n FROM venues WHERE kind = 'club'").first<{ n: number }>())
      ?.n;
    expect(body.total).toBe(all);
    expect(clubs.length).toBeGreaterThan(0);
    expect(body.venue.every((v) => v.kind === "club")).toBe(true);
    const de = await allPages<VenueJson>("/1.0/search/venues?kind=club&country=DE", "venue");
    const inDe = await env.DB.prepare(
      "SELECT id FROM venues WHERE kind = 'club' AND country_code = 'DE' ORDER BY pos",
    ).all<{
      id: string;
    }>();
    expect(de.items.map((v) => v.id)).toEqual(inDe.results.map((r) => r.id));
    expect(de.total).toBe(inDe.results.length);
  });

  it("combines with a name", async () => {
    const { items } = await allPages<VenueJson>("/1.0/search/venues?kind=arena&name=arena", "venue");
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((v) => v.kind === "arena" && normalize(v.name).includes("arena"))).toBe(true);
  });

  it("rejects an unknown kind with a 400 naming it; a city search ignores it", async () => {
    const res = await getJson("/1.0/search/venues?kind=disco");
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorJson).message).toMatch(/^parameter kind must be one of: venue, club/);
    expect((await getJson("/1.0/search/cities?kind=disco&name=berlin")).status).toBe(200);
  });
});
