/**
 * Issue 62: the first result is the one a person means. Every page of the searches of many texts
 * (whole names of cities, their other names, starts of names, words of two names), strict, with and
 * without filters and a box, against a brute force that sorts every match by the rule of
 * docs/api.md#order (test/support/order-brute-force.ts): own names first, the far larger found by
 * another name among them, each class by its best tier, then pos. Run by the worker's own modules on
 * the imported file (as npm run sql runs them).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runImport } from "../../scripts/import/run.ts";
import { inCover } from "../../src/geo/area.ts";
import { localRunner } from "../../scripts/sql/explain.ts";
import { random } from "../../scripts/tools/random.ts";
import { parseSearchParams } from "../../src/params/search.ts";
import { CITIES } from "../../src/query/cities.ts";
import { runSearch } from "../../src/query/search.ts";
import { VENUES } from "../../src/query/venues.ts";
import { bruteForceData, textsOf } from "../support/brute-force-data.ts";
import { dir, quiet } from "../support/import-fixtures.ts";
import { defaultSources } from "../../scripts/import/sources/resolve.ts";
import { mayHold, searchOrder } from "../support/order-brute-force.ts";
import { citiesOf, type Ask, type Candidate } from "../support/suggest-brute-force.ts";

let db: Database.Database;
let cities: Candidate[] = [];
let venues: Candidate[] = [];

beforeAll(async () => {
  const path = join(dir, "order-brute-force.sqlite");
  const data = bruteForceData(path);
  [cities, venues] = [data.cities, data.venues];
  await runImport(data.options, quiet);
  db = new Database(path, { readonly: true });
}, 120_000);
afterAll(() => db.close());

function queryOf(a: Ask, page: number): string {
  const parts = [`name=${encodeURIComponent(a.text)}`, "typos=0", "places=0", `p=${page}`];
  if (a.country !== undefined) parts.push(`country=${a.country}`);
  if (a.bbox !== undefined) parts.push(`bbox=${a.bbox.join(",")}`);
  return parts.join("&");
}

/** Every page of a search: its total and the ids in order. */
async function everyPage(
  resource: "venues" | "cities",
  a: Ask,
  from: Database.Database = db,
): Promise<{ total: number; ids: string[] }> {
  const q = resource === "venues" ? VENUES : CITIES;
  const ids: string[] = [];
  let total = 0;
  for (let page = 1; page === 1 || ids.length < total; page++) {
    const found = await runSearch<{ id: string }>(
      q,
      localRunner(from),
      parseSearchParams(resource, queryOf(a, page)),
      "en",
    );
    total = found.total;
    if (found.items.length === 0) break;
    ids.push(...found.items.map((r) => r.id));
  }
  return { total, ids };
}

/** Compares every page of every ask; the counts of texts whose order the classes change. */
async function check(resource: "venues" | "cities", asks: readonly Ask[]) {
  const records = resource === "venues" ? venues : cities;
  let reordered = 0;
  let promoted = 0;
  for (const a of asks) {
    const expected = searchOrder(records, resource, a);
    const got = await everyPage(resource, a);
    const what = `${resource} ${queryOf(a, 1)}`;
    expect(got.total, what).toBe(expected.length);
    expect(got.ids, what).toEqual(expected.map((r) => r.id));
    const before = [...expected].sort((x, y) => x.tier - y.tier || x.pos - y.pos);
    if (before.some((r, i) => r.id !== expected[i]?.id)) reordered++;
    if (expected.some((r) => r.promoted)) promoted++;
  }
  return { reordered, promoted };
}

/** Whole names of the cities (their GeoNames names and some of their other names), as people type them. */
function wholeNames(count: number): string[] {
  const next = random("whole names");
  const texts = new Set<string>();
  for (const c of cities) {
    texts.add(c.names[0]?.[0] ?? "");
    const other = c.names[2 + Math.floor(next() * Math.max(1, c.names.length - 2))]?.[0];
    if (other !== undefined) texts.add(other);
  }
  return [...texts].filter((t) => t !== "").slice(0, count);
}

describe("the order of every page against a brute force (own names first)", () => {
  it("cities: whole names and other names", async () => {
    const { promoted } = await check(
      "cities",
      wholeNames(220).map((text) => ({ text })),
    );
    expect(promoted).toBeGreaterThan(0);
  });

  it("cities: starts of names, words of two names, one letter (the anchored pages of broad words)", async () => {
    const texts = [...textsOf(cities, 150, 11), "s", "b", "sa", "m", "new"];
    await check(
      "cities",
      texts.map((text) => ({ text })),
    );
  });

  it("cities with a country or a box", async () => {
    const asks: Ask[] = [...wholeNames(120), ...textsOf(cities, 60, 12)].map((text, i) => ({
      text,
      ...(i % 2 === 0 ? { country: "US" } : { bbox: [-125, 25, -65, 50] as Ask["bbox"] }),
    }));
    await check("cities", asks);
  });

  it("cities and venues in a box of the whole world, and across the antimeridian round it (the grid's every cell)", async () => {
    const world: Ask["bbox"][] = [
      [-180, -90, 180, 90],
      [0, -85, -0.001, 85],
    ];
    // The cities' texts leave the cells out (every city has a place); the venues' keep them.
    expect(inCover('"a"*', { west: -180, south: -90, east: 180, north: 90 }, true)).toBe('("a"*)');
    expect(inCover('"a"*', { west: 0, south: -85, east: -0.001, north: 85 }, false)).toContain('"__g2_15"');
    const asks = (texts: string[]) => texts.flatMap((text, i) => [{ text, bbox: world[i % 2] }]);
    await check("cities", asks([...wholeNames(40), ...textsOf(cities, 30, 14), "s", "a e", "b", "new"]));
    await check("venues", asks([...textsOf(venues, 40, 15), "s", "a e", "the"]));
  });

  it("venues: names, other names, their starts; with a country or a box", async () => {
    const texts = textsOf(venues, 200, 13);
    const { reordered } = await check("venues", [
      ...texts.map((text) => ({ text })),
      ...texts.slice(0, 80).map((text, i) => ({
        text,
        ...(i % 2 === 0 ? { country: "US" } : { bbox: [-125, 25, -65, 50] as Ask["bbox"] }),
      })),
    ]);
    expect(reordered).toBeGreaterThan(5);
  });
});

/** The texts the issue tried, and the whole names of the largest cities. */
const TRIED = "porto manhattan susa montalban come delhi moscow cairo peking leningrad bombay madras saigon".split(" ");

describe("the order on the real GeoNames cities (cities500): whole names of the largest cities", () => {
  let real: Database.Database;
  let subset: Candidate[] = [];
  let texts: string[] = [];

  beforeAll(async () => {
    const sources = defaultSources();
    const all = citiesOf(sources.cities, sources.localized);
    const candidates = mayHold(all);
    texts = [...new Set([...all.slice(0, 300).map((c) => c.names[0]?.[0] ?? ""), ...TRIED, "new york", "san pedro"])];
    const ids = new Set(texts.flatMap((t) => searchOrder(candidates(t), "cities", { text: t }).map((r) => r.id)));
    const lines = readFileSync(sources.cities, "utf8")
      .split("\n")
      .filter((l) => ids.has(l.slice(0, l.indexOf("\t"))));
    const file = join(dir, "cities500-subset.txt");
    writeFileSync(file, `${lines.join("\n")}\n`);
    subset = citiesOf(file, sources.localized);
    const path = join(dir, "order-real.sqlite");
    await runImport(
      { ...sources, cities: file, venueCount: 0, prefixCountMin: 50, target: { kind: "file", path } },
      quiet,
    );
    real = new Database(path, { readonly: true });
  }, 300_000);
  afterAll(() => real.close());

  it("every page of each whole name is the brute force's order", async () => {
    let reordered = 0;
    let promoted = 0;
    for (const text of texts) {
      const expected = searchOrder(subset, "cities", { text });
      const got = await everyPage("cities", { text }, real);
      expect(got.ids, text).toEqual(expected.map((r) => r.id));
      const before = [...expected].sort((x, y) => x.tier - y.tier || x.pos - y.pos);
      if (before.some((r, i) => r.id !== expected[i]?.id)) reordered++;
      if (expected.some((r) => r.promoted)) promoted++;
    }
    // The order the classes change, and the far larger ones kept first (bombay, madras, saigon, …).
    expect(reordered).toBeGreaterThan(20);
    expect(promoted).toBeGreaterThanOrEqual(3);
  });
});
