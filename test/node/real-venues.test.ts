/**
 * Real venue data into the import: MusicBrainz dump lines, Overpass JSON, GeoJSON and GeoJSON
 * sequences (hand-made files in each format, test/fixtures/real-venues/), placed among real
 * GeoNames rows around London and Berlin (test/fixtures/cities-london-berlin.txt).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { ownPointSql } from "../../src/data-contract/venue-points.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { ImportError, Problems } from "../../scripts/import/problems.ts";
import { Progress } from "../../scripts/import/progress.ts";
import { runImport } from "../../scripts/import/run.ts";
import type { ImportOptions } from "../../scripts/import/options.ts";
import { ensureData } from "../../scripts/import/start-data.ts";
import { storedImport } from "../../scripts/import/target.ts";
import { d1Database, localD1File } from "../../scripts/import/wrangler.ts";
import { detectFormat, readVenueFiles, type VenueFileReport } from "../../scripts/import/sources/venue-files.ts";
import { DEFAULT_SELECTION } from "../../scripts/import/sources/venue-selection.ts";
import { fixture } from "../support/seed.ts";

const dir = mkdtempSync(join(tmpdir(), "vcs-real-venues-"));
const real = (name: string) => fixture(`real-venues/${name}`);
const FILES = ["place", "berlin.overpass.json", "london.geojson", "camden.geojsonseq"].map(real);

function importInto(path: string, venues: string[], extra: Partial<ImportOptions> = {}) {
  return runImport(
    {
      cities: fixture("cities-london-berlin.txt"),
      admin1: fixture("admin1CodesASCII.txt"),
      countries: fixture("countryInfo.txt"),
      localized: fixture("localized-names.tsv"),
      venues,
      prefixCountMin: 20,
      target: { kind: "file", path },
      ...extra,
    },
    new Progress(process.stderr, true),
  );
}

interface Row {
  id: string;
  name: string;
  city: string | null;
  lat: number | null;
  lng: number | null;
  kind: string;
  url: string;
}

function venues(path: string): Map<string, Row> {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db
      .prepare(
        `SELECT v.id, v.name, c.name AS city, ${ownPointSql("v", "lat")} AS lat, ${ownPointSql("v", "lng")} AS lng, v.kind, v.url
         FROM venues v LEFT JOIN cities c ON c.pos = v.city_pos`,
      )
      .all() as Row[];
    return new Map(rows.map((r) => [r.name, r]));
  } finally {
    db.close();
  }
}

async function read(path: string) {
  const problems = new Problems(true);
  const reports: VenueFileReport[] = [];
  const rows = [];
  for await (const v of readVenueFiles([path], DEFAULT_SELECTION, problems, reports)) rows.push(v);
  return { rows, reports, problems: problems.reported() };
}

const file = (name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

describe("real venue files", () => {
  it("are recognised by their content, not their names", async () => {
    expect(await detectFormat(real("place"))).toEqual({ kind: "lines" });
    expect(await detectFormat(real("berlin.overpass.json"))).toEqual({ kind: "document", array: "elements" });
    expect(await detectFormat(real("london.geojson"))).toEqual({ kind: "document", array: "features" });
    expect(await detectFormat(real("camden.geojsonseq"))).toEqual({ kind: "lines" });
    expect(await detectFormat(file("search.json", '{"created":"x","count":1,"places":[{"id":"a"}]}'))).toEqual({
      kind: "document",
      array: "places",
    });
    expect(await detectFormat(fixture("venues.csv"))).toEqual({ kind: "csv" });
  });

  it("keep only venues: studios, restaurants, nameless and closed places are skipped and counted", async () => {
    const mb = await read(real("place"));
    expect(mb.rows.map((v) => v.name)).toEqual([
      "Royal Albert Hall",
      "Tempodrom",
      "Wembley Stadium",
      "Uber Eats Music Hall",
    ]);
    expect(mb.reports[0]).toMatchObject({ read: 7, kept: 4, skipped: { "type Studio": 1, closed: 1, "no type": 1 } });
    const osm = await read(real("berlin.overpass.json"));
    expect(osm.rows.map((v) => v.name)).toEqual(["Berghain", "Columbiahalle", "Uber Eats Music Hall", "Philharmonie"]);
    expect(osm.reports[0]).toMatchObject({
      read: 7,
      kept: 4,
      skipped: { "not a venue tag": 1, "no name": 1, closed: 1 },
    });
  });

  it("give stable ids and links at the source, kinds, and their own points (polygons at their centroid)", async () => {
    const [mb] = (await read(real("place"))).rows;
    expect(mb).toMatchObject({
      id: "c9e5f7a1-0000-4a1b-9c3d-000000000001",
      url: "https://musicbrainz.org/place/c9e5f7a1-0000-4a1b-9c3d-000000000001",
      lat: 51.50101,
      lng: -0.17743,
      kind: "venue",
      cityHints: ["Kensington and Chelsea", "London", "UK"],
    });
    const geojson = (await read(real("london.geojson"))).rows[0];
    expect(geojson).toMatchObject({
      id: "osm-way-3001",
      url: "https://www.openstreetmap.org/way/3001",
      kind: "concert hall",
    });
    expect(geojson?.lat).toBeCloseTo(51.50101, 6);
    expect(geojson?.lng).toBeCloseTo(-0.17743, 6);
    const seq = (await read(real("camden.geojsonseq"))).rows;
    expect(seq.map((v) => v.id)).toEqual(["osm-node-4001", "osm-way-4002"]);
  });
});

describe("real venue files", () => {
  it("report bad records as file:line or file:JSON path, with the reason", async () => {
    const lines = [
      {
        type: "Feature",
        id: "node/1",
        properties: { amenity: "nightclub", name: "Far" },
        geometry: { type: "Point", coordinates: [200, 10] },
      },
      {
        type: "Feature",
        id: "node/2",
        properties: { amenity: "nightclub", name: "Words" },
        geometry: { type: "Point", coordinates: ["east", 10] },
      },
      {
        type: "Feature",
        id: "node/3",
        properties: { amenity: "nightclub", name: "Bell\u0007" },
        geometry: { type: "Point", coordinates: [1, 2] },
      },
      {
        type: "Feature",
        id: "node/4",
        properties: { amenity: "nightclub", name: "x".repeat(301) },
        geometry: { type: "Point", coordinates: [1, 2] },
      },
      { id: "a".repeat(65), name: "Long Id", cityId: "2643743" },
    ].map((o) => JSON.stringify(o));
    const { problems } = await read(file("bad.geojsonl", `${lines.join("\n")}\n{"type":"Feature",\n`));
    expect(problems).toEqual([
      "bad.geojsonl:1: venue osm-node-1: longitude 200 is outside ±180",
      'bad.geojsonl:2: venue osm-node-2: longitude "east" is not a number',
      "bad.geojsonl:3: venue osm-node-3: name contains a control character",
      "bad.geojsonl:4: venue osm-node-4: name is longer than 300 characters",
      `bad.geojsonl:5: venue id "${"a".repeat(65)}" is not 1 to 64 letters, digits, - or _`,
      "bad.geojsonl:6: not valid JSON",
    ]);
    const truncated = await read(
      file("cut.json", (await import("node:fs")).readFileSync(real("berlin.overpass.json"), "utf8").slice(0, 700)),
    );
    expect(truncated.problems).toHaveLength(1);
    expect(truncated.problems[0]).toMatch(
      /^cut\.json:elements\[\d\]: malformed or truncated JSON \(.*\); the rest was not read$/,
    );
  });
});

describe("importing real venues", () => {
  it("imports MusicBrainz, Overpass and GeoJSON together, each venue in the city a person would name", async () => {
    const path = join(dir, "real.sqlite");
    const summary = await importInto(path, FILES);
    const byName = venues(path);
    // The traps: Kensington (PPLA3, population 0) and Friedrichshain (PPLX) are nearer, yet not the city.
    expect(byName.get("Royal Albert Hall")).toMatchObject({ city: "London", lat: 51.50101, lng: -0.17743 });
    expect(byName.get("Berghain")).toMatchObject({ city: "Berlin", kind: "club" });
    expect(byName.get("Tempodrom")).toMatchObject({ city: "Berlin", lat: null }); // its MusicBrainz area alone
    expect(byName.get("Columbiahalle")?.city).toBe("Berlin");
    expect(byName.get("O2 Academy Brixton")?.city).toBe("London"); // Brixton is a PPLX section
    expect(byName.get("Electric Ballroom")?.city).toBe("London");
    expect(["London", "Wembley"]).toContain(byName.get("Wembley Stadium")?.city);
    // The same venue from two sources within 250 m is imported once, under the first file's id.
    expect([...byName.values()].filter((v) => v.name === "Royal Albert Hall")).toHaveLength(1);
    expect(byName.get("Uber Eats Music Hall")?.id).toBe("c9e5f7a1-0000-4a1b-9c3d-000000000007");
    expect([...byName.keys()]).not.toContain("Abbey Road Studios");
    expect([...byName.keys()]).not.toContain("Zur letzten Instanz");
    const place = summary.counts.venueFiles.find((r) => r.file === "place");
    // Royal Albert Hall and Tempodrom by their named city; Wembley Stadium (area Brent, a PPLX) and
    // Uber Eats Music Hall (area Friedrichshain-Kreuzberg, no GeoNames place) by their points.
    expect(place?.placed).toEqual({ given: 0, hint: 2, position: 2, none: 0, sameVenue: 0 });
    const geojson = summary.counts.venueFiles.find((r) => r.file === "london.geojson");
    expect(geojson?.placed?.sameVenue).toBe(1);

    const again = join(dir, "again.sqlite");
    await importInto(again, FILES);
    expect([...venues(again).values()].map((v) => v.id).sort()).toEqual([...byName.values()].map((v) => v.id).sort());
  }, 60_000);

  it("places a venue by its point alone: the city whose reach covers it, not the nearer district or section", async () => {
    const point = (id: string, name: string, lng: number, lat: number) =>
      JSON.stringify({
        type: "Feature",
        id,
        properties: { amenity: "concert_hall", name },
        geometry: { type: "Point", coordinates: [lng, lat] },
      });
    const path = file(
      "points.geojsonl",
      [
        point("node/1", "Albert Hall (no address)", -0.17743, 51.50101),
        point("node/2", "Berghain (no address)", 13.44297, 52.51117),
      ].join("\n"),
    );
    const db = join(dir, "points.sqlite");
    await importInto(db, [path]);
    expect(venues(db).get("Albert Hall (no address)")?.city).toBe("London"); // Kensington: 1.0 km, PPLA3, population 0
    expect(venues(db).get("Berghain (no address)")?.city).toBe("Berlin"); // Friedrichshain: 0.9 km, PPLX
  }, 60_000);

  it("publishes nothing when a record is bad, and imports the rest with --skip-invalid", async () => {
    const bad = file(
      "bad-place",
      `${JSON.stringify({ id: "c9e5f7a1-0000-4a1b-9c3d-00000000000f", name: "Bad", type: "Venue", coordinates: { latitude: 91, longitude: 0 } })}\n`,
    );
    const path = join(dir, "strict.sqlite");
    await expect(importInto(path, [real("place"), bad])).rejects.toThrow(ImportError);
    await expect(importInto(path, [real("place"), bad])).rejects.toThrow(
      /bad-place:1: venue c9e5f7a1-0000-4a1b-9c3d-00000000000f: latitude 91 is outside ±90/,
    );
    const summary = await importInto(path, [real("place"), bad], { skipInvalid: true });
    expect(summary.invalidSkipped).toBe(1);
    expect(summary.counts.venues).toBe(4);
  }, 60_000);
});

describe("npm start and a user's import", () => {
  it("serves the user's own import as it is and says so, instead of importing the default data over it", async () => {
    const persistTo = join(dir, "state");
    await importInto("", FILES, { target: { kind: "local", persistTo } });
    const before = storedImport(localD1File(d1Database().id, persistTo));
    expect(before?.venues).toBe(10);
    const said: string[] = [];
    const progress = Object.assign(new Progress(process.stderr, true), { line: (text: string) => said.push(text) });
    expect(await ensureData(progress, persistTo)).toBe("own");
    expect(storedImport(localD1File(d1Database().id, persistTo))).toEqual(before);
    expect(said.at(-1)).toMatch(
      /^Serving your own import of \d{4}-\d\d-\d\d \(.*venues: place, berlin\.overpass\.json.*\): 541 cities, 10 venues\./,
    );
  }, 120_000);
});
