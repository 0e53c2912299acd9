/**
 * The fixtures of test/fixtures/fetch/ (README.md there) read as their sources' formats through
 * the importer's readers, and hold what the fetch tests rely on: venues and non-venues, and
 * MusicBrainz places that are the same venues as OpenStreetMap elements.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { normalize } from "../../src/data-contract/normalize.ts";
import { Problems } from "../../scripts/import/problems.ts";
import { readVenueFiles, type VenueFileReport } from "../../scripts/import/sources/venue-files.ts";
import { DEFAULT_SELECTION } from "../../scripts/import/sources/venue-selection.ts";
import { km } from "../support/haversine.ts";
import { fixture } from "../support/seed.ts";
import { all } from "../support/venue-files.ts";

const OSM = fixture("fetch/overpass-berlin.json");
const MB = fixture("fetch/mbdump-place.jsonl");
const SETLISTFM = "751e8fb1-ed8d-4a94-b71b-a38065054f5d";

interface Place {
  name: string;
  coordinates: { latitude: number; longitude: number } | null;
  relations: { type: string; "type-id": string; "target-type": string; url: { resource: string } }[];
}
interface Element {
  lat?: number;
  lon?: number;
  center?: { lat: number; lon: number };
  tags?: Record<string, string>;
}

async function read(path: string) {
  const reports: VenueFileReport[] = [];
  const problems = new Problems(true);
  const venues = await all(readVenueFiles([path], DEFAULT_SELECTION, problems, reports));
  return { venues, report: reports[0], problems: problems.reported() };
}

const places = () =>
  readFileSync(MB, "utf8")
    .split("\n")
    .map((line) => JSON.parse(line) as Place);

describe("test/fixtures/fetch through the importer", () => {
  it("overpass-berlin.json reads as an Overpass answer: venues kept, the rest skipped with reasons", async () => {
    const { venues, report, problems } = await read(OSM);
    expect(problems).toEqual([]);
    expect(report).toMatchObject({
      format: "JSON document (elements)",
      read: 27,
      kept: 23,
      skipped: { "not a venue tag": 2, closed: 1, "no name": 1 },
    });
    expect(venues.find((v) => v.name === "Uber Arena")).toMatchObject({ id: "osm-way-510000204", kind: "venue" });
  });

  it("mbdump-place.jsonl reads as dump lines: a studio and a closed club skipped", async () => {
    const { venues, report, problems } = await read(MB);
    expect(problems).toEqual([]);
    expect(report).toMatchObject({ read: 12, kept: 10, skipped: { "type Studio": 1, closed: 1 } });
    expect(venues.map((v) => v.kind)).toEqual(expect.arrayContaining(["club", "venue", "arena", "stadium"]));
    expect(readFileSync(MB, "utf8").endsWith("\n")).toBe(false);
  });
});

describe("test/fixtures/fetch/mbdump-place.jsonl", () => {
  it("links some places to setlist.fm venue pages, others only elsewhere", () => {
    const every = places();
    const linked = every.filter((p) => p.relations.some((r) => r["type-id"] === SETLISTFM));
    expect(linked.map((p) => p.name)).toEqual([
      "Berghain",
      "Columbiahalle",
      "Tempodrom",
      "Uber Arena",
      "SO36",
      "Knaack-Klub",
      "Elbphilharmonie",
      "Crystal Ballroom",
    ]);
    for (const r of linked.flatMap((p) => p.relations.filter((x) => x["type-id"] === SETLISTFM))) {
      expect(r).toMatchObject({ type: "setlistfm", "target-type": "url" });
      expect(r.url.resource).toMatch(/^https:\/\/www\.setlist\.fm\/venue\/[a-z0-9-]+-[0-9a-f]{8}\.html$/);
    }
    const others = every.filter((p) => !linked.includes(p) && p.relations.length > 0);
    expect(others.map((p) => p.name)).toEqual([
      "Olympiastadion Berlin",
      "Philharmonie Berlin",
      "Hansa Studios",
      "Lanxess Arena",
    ]);
  });

  it("has places that are the same venue as an OSM element: same normalized name, within 100 m", () => {
    const elements = (JSON.parse(readFileSync(OSM, "utf8")) as { elements: Element[] }).elements;
    const same = places().filter((p) =>
      elements.some((e) => {
        const at = e.center ?? { lat: e.lat ?? NaN, lon: e.lon ?? NaN };
        const near =
          p.coordinates !== null && km(p.coordinates.latitude, p.coordinates.longitude, at.lat, at.lon) < 0.1;
        return near && normalize(e.tags?.name ?? "") === normalize(p.name);
      }),
    );
    expect(same.map((p) => p.name)).toEqual([
      "Berghain",
      "Columbiahalle",
      "Tempodrom",
      "Uber Arena",
      "SO36",
      "Olympiastadion Berlin",
      "Elbphilharmonie",
      "Lanxess Arena",
      "Crystal Ballroom",
    ]);
  });
});
