/**
 * Issue 49: suggestions a person can trust. The suggestions of many texts — prefixes of every
 * name, words taken from two different names of one record (the strays: "new" of one name and "y"
 * of another), words of two records — at limits 1–20, with and without a focus and filters, against
 * a brute-force scorer over every record of the source files (test/support/suggest-brute-force.ts):
 * the first `limit` of one order, whatever the limit, and every suggestion holding the words in
 * one of its names, each typed word a word of its own (issue 55); and the searches' totals and
 * pages of such texts. Run by the worker's own modules on the imported file (as npm run sql runs them).
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normalize, words } from "../../src/data-contract/normalize.ts";
import { VENUE_KINDS } from "../../src/data-contract/venue-kinds.ts";
import { runImport } from "../../scripts/import/run.ts";
import { random } from "../../scripts/tools/random.ts";
import { localRunner } from "../../scripts/sql/explain.ts";
import { CITIES } from "../../src/query/cities.ts";
import { VENUES } from "../../src/query/venues.ts";
import { parseSuggestParams } from "../../src/suggest/params.ts";
import { runSuggest } from "../../src/suggest/suggest.ts";
import { runSearch } from "../../src/query/search.ts";
import { parseSearchParams } from "../../src/params/search.ts";
import { dir, FIXTURES, quiet } from "../support/import-fixtures.ts";
import { textsOf, venueRows, writeVenues } from "../support/brute-force-data.ts";
import {
  bruteForce,
  citiesOf,
  venuesOf,
  type Ask,
  type Candidate,
  type Scored,
} from "../support/suggest-brute-force.ts";

/** Whether every typed word starts a word of one of the record's names, some word read twice. */
const readTwice = (r: Candidate, text: string): boolean => {
  const typed = words(normalize(text));
  return r.names.some((forms) => forms.some((f) => typed.every((w) => words(f).some((o) => o.startsWith(w)))));
};

function queryOf(a: Ask, limit: number): string {
  const parts = [`name=${encodeURIComponent(a.text)}`, "typos=0", "places=0", `limit=${limit}`];
  if (a.focus) parts.push(`lat=${a.focus.lat}`, `long=${a.focus.lng}`);
  if (a.country) parts.push(`country=${a.country}`);
  if (a.stateCode) parts.push(`stateCode=${a.stateCode}`);
  if (a.kind) parts.push(`kind=${encodeURIComponent(a.kind)}`);
  if (a.cityId) parts.push(`cityId=${a.cityId}`);
  if (a.bbox) parts.push(`bbox=${a.bbox.join(",")}`);
  return parts.join("&");
}

/**
 * The endpoint's list against the brute force's first `limit`: the same records in the same
 * order, but where two scores are equal to the last bits (SQLite's log10 and JavaScript's may round
 * a tie apart), and every one of them matched.
 */
function sameOrder(actual: readonly string[], expected: readonly Scored[], limit: number, what: string): void {
  const scores = new Map(expected.map((s) => [s.id, s.score]));
  const first = expected.slice(0, limit);
  expect(actual.length, what).toBe(first.length);
  actual.forEach((id, i) => {
    expect(scores.has(id), `${what}: ${id} does not match`).toBe(true);
    const want = first[i];
    if (want !== undefined && id !== want.id)
      expect(Math.abs((scores.get(id) ?? 0) - want.score), what).toBeLessThan(1e-9);
  });
}

interface Setup {
  db: Database.Database;
  cities: Candidate[];
  venues: Candidate[];
}

const setup: Setup = { db: undefined as unknown as Database.Database, cities: [], venues: [] };

beforeAll(async () => {
  setup.cities = citiesOf(FIXTURES.cities, FIXTURES.localized);
  const rows = venueRows(setup.cities, 600);
  setup.venues = venuesOf(rows, setup.cities);
  const path = join(dir, "suggest-brute-force.sqlite");
  await runImport(
    { ...FIXTURES, venues: [writeVenues(rows)], prefixCountMin: 20, target: { kind: "file", path } },
    quiet,
  );
  setup.db = new Database(path, { readonly: true });
}, 120_000);
afterAll(() => setup.db.close());

/** The endpoint's suggestions; with `wholeWay` 0, every way read by its parts (src/suggest/candidates.ts). */
async function suggested(resource: "venues" | "cities", a: Ask, limit: number, wholeWay?: number): Promise<string[]> {
  const q = resource === "venues" ? VENUES : CITIES;
  const page = await runSuggest<{ id: string }>(
    q,
    localRunner(setup.db),
    parseSuggestParams(resource, queryOf(a, limit)),
    "en",
    wholeWay === undefined ? {} : { wholeWay },
  );
  return page.items.map((r) => r.id);
}

/** The searches' total and first page of a text (strict), with the brute force's matches. */
async function searched(resource: "venues" | "cities", text: string): Promise<{ total: number; ids: string[] }> {
  const q = resource === "venues" ? VENUES : CITIES;
  const query = `name=${encodeURIComponent(text)}&typos=0&places=0`;
  const page = await runSearch<{ id: string }>(q, localRunner(setup.db), parseSearchParams(resource, query), "en");
  return { total: page.total, ids: page.items.map((r) => r.id) };
}

/**
 * Every text of `asks`: limit 20 against the brute force, its ways read whole where they are small
 * and every way by its parts; and a smaller limit its first ones.
 */
async function check(resource: "venues" | "cities", asks: readonly Ask[]): Promise<number> {
  const records = resource === "venues" ? setup.venues : setup.cities;
  const next = random("limits");
  let compared = 0;
  for (const a of asks) {
    const expected = bruteForce(records, resource, a);
    const full = await suggested(resource, a, 20);
    sameOrder(full, expected, 20, `${resource} ${queryOf(a, 20)}`);
    sameOrder(await suggested(resource, a, 20, 0), expected, 20, `${resource} ${queryOf(a, 20)}, by parts`);
    const limit = 1 + Math.floor(next() * 19);
    expect(await suggested(resource, a, limit), `${resource} ${queryOf(a, limit)}`).toEqual(full.slice(0, limit));
    compared++;
  }
  return compared;
}

const FOCUS = [
  { lat: 34.05, lng: -118.24 }, // Los Angeles
  { lat: 37.77, lng: -122.42 }, // San Francisco
  { lat: 42.5, lng: 1.52 }, // Andorra
  { lat: 52.52, lng: 13.4 }, // Berlin
];

describe("suggestions against a brute force over every record", () => {
  it("cities: the first `limit` of one order, every one holding the words in one name", async () => {
    const texts = textsOf(setup.cities, 250, 1);
    expect(
      await check(
        "cities",
        texts.map((text) => ({ text })),
      ),
    ).toBeGreaterThan(200);
  });

  it("cities with a focus and filters", async () => {
    const texts = textsOf(setup.cities, 120, 2);
    const asks: Ask[] = texts.map((text, i) => ({
      text,
      ...(i % 2 === 0 ? { focus: FOCUS[i % FOCUS.length] } : {}),
      ...(i % 3 === 0 ? { country: "US" } : {}),
      ...(i % 5 === 0 ? { country: "US", stateCode: "CA" } : {}),
      ...(i % 2 === 1 && i % 3 === 1 ? { bbox: [-123, 32, -114, 39] as Ask["bbox"] } : {}),
    }));
    await check("cities", asks);
  });

  it("venues: the first `limit` of one order, by city size and kind", async () => {
    const texts = textsOf(setup.venues, 250, 3);
    expect(
      await check(
        "venues",
        texts.map((text) => ({ text })),
      ),
    ).toBeGreaterThan(200);
  });

  it("venues with a focus and filters", async () => {
    const texts = textsOf(setup.venues, 150, 4);
    const some = setup.cities[3]?.id ?? "";
    const asks: Ask[] = texts.map((text, i) => ({
      text,
      ...(i % 2 === 0 ? { focus: FOCUS[i % FOCUS.length] } : {}),
      ...(i % 3 === 0 ? { kind: VENUE_KINDS[i % VENUE_KINDS.length] } : {}),
      ...(i % 5 === 0 ? { country: "US" } : {}),
      ...(i % 11 === 0 ? { cityId: some } : {}),
      ...(i % 2 === 1 && i % 3 === 1 ? { bbox: [-123, 32, -114, 39] as Ask["bbox"] } : {}),
    }));
    await check("venues", asks);
  });

  it("never suggests a city whose words come from two of its names", async () => {
    // San Francisco is "New Albion" and "Yerba Buena"; "new y" is neither.
    const sf = setup.cities.find((c) => c.id === "5391959");
    expect(sf?.names.flat()).toEqual(expect.arrayContaining(["yerba buena", "new albion"]));
    expect(await suggested("cities", { text: "new y" }, 20)).not.toContain("5391959");
    expect(await suggested("cities", { text: "buena new" }, 20)).not.toContain("5391959");
    expect(await suggested("cities", { text: "yerba bu" }, 20)).toContain("5391959");
  });
});

describe("each typed word a word of its own of one name (issue 55)", () => {
  it("searches (totals and pages) match what the brute force matches, each typed word its own word (issue 55)", async () => {
    let reread = 0;
    for (const resource of ["cities", "venues"] as const) {
      const records = resource === "venues" ? setup.venues : setup.cities;
      for (const text of textsOf(records, 150, 5).filter((t) => words(normalize(t)).length > 1)) {
        const expected = bruteForce(records, resource, { text });
        const got = await searched(resource, text);
        expect(got.total, `${resource} ${text}`).toBe(expected.length);
        const ids = new Set(expected.map((e) => e.id));
        for (const id of got.ids) expect(ids.has(id), `${resource} ${text}: ${id}`).toBe(true);
        // The texts where reading a word twice would match more.
        if (records.some((r) => !ids.has(r.id) && readTwice(r, text))) reread++;
      }
    }
    expect(reread).toBeGreaterThan(10);
  });

  it("never reads one typed word for two words of a name (issue 55)", async () => {
    // "Garden Grove" has two words starting with g, one starting with ga or gr.
    const grove = setup.cities.find((c) => c.names[0]?.[0] === "garden grove")?.id;
    expect(grove).toBeDefined();
    const ids = async (text: string) => suggested("cities", { text }, 20);
    expect(await ids("garden g")).toContain(grove);
    expect(await ids("g g")).toContain(grove);
    for (const text of ["garden ga", "grove gr", "garden garden", "g g g"]) {
      expect(await ids(text), text).not.toContain(grove);
      expect((await searched("cities", text)).ids, text).not.toContain(grove);
    }
  });
});
