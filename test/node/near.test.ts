/**
 * Searches near a point on dense data, against brute force: the worker's own statements
 * (src/queries) run on an imported SQLite file of 40,000 cities — the fixture's, and synthetic
 * ones around each (scripts/bench/synthetic-cities.ts) — so that a page is found in a smaller circle
 * than the search's, which the worker tests' few fixture cities never need. Every page and the
 * total of each circle are compared with a scan of all cities, measured with the haversine
 * formula written out again (test/support). The query classes' plans are checked here too, on
 * this SQLite.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSearchParams } from "../../src/params/search.ts";
import { CITIES } from "../../src/query/cities.ts";
import { withPageCircle } from "../../src/geo/curve.ts";
import { runSearch, type ResourceQueries, type Runner } from "../../src/query/search.ts";
import { sql } from "../../src/sql/sql.ts";
import { VENUES } from "../../src/query/venues.ts";
import { Progress } from "../../scripts/import/progress.ts";
import { runImport } from "../../scripts/import/run.ts";
import { writeSyntheticCities } from "../../scripts/bench/synthetic-cities.ts";
import { classScans } from "../../scripts/bench/raw-sql.ts";
import { QUERY_CLASSES } from "../../scripts/bench/query-classes.ts";
import { fixture } from "../support/seed.ts";
import { km } from "../support/haversine.ts";

const dir = mkdtempSync(join(tmpdir(), "vcs-near-"));
const path = join(dir, "near.sqlite");
let db: Database.Database;

interface City {
  pos: number;
  lat: number;
  lng: number;
  first: number | null;
  n: number;
}
let cities: City[] = [];
const runner: Runner = {
  run: (_what, list) =>
    Promise.resolve(list.map((s) => ({ rows: db.prepare(s.text).all(...s.binds) as Record<string, unknown>[] }))),
};

beforeAll(async () => {
  const citiesFile = join(dir, "cities.txt");
  await writeSyntheticCities({ source: fixture("cities.txt"), out: citiesFile, count: 40_000, seed: "near" });
  await runImport(
    {
      cities: citiesFile,
      admin1: fixture("admin1CodesASCII.txt"),
      countries: fixture("countryInfo.txt"),
      localized: fixture("localized-names.tsv"),
      venueCount: 20_000,
      target: { kind: "file", path },
    },
    new Progress(process.stderr, true),
  );
  db = new Database(path, { readonly: true });
  cities = db.prepare("SELECT pos, lat, lng, venue_first AS first, venue_count AS n FROM cities").all() as City[];
}, 120_000);

afterAll(() => db.close());

function within(lat: number, lng: number, radius: number): (City & { d: number })[] {
  return cities
    .map((c) => ({ ...c, d: km(lat, lng, c.lat, c.lng) }))
    .filter((c) => c.d <= radius)
    .sort((a, b) => a.d - b.d || a.pos - b.pos);
}

/** Every page of a search, as ids, and its total. */
async function everyPage<R extends { id: string }>(
  q: ResourceQueries<R>,
  query: string,
): Promise<{ total: number; ids: string[] }> {
  const ids: string[] = [];
  let total: number;
  for (let page = 1; ; page++) {
    const p = parseSearchParams(q.resource, `${query}&p=${page}`);
    const answer = await runSearch(q, runner, p, "en");
    total = answer.total;
    if (answer.items.length === 0) break;
    ids.push(...answer.items.map((r) => r.id));
  }
  return { total, ids };
}

const cityId = (pos: number) => (db.prepare("SELECT id FROM cities WHERE pos = ?").pluck().get(pos) as string) ?? "";
const venueIds = (c: City) =>
  c.first === null
    ? []
    : (db
        .prepare("SELECT id FROM venues WHERE pos >= ? AND pos < ? ORDER BY pos")
        .pluck()
        .all(c.first, c.first + c.n) as string[]);

const CIRCLES: [string, number, number, number][] = [
  ["Paris, 100 km", 48.8566, 2.3522, 100],
  ["Paris, 30 km", 48.8566, 2.3522, 30],
  ["Paris, 3 km", 48.8566, 2.3522, 3],
  ["London, 10 km", 51.5074, -0.1278, 10],
  ["Zürich, 500 km", 47.3769, 8.5417, 500],
  ["Sydney, 60 km", -33.8688, 151.2093, 60],
  ["Fiji, across the antimeridian, 200 km", -17.7, 179.6, 200],
  ["off a cluster's edge, 40 km", 49.3, 2.9, 40],
];

describe("near a point on dense data, against brute force", () => {
  it("the data is dense: a page of the Paris circle is found in a smaller circle", () => {
    expect(cities.length).toBe(40_000);
    expect(within(48.8566, 2.3522, 25).length).toBeGreaterThan(50);
  });

  it.each(CIRCLES)("cities, %s: every page and the total", async (_label, lat, lng, radius) => {
    const expected = within(lat, lng, radius);
    const { total, ids } = await everyPage(CITIES, `lat=${lat}&long=${lng}&radius=${radius}`);
    expect(total).toBe(expected.length);
    expect(ids).toEqual(expected.map((c) => cityId(c.pos)));
  });

  it.each(CIRCLES)("venues, %s: every page and the total", async (_label, lat, lng, radius) => {
    const expected = within(lat, lng, radius).flatMap(venueIds);
    const { total, ids } = await everyPage(VENUES, `lat=${lat}&long=${lng}&radius=${radius}`);
    expect(total).toBe(expected.length);
    expect(ids).toEqual(expected);
  });

  it("looks for page 1 of a big circle in a smaller one, and for its last page in the whole circle", () => {
    const near = { lat: 48.8566, lng: 2.3522, radiusKm: 100 };
    const circleOf = (page: number) => {
      const chosen = withPageCircle(near, "z_cities", page * 50, sql`SELECT j FROM circle`);
      return db
        .prepare(chosen.text)
        .pluck()
        .get(...chosen.binds) as number;
    };
    expect(circleOf(1)).toBeGreaterThan(0);
    expect(circleOf(Math.ceil(within(near.lat, near.lng, near.radiusKm).length / 50))).toBe(0);
  });
});

describe("query plans on another SQLite", () => {
  // The plan test runs inside workerd; this SQLite (better-sqlite3's) is another version, which
  // chose another plan once (a page's records by scanning every venue): no statistics, no scans.
  it.each(QUERY_CLASSES.map((c) => [c.id, c] as const))("%s seeks or matches here too", async (_id, c) => {
    expect(await classScans(db, c)).toEqual([]);
  });
});
