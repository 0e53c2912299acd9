/**
 * Generated venues in the city a person would name: imported on the real GeoNames rows around
 * London and Berlin (test/fixtures/cities-london-berlin.txt: Berlin, 97 sections of it, the towns of
 * Brandenburg around it), each venue's city is the one place-rule.ts gives its point, computed here
 * over every row of the file; and the venues of the state of Berlin are Berlin's, not Köpenick's or
 * Zehlendorf's (before, 105 of the 451 generated venues of the state were).
 */
import { join } from "node:path";
import { ownPointSql } from "../../src/data-contract/venue-points.ts";
import Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { generateVenues, generatorCity } from "../../scripts/import/generate/venues.ts";
import { placeOfPoint } from "../../scripts/import/phases/place-rule.ts";
import { Problems } from "../../scripts/import/problems.ts";
import { DEFAULT_SEED } from "../../scripts/import/sources/resolve.ts";
import { isSection, readCities, readCountryInfo, type City } from "../../scripts/import/sources/geonames.ts";
import { haversineKm } from "../../src/data-contract/distance.ts";
import { dir, FIXTURES, quiet } from "../support/import-fixtures.ts";
import { runImport } from "../../scripts/import/run.ts";
import { fixture } from "../support/seed.ts";
import { writeSyntheticCities } from "../../scripts/bench/synthetic-cities.ts";

const CITIES = fixture("cities-london-berlin.txt");
const VENUES = 4000;
const BERLIN = "2950159";

interface Row {
  id: string;
  name: string;
  city: string | null;
  lat: number | null;
  lng: number | null;
  url: string;
}

async function fixtureCities(file = CITIES): Promise<City[]> {
  const problems = new Problems(false);
  const codes = new Set((await readCountryInfo(FIXTURES.countries, problems)).map((c) => c.code));
  const cities: City[] = [];
  for await (const c of readCities(file, problems, codes, { lines: 0, notPopulated: 0, badAlternateNames: 0 })) {
    cities.push(c);
  }
  return cities;
}

let cities: City[] = [];
let venues: Row[] = [];
const places = () => cities.map((c) => ({ ...c, section: isSection(c) }));

/** A point is in a state when the nearest row of the file to it is (Berlin or one of its sections, say). */
function stateOf(lat: number, lng: number): string {
  let nearest: City | undefined;
  let km = Infinity;
  for (const c of cities) {
    const d = haversineKm(lat, lng, c.lat, c.lng);
    if (d < km) [nearest, km] = [c, d];
  }
  return `${nearest?.countryCode}.${nearest?.admin1Code}`;
}

/** Generated venues imported on a cities file, as the served tables hold them. */
async function importedVenues(file: string, name: string, count: number): Promise<Row[]> {
  const path = join(dir, name);
  await runImport({ ...FIXTURES, cities: file, venueCount: count, target: { kind: "file", path } }, quiet);
  const db = new Database(path, { readonly: true });
  try {
    return db
      .prepare(
        `SELECT v.id, v.name, c.id AS city, ${ownPointSql("v", "lat")} AS lat, ${ownPointSql("v", "lng")} AS lng, v.url
         FROM venues v LEFT JOIN cities c ON c.pos = v.city_pos`,
      )
      .all() as Row[];
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  venues = await importedVenues(CITIES, "generated-places.sqlite", VENUES);
  cities = await fixtureCities();
});

describe("generated venues on the GeoNames rows around Berlin and London", () => {
  it("are each in the city that the rule for real venues gives their point, over every row of the file", () => {
    const all = places();
    let checked = 0;
    for (const v of venues) {
      if (v.lat === null || v.lng === null) continue;
      expect(v.city, v.name).toBe(placeOfPoint(all, v.lat, v.lng)?.id ?? null);
      checked++;
    }
    expect(checked).toBe(VENUES - 8); // 0.2 % have no city and no point
  });

  it("are in Berlin when they are in the state of Berlin", () => {
    const inState = venues.filter((v) => v.lat !== null && v.lng !== null && stateOf(v.lat, v.lng) === "DE.16");
    const inBerlin = inState.filter((v) => v.city === BERLIN);
    expect(inState.length).toBeGreaterThan(30);
    expect(inBerlin.length / inState.length).toBeGreaterThanOrEqual(0.95);
    // No venue is in a section of Berlin, and every one of Berlin's says so in its URL.
    const sections = new Set(cities.filter(isSection).map((c) => c.id));
    expect(venues.filter((v) => v.city !== null && sections.has(v.city))).toEqual([]);
    for (const v of venues.filter((v) => v.city === BERLIN))
      expect(v.url).toMatch(/-berlin-germany-[0-9a-f]{8}\.html$/);
  });

  it("are the ones the in-memory generator makes (streamed band by band from the build file)", async () => {
    await expectInMemoryVenues(cities, venues, VENUES);
  });
});

/** The imported venues are those the in-memory generator makes of the same cities, each in its city, with its URL. */
async function expectInMemoryVenues(all: City[], imported: Row[], count: number): Promise<void> {
  const problems = new Problems(false);
  const countries = new Map((await readCountryInfo(FIXTURES.countries, problems)).map((c) => [c.code, c]));
  const generated = generateVenues(
    all.map((c) => generatorCity({ ...c, section: isSection(c) }, countries)),
    { count, seed: DEFAULT_SEED },
  );
  const byId = new Map(imported.map((v) => [v.id, v]));
  expect(byId.size).toBe(generated.length);
  for (const g of generated) {
    expect(byId.get(g.id)).toEqual({ id: g.id, name: g.name, city: g.cityId, lat: g.lat, lng: g.lng, url: g.url });
  }
}

describe("generated venues on a dense synthetic region (6,000 places within half a degree of London and Berlin)", () => {
  let dense: City[] = [];
  let denseVenues: Row[] = [];
  beforeAll(async () => {
    const file = join(dir, "dense-cities.txt");
    await writeSyntheticCities({ source: CITIES, out: file, count: 6000, seed: "dense" });
    dense = await fixtureCities(file);
    denseVenues = await importedVenues(file, "dense.sqlite", 5000);
  });

  it("are each in the city the rule gives their point over every place, as the in-memory generator puts them", async () => {
    const all = dense.map((c) => ({ ...c, section: isSection(c) }));
    for (const v of denseVenues) {
      if (v.lat === null || v.lng === null) continue;
      expect(v.city, v.name).toBe(placeOfPoint(all, v.lat, v.lng)?.id ?? null);
    }
    await expectInMemoryVenues(dense, denseVenues, 5000);
  });
});
