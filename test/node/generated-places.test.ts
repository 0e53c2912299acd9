/**
 * Generated venues in the city a person would name: imported on the real GeoNames rows around
 * London and Berlin (test/fixtures/cities-london-berlin.txt: Berlin, 97 sections of it, the towns of
 * Brandenburg around it), each venue's city is the one place-rule.ts gives its point, computed here
 * over every row of the file; and the venues of the state of Berlin are Berlin's, not Köpenick's or
 * Zehlendorf's (before, 105 of the 451 generated venues of the state were).
 */
import { join } from "node:path";
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

async function fixtureCities(): Promise<City[]> {
  const problems = new Problems(false);
  const codes = new Set((await readCountryInfo(FIXTURES.countries, problems)).map((c) => c.code));
  const cities: City[] = [];
  for await (const c of readCities(CITIES, problems, codes, { lines: 0, notPopulated: 0, badAlternateNames: 0 })) {
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

beforeAll(async () => {
  const path = join(dir, "generated-places.sqlite");
  await runImport({ ...FIXTURES, cities: CITIES, venueCount: VENUES, target: { kind: "file", path } }, quiet);
  cities = await fixtureCities();
  const db = new Database(path, { readonly: true });
  venues = db
    .prepare(
      "SELECT v.id, v.name, c.id AS city, v.lat, v.lng, v.url FROM venues v LEFT JOIN cities c ON c.pos = v.city_pos",
    )
    .all() as Row[];
  db.close();
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

  it("are the ones the in-memory generator makes (streamed from the build file, placed with its R*Trees)", async () => {
    const problems = new Problems(false);
    const countries = new Map((await readCountryInfo(FIXTURES.countries, problems)).map((c) => [c.code, c]));
    const generated = generateVenues(
      cities.map((c) => generatorCity({ ...c, section: isSection(c) }, countries)),
      { count: VENUES, seed: DEFAULT_SEED },
    );
    const imported = new Map(venues.map((v) => [v.id, v]));
    expect(imported.size).toBe(generated.length);
    for (const g of generated) {
      expect(imported.get(g.id)).toEqual({
        id: g.id,
        name: g.name,
        city: g.cityId,
        lat: g.lat,
        lng: g.lng,
        url: g.url,
      });
    }
  });
});
