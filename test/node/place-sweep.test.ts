/**
 * The sweep that places points band by band (scripts/import/phases/place-sweep.ts) gives what the
 * rule gives over every city (place-rule.ts, a scan): on dense synthetic clusters that straddle
 * band and tile edges, around the antimeridian and in the far north, for points spread over each.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type Database from "better-sqlite3";
import { createBuildFile } from "../../scripts/import/phases/build-file.ts";
import { placeOfPoint, REACH_KM, type Place } from "../../scripts/import/phases/place-rule.ts";
import { bandOf, bandSouth, PlaceSweep } from "../../scripts/import/phases/place-sweep.ts";
import { random } from "../../scripts/tools/random.ts";
import { haversineKm } from "../../src/data-contract/distance.ts";
import { dir } from "../support/import-fixtures.ts";

interface City extends Place {
  gid: number;
}

/** Where the clusters are: Berlin (a band edge at 52.5°), Fiji across the antimeridian, Svalbard. */
const CLUSTERS = [
  { lat: 52.5, lng: 13.4, spread: 0.6 },
  { lat: -17.75, lng: 180, spread: 0.5 },
  { lat: 78.2, lng: 15.6, spread: 0.8 },
];

function syntheticCities(): City[] {
  const rng = random("place-sweep");
  const cities: City[] = [];
  for (const c of CLUSTERS) {
    for (let i = 0; i < 1500; i++) {
      let lng = c.lng + (rng() - 0.5) * 2 * c.spread;
      if (lng > 180) lng -= 360;
      const kind = rng();
      cities.push({
        gid: cities.length + 1,
        lat: c.lat + (rng() - 0.5) * 2 * c.spread,
        lng,
        // Mostly none or few people, some towns, a few cities: nested reaches of every size.
        population: kind < 0.5 ? 0 : kind < 0.95 ? Math.floor(rng() * 20_000) : Math.floor(rng() * 3_000_000),
        section: rng() < 0.05,
      });
    }
  }
  return cities;
}

let db: Database.Database;
const cities = syntheticCities();

beforeAll(() => {
  db = createBuildFile(join(dir, "place-sweep.sqlite"));
  const insert = db.prepare(
    `INSERT INTO raw_cities (gid, name, name_norm, country_code, lat, lng, population, z, section, words, names, tokens, line)
     VALUES (?, 'x', 'x', 'XX', ?, ?, ?, 0, ?, '', '_x', '', 1)`,
  );
  db.transaction(() => {
    for (const c of cities) insert.run(c.gid, c.lat, c.lng, c.population, c.section ? 1 : 0);
  })();
});
afterAll(() => db.close());

/** Points around each cluster, in the order of their bands. */
function points(): { lat: number; lng: number }[] {
  const rng = random("place-sweep-points");
  const list: { lat: number; lng: number }[] = [];
  for (const c of CLUSTERS) {
    for (let i = 0; i < 800; i++) {
      let lng = c.lng + (rng() - 0.5) * 2.4 * c.spread;
      if (lng > 180) lng -= 360;
      list.push({ lat: c.lat + (rng() - 0.5) * 2.4 * c.spread, lng });
    }
  }
  return list.sort((a, b) => a.lat - b.lat);
}

describe("the sweep of places, band by band", () => {
  it("places every point as the rule does over every city, and finds every place within reach", () => {
    const sweep = new PlaceSweep(db, { marginKm: REACH_KM, names: false });
    let placed = 0;
    try {
      for (const p of points()) {
        sweep.advanceTo(bandOf(p.lat));
        const expected = placeOfPoint(cities, p.lat, p.lng)?.gid;
        expect(sweep.placeOf(p.lat, p.lng)?.gid, `${p.lat},${p.lng}`).toBe(expected);
        const near = cities.filter((c) => haversineKm(p.lat, p.lng, c.lat, c.lng) <= REACH_KM).map((c) => c.gid);
        expect(
          sweep
            .near(p.lat, p.lng)
            .map((c) => c.gid)
            .sort((a, b) => a - b),
        ).toEqual(near);
        if (expected !== undefined) placed++;
      }
    } finally {
      sweep.close();
    }
    expect(placed).toBeGreaterThan(2000);
  });

  it("gives each band's cities once, in geonameid order, and refuses to go back south", () => {
    const sweep = new PlaceSweep(db, { marginKm: REACH_KM, names: false });
    try {
      const range = sweep.cityBands();
      if (range === undefined) throw new Error("no bands");
      const seen: number[] = [];
      for (let band = range.first; band <= range.last; band++) {
        const gids = sweep.advanceTo(band).map((c) => c.gid);
        expect(gids).toEqual([...gids].sort((a, b) => a - b));
        for (const c of sweep.advanceTo(band)) expect(bandOf(c.lat) === band || c.lat === bandSouth(band)).toBe(true);
        seen.push(...gids);
      }
      expect(seen.sort((a, b) => a - b)).toEqual(cities.map((c) => c.gid));
      expect(() => sweep.advanceTo(range.first)).toThrow(/moves north/);
    } finally {
      sweep.close();
    }
  });
});
