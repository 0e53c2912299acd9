/**
 * What `npm run venues -- osm` asks an Overpass server (scripts/venues/osm/): the query built from
 * the import's own tag list, for each form of area and for a tile; the tiles of a refused area;
 * the status the server gives; and the place a person names, read over GeoNames rows.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { beforeAll, afterAll, describe, expect, it } from "vitest";
import { DEFAULT_SELECTION, selectionWith } from "../../scripts/import/sources/venue-selection.ts";
import { readRegionCodes } from "../../scripts/import/sources/region-codes.ts";
import { Problems } from "../../scripts/import/problems.ts";
import { overpassQuery, tagFilters } from "../../scripts/venues/osm/query.ts";
import { boxAround, boxWidth, inBox, quarters } from "../../scripts/venues/osm/tiles.ts";
import { parseStatus, waitMs, BUSY_WAIT_MS } from "../../scripts/venues/osm/status.ts";
import { readPlace, type PlaceData } from "../../scripts/venues/place.ts";
import { FetchError } from "../../scripts/venues/http.ts";
import { dir, quiet } from "../support/import-fixtures.ts";
import { runImport } from "../../scripts/import/run.ts";
import { defaultSources } from "../../scripts/import/sources/resolve.ts";
import { fixture } from "../support/seed.ts";
import { haversineKm } from "../../src/data-contract/distance.ts";

const SETTINGS = { timeout: 180, maxsize: 536_870_912 };

describe("the Overpass query", () => {
  it("asks for exactly the tags the import keeps as venues, one filter per key", () => {
    expect(tagFilters(DEFAULT_SELECTION)).toEqual([
      '["amenity"~"^(music_venue|concert_hall|nightclub|theatre|arts_centre|events_venue)$"]',
      '["leisure"="stadium"]',
    ]);
    // A changed list (--osm-tags) changes the query the same way.
    expect(tagFilters(selectionWith(undefined, "amenity=theatre,leisure=stadium"))).toEqual([
      '["amenity"="theatre"]',
      '["leisure"="stadium"]',
    ]);
  });

  it("reads a country and a region as the area of their ISO 3166 code, a box as itself, a tile inside either", () => {
    expect(overpassQuery({ iso3166: "1", code: "DE" }, DEFAULT_SELECTION, SETTINGS)).toBe(
      [
        "[out:json][timeout:180][maxsize:536870912];",
        'area["ISO3166-1"="DE"][admin_level=2]->.where;',
        "(",
        '  nwr["amenity"~"^(music_venue|concert_hall|nightclub|theatre|arts_centre|events_venue)$"](area.where);',
        '  nwr["leisure"="stadium"](area.where);',
        ");",
        "out center tags;",
      ].join("\n"),
    );
    const tile = { south: 47.2, west: 5.8, north: 51.1, east: 10.5 };
    expect(overpassQuery({ iso3166: "2", code: "US-OR" }, DEFAULT_SELECTION, SETTINGS, tile)).toContain(
      'area["ISO3166-2"="US-OR"]->.where;\n(\n  nwr["amenity"~"^(music_venue|concert_hall|nightclub|theatre|arts_centre|events_venue)$"](area.where)(47.2,5.8,51.1,10.5);',
    );
    const box = overpassQuery({ box: tile }, DEFAULT_SELECTION, { timeout: 60, maxsize: 1000 });
    expect(box).toContain('nwr["leisure"="stadium"](47.2,5.8,51.1,10.5);');
    expect(box).toMatch(/^\[out:json\]\[timeout:60\]\[maxsize:1000\];\n\(/);
  });
});

describe("tiles", () => {
  it("cut a box into four quarters that cover it, also across the antimeridian", () => {
    const fiji = { south: -21, west: 176, north: -12, east: -178 };
    const parts = quarters(fiji);
    expect(parts.map(boxWidth)).toEqual([3, 3, 3, 3]);
    for (const [lat, lng] of [
      [-20, 177],
      [-13, -179],
      [-16.5, 179.99],
    ] as const) {
      expect(parts.filter((p) => inBox(p, lat, lng)).length).toBeGreaterThanOrEqual(1);
    }
    expect(parts[1]).toEqual({ south: -21, west: 179, north: -16.5, east: -178 });
  });

  it("hold a city's reach", () => {
    const b = boxAround(52.52, 13.405, 13.9);
    for (const bearing of [0, 90, 180, 270]) {
      const rad = (bearing * Math.PI) / 180;
      const lat = 52.52 + (13.8 / 111.2) * Math.cos(rad);
      const lng = 13.405 + (13.8 / (111.2 * Math.cos((52.52 * Math.PI) / 180))) * Math.sin(rad);
      expect(haversineKm(52.52, 13.405, lat, lng)).toBeLessThan(13.9);
      expect(inBox(b, lat, lng)).toBe(true);
    }
  });
});

describe("the server's /api/status", () => {
  const now = new Date("2026-11-26T10:15:30Z");
  const status = (slots: string) =>
    `Connected as: 1807298401\nCurrent time: 2026-11-26T10:15:30Z\nAnnounced endpoint: none\nRate limit: 2\n${slots}Currently running queries (pid, space limit, time limit, start time):\n`;

  it("lets a query go at once while a slot is free", () => {
    expect(waitMs(parseStatus(status("2 slots available now.\n")), now)).toBe(0);
  });

  it("waits for the first slot the server names, and a while when it names none", () => {
    const text = status(
      "Slot available after: 2026-11-26T10:15:42Z, in 12 seconds.\nSlot available after: 2026-11-26T10:15:35Z, in 5 seconds.\n",
    );
    expect(waitMs(parseStatus(text), now)).toBe(6000);
    expect(waitMs(parseStatus(status("")), now)).toBe(BUSY_WAIT_MS);
    expect(waitMs(parseStatus(status("").replace("Rate limit: 2", "Rate limit: 0")), now)).toBe(0);
  });
});

describe("the place a person names", () => {
  let db: Database.Database;
  let data: PlaceData;
  beforeAll(async () => {
    const path = join(dir, "venues-places.sqlite");
    const cities = fixture("cities-places.txt");
    await runImport({ cities, venueCount: 50, prefixCountMin: 20, target: { kind: "file", path } }, quiet);
    db = new Database(path, { readonly: true });
    data = { db, regionCodes: await readRegionCodes(defaultSources().regionCodes, new Problems(false)) };
  });
  afterAll(() => db.close());

  it.each([
    ["Portland, OR", "city", /^Portland, Oregon, US/],
    ["Berlin", "city", /^Berlin, DE \(GeoNames/],
    ["DE", "country", /^Germany \(DE\)$/],
    ["Deutschland", "country", /^Germany \(DE\)$/],
    ["Ontario", "region", /^Ontario, CA \(ISO 3166-2 CA-ON\)$/],
    ["OR, US", "region", /^Oregon, US \(ISO 3166-2 US-OR\)$/],
    ["Bavaria", "region", /^Bavaria, DE$/],
    ["13.0,52.3,13.8,52.7", "box", /^the box 52.3,13,52.7,13.8/],
  ])("reads %j as a %s", async (text, kind, label) => {
    const { place } = await readPlace(data, text);
    expect(place.kind).toBe(kind);
    expect(place.label).toMatch(label);
  });

  it("fetches a city within its reach, and a region without an ISO code as the box of its places", async () => {
    const berlin = (await readPlace(data, "Berlin")).place;
    expect(inBox(berlin.box, 52.6, 13.6)).toBe(true);
    expect(inBox(berlin.box, 52.9, 13.4)).toBe(false);
    const bavaria = (await readPlace(data, "Bavaria")).place;
    expect(bavaria.kind === "region" && bavaria.iso3166).toBe(null);
    expect(inBox(bavaria.box, 49.45, 11.08)).toBe(true); // Nürnberg
  });

  it("says what it cannot read, naming the nearest names it knows", async () => {
    await expect(readPlace(data, "Berlinn")).rejects.toThrow(
      /no city, region or country is called "Berlinn"; the nearest names known: Berlin/,
    );
    await expect(readPlace(data, "Qqqqqq")).rejects.toThrow(FetchError);
    await expect(readPlace(data, "200,1,2,3")).rejects.toThrow(/bbox/);
  });
});
