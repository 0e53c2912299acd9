/**
 * Searches in an area on dense data, against brute force: the worker's own statements (src/query,
 * src/geo) run on an imported SQLite file of 40,000 cities — the fixture's, and synthetic ones
 * around each (scripts/bench/synthetic-cities.ts) — and 20,000 generated venues, each at a point
 * of its own, with a small cell-count minimum so that the stored cells nest many levels deep.
 * Every page and the total of circles and boxes (with a name of one word, several words, a kind, a
 * country) are compared with a scan of every record, measured with the haversine formula written
 * out again (test/support). Which records a name or a kind matches comes from the search index
 * itself (the tokenizer is tested on its own): what is tested here is where they are. The query
 * classes' plans are checked here too, on this SQLite, and that SQLite (workerd's version) does not
 * compile their statements again each time they run.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSearchParams } from "../../src/params/search.ts";
import { ITEMS_PER_PAGE } from "../../src/params/paging.ts";
import { lastPageInWindow } from "../../src/params/window.ts";
import { CITIES } from "../../src/query/cities.ts";
import type { ResourceQueries, Runner } from "../../src/query/resource.ts";
import { runSearch } from "../../src/query/search.ts";
import { VENUES } from "../../src/query/venues.ts";
import { Progress } from "../../scripts/import/progress.ts";
import { runImport } from "../../scripts/import/run.ts";
import { writeSyntheticCities } from "../../scripts/bench/synthetic-cities.ts";
import { classScans, missStatements, rowsOf } from "../../scripts/bench/raw-sql.ts";
import { QUERY_CLASSES } from "../../scripts/bench/query-classes.ts";
import { fixture } from "../support/seed.ts";
import { km } from "../support/haversine.ts";
import { openCopy } from "../support/recompiles.ts";
import { classKeys, nameTiers } from "../support/class-keys.ts";

const dir = mkdtempSync(join(tmpdir(), "vcs-near-"));
const path = join(dir, "near.sqlite");
let db: Database.Database;

interface Place {
  pos: number;
  id: string;
  lat: number;
  lng: number;
  country: string;
}
const places: Record<"cities" | "venues", Place[]> = { cities: [], venues: [] };
const runner: Runner = {
  run: (_what, list) => Promise.resolve(rowsOf(db, list)),
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
      cellCountMin: 6,
      target: { kind: "file", path },
    },
    new Progress(process.stderr, true),
  );
  db = new Database(path, { readonly: true });
  places.cities = db.prepare("SELECT pos, id, lat, lng, country_code AS country FROM cities").all() as Place[];
  places.venues = db
    .prepare(
      `SELECT v.pos, v.id, coalesce(v.lat, c.lat) AS lat, coalesce(v.lng, c.lng) AS lng, v.country_code AS country
       FROM venues v LEFT JOIN cities c ON c.pos = v.city_pos WHERE coalesce(v.lat, c.lat) IS NOT NULL`,
    )
    .all() as Place[];
}, 180_000);

afterAll(() => db.close());

/** The pos of every record an FTS5 text matches (the index's own answer). */
function matching(resource: "cities" | "venues", text: string): Set<number> {
  const fts = `${resource}_fts`;
  return new Set(db.prepare(`SELECT rowid FROM ${fts} WHERE ${fts} MATCH ?`).pluck().all(text) as number[]);
}

type Area = { lat: number; lng: number; radius: number } | { west: number; south: number; east: number; north: number };

function inside(area: Area, p: Place): number | null {
  if ("radius" in area) {
    const d = km(area.lat, area.lng, p.lat, p.lng);
    return d <= area.radius ? d : null;
  }
  const lngIn =
    area.west <= area.east ? p.lng >= area.west && p.lng <= area.east : p.lng >= area.west || p.lng <= area.east;
  return p.lat >= area.south && p.lat <= area.north && lngIn ? 0 : null;
}

/** Brute force: the records in the area that `keep` keeps, nearest first (then by name tier and pos), as ids. */
function expected(
  resource: "cities" | "venues",
  area: Area,
  keep: (p: Place) => boolean,
  tier: (pos: number) => number,
) {
  return places[resource]
    .filter(keep)
    .map((p) => ({ p, d: inside(area, p) }))
    .filter((x): x is { p: Place; d: number } => x.d !== null)
    .sort((a, b) => a.d - b.d || tier(a.p.pos) - tier(b.p.pos) || a.p.pos - b.p.pos)
    .map((x) => x.p.id);
}

/**
 * Every page the API serves and the total: a search in an area serves the pages of its window
 * (docs/api.md#what-one-request-may-cost; the endpoint refuses the others), so `ids` are the first
 * of the order, all of them when it holds fewer.
 */
async function everyPage<R extends { id: string }>(q: ResourceQueries<R>, query: string) {
  const ids: string[] = [];
  let total = 0;
  let totalAtLeast = false;
  for (let page = 1; page <= lastPageInWindow(q.resource); page++) {
    const answer = await runSearch(q, runner, parseSearchParams(q.resource, `${query}&p=${page}`), "en");
    total = answer.total;
    totalAtLeast ||= answer.totalAtLeast === true;
    if (answer.items.length === 0) break;
    ids.push(...answer.items.map((r) => r.id));
  }
  return { total, ids, totalAtLeast };
}

/**
 * What the pages served hold against brute force (`ordered`): its first records up to the window,
 * and its total (at most it when the search said its total is a lower bound).
 */
function expectServed(
  resource: "cities" | "venues",
  served: { total: number; ids: string[]; totalAtLeast: boolean },
  ordered: readonly string[],
): void {
  if (served.totalAtLeast) expect(served.total).toBeLessThanOrEqual(ordered.length);
  else expect(served.total).toBe(ordered.length);
  expect(served.ids).toEqual(ordered.slice(0, lastPageInWindow(resource) * ITEMS_PER_PAGE[resource]));
}

const areaQuery = (a: Area) =>
  "radius" in a ? `lat=${a.lat}&long=${a.lng}&radius=${a.radius}` : `bbox=${a.west},${a.south},${a.east},${a.north}`;

const AREAS: [string, Area][] = [
  ["Paris, 100 km", { lat: 48.8566, lng: 2.3522, radius: 100 }],
  ["Paris, 3 km", { lat: 48.8566, lng: 2.3522, radius: 3 }],
  ["London, 10 km", { lat: 51.5074, lng: -0.1278, radius: 10 }],
  ["Zürich, 500 km", { lat: 47.3769, lng: 8.5417, radius: 500 }],
  ["Fiji, across the antimeridian, 200 km", { lat: -17.7, lng: 179.6, radius: 200 }],
  // Further from the centre of the box of the world's records than any of its corners.
  ["Sydney, 25 km", { lat: -33.87, lng: 151.21, radius: 25 }],
  ["off a cluster's edge, 40 km", { lat: 49.3, lng: 2.9, radius: 40 }],
  ["a box around Paris", { west: 1.5, south: 48.4, east: 3.3, north: 49.3 }],
  ["a box over western Europe", { west: -10, south: 35, east: 20, north: 60 }],
  ["a thin box", { west: 2.34, south: 40, east: 2.36, north: 55 }],
  ["a box across the antimeridian", { west: 170, south: -30, east: -170, north: 0 }],
  ["the whole world", { west: -180, south: -90, east: 180, north: 90 }],
];

const all = () => true;
const noTier = () => 0;

describe("in an area on dense data, against brute force", () => {
  it("the data is dense and nests: a page near Paris is found in a smaller circle", () => {
    expect(places.cities.length).toBe(40_000);
    const deep = db.prepare("SELECT max(level) FROM cell_counts").pluck().get() as number;
    expect(deep).toBeGreaterThanOrEqual(10);
  });

  it.each(AREAS)("cities, %s: every page and the total", async (_label, area) => {
    const want = expected("cities", area, all, noTier);
    expectServed(
      "cities",
      await everyPage(CITIES, areaQuery(area)),
      "radius" in area ? want : sortedByPos("cities", want),
    );
  });

  it.each(AREAS)("venues, %s: every page and the total", async (_label, area) => {
    const want = expected("venues", area, all, noTier);
    expectServed(
      "venues",
      await everyPage(VENUES, areaQuery(area)),
      "radius" in area ? want : sortedByPos("venues", want),
    );
  });

  it.each(AREAS.slice(0, 8))("cities named s…, %s (counted cells): every page and the total", async (_label, area) => {
    await checkName("cities", CITIES, area, "s");
  });

  it.each(AREAS.slice(0, 8))("venues named th…, %s (counted cells): every page and the total", async (_l, area) => {
    await checkName("venues", VENUES, area, "th");
  });

  it.each(AREAS.slice(0, 8))("venues named the club, %s (scanned): every page and the total", async (_l, area) => {
    await checkName("venues", VENUES, area, "the club");
  });

  it.each(AREAS.slice(0, 8))("clubs, %s (counted by kind): every page and the total", async (_l, area) => {
    const club = matching("venues", '"__k_club"');
    const want = expected("venues", area, (p) => club.has(p.pos), noTier);
    const served = await everyPage(VENUES, `${areaQuery(area)}&kind=club`);
    expectServed("venues", served, "radius" in area ? want : sortedByPos("venues", want));
  });

  it.each(AREAS.slice(0, 8))("cities in France, %s (scanned): every page and the total", async (_l, area) => {
    const want = expected("cities", area, (p) => p.country === "FR", noTier);
    const served = await everyPage(CITIES, `${areaQuery(area)}&country=FR`);
    expectServed("cities", served, "radius" in area ? want : sortedByPos("cities", want));
  });
});

/** Ids in pos order (a box's order without a name). */
function sortedByPos(resource: "cities" | "venues", ids: string[]): string[] {
  const pos = new Map(places[resource].map((p) => [p.id, p.pos]));
  return [...ids].sort((a, b) => (pos.get(a) ?? 0) - (pos.get(b) ?? 0));
}

/** The population of a record at pos: a city's, a venue's city's. */
function populationOf(resource: "cities" | "venues"): (pos: number) => number {
  const sql =
    resource === "cities"
      ? "SELECT population FROM cities WHERE pos = ?"
      : "SELECT c.population FROM venues v JOIN cities c ON c.pos = v.city_pos WHERE v.pos = ?";
  const one = db.prepare(sql).pluck();
  return (pos) => (one.get(pos) as number | undefined) ?? 0;
}

/** A name search in an area against brute force: near a point by distance, then class and tier; in a box by class, tier and pos. */
async function checkName<R extends { id: string }>(
  resource: "cities" | "venues",
  q: ResourceQueries<R>,
  area: Area,
  name: string,
): Promise<void> {
  const words = name.split(" ");
  const found = matching(resource, words.map((w) => `"${w}"*`).join(" "));
  const tiers = await nameTiers((text) => matching(resource, text), resource, words);
  const inArea = places[resource].filter((p) => found.has(p.pos) && inside(area, p) !== null).map((p) => p.pos);
  const tier = classKeys(inArea, tiers, populationOf(resource));
  const served = await everyPage(q, `${areaQuery(area)}&name=${encodeURIComponent(name)}`);
  const want = expected(resource, area, (p) => found.has(p.pos), tier);
  if ("radius" in area) {
    expectServed(resource, served, want);
    return;
  }
  const pos = new Map(places[resource].map((p) => [p.id, p.pos]));
  const byTier = [...want].sort((a, b) => {
    const [pa, pb] = [pos.get(a) ?? 0, pos.get(b) ?? 0];
    return tier(pa) - tier(pb) || pa - pb;
  });
  expectServed(resource, served, byTier);
}

describe("query plans on another SQLite", () => {
  // The plan test runs inside workerd; this SQLite (better-sqlite3's) is another version, which
  // chose another plan once (a page's records by scanning every venue): no statistics, no scans.
  it.each(QUERY_CLASSES.map((c) => [c.id, c] as const))("%s seeks or matches here too", async (_id, c) => {
    expect(await classScans(db, c)).toEqual([]);
  });
});

describe("statements that stay compiled", () => {
  // workerd keeps a statement prepared; a plan that depends on a bound value (a bare `LIMIT ?`,
  // an `x = ?` compared with another expression) makes SQLite compile it again on every run.
  it("SQLite compiles no statement of any class again when it runs again", async () => {
    const copy = await openCopy(path);
    try {
      const recompiled: string[] = [];
      for (const c of QUERY_CLASSES) {
        for (const s of await missStatements(db, c)) {
          const n = copy.count(s);
          if (n > 0) recompiled.push(`${c.id}: ${n} × ${s.text.slice(0, 80)}`);
        }
      }
      expect(recompiled).toEqual([]);
    } finally {
      copy.close();
    }
  });
});
