/**
 * The data of the brute-force tests (suggest-brute-force, order-brute-force): venues with names from
 * a small pool (so texts share words across records and names), other names, kinds and places, as
 * a venue file; and texts people type, drawn from the records' names.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { normalize, words } from "../../src/data-contract/normalize.ts";
import { VENUE_KINDS } from "../../src/data-contract/venue-kinds.ts";
import { random } from "../../scripts/tools/random.ts";
import { dir, FIXTURES } from "./import-fixtures.ts";
import { citiesOf, venuesOf, type Candidate, type VenueRow } from "./suggest-brute-force.ts";

const POOL =
  "new york club arena the blue room hall san paris berlin music theatre park garden union royal star moon sun west east old".split(
    " ",
  );

/** Venues with names from a small pool (so texts share words across records and names), other names, kinds, places. */
export function venueRows(cities: readonly Candidate[], n: number): VenueRow[] {
  const next = random("venues 49");
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const name = () => Array.from({ length: 2 + Math.floor(next() * 2) }, () => pick(POOL)).join(" ");
  return Array.from({ length: n }, (_, i) => {
    const city = next() < 0.95 ? pick(cities) : null;
    const own = city !== null && city.lat !== null && city.lng !== null && next() < 0.5;
    return {
      id: `bf-${i}`,
      name: `${name()} ${i % 7 === 0 ? "" : String(i)}`.trim(),
      otherNames: Array.from({ length: Math.floor(next() * 3) }, name),
      cityId: city?.id ?? null,
      lat: own ? (city.lat ?? 0) + (next() - 0.5) / 10 : null,
      long: own ? (city.lng ?? 0) + (next() - 0.5) / 10 : null,
      kind: pick(VENUE_KINDS),
    };
  });
}

export function writeVenues(rows: readonly VenueRow[]): string {
  const file = join(dir, "brute-force-venues.ndjson");
  const lines = rows.map((v) =>
    JSON.stringify({
      id: v.id,
      name: v.name,
      cityId: v.cityId ?? "",
      url: `https://example.org/venue/${v.id}`,
      ...(v.lat === null ? {} : { lat: v.lat, long: v.long }),
      kind: v.kind,
      otherNames: v.otherNames,
    }),
  );
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

/**
 * Texts people type: prefixes of names, words of two names of one record (or of two records), and
 * (issue 55) words of one name followed by the start of one of its words again — `al basrah al`,
 * `san s` — which a name holds only when it has that many words starting so.
 */
export function textsOf(records: readonly Candidate[], count: number, seed: number): string[] {
  const next = random(`texts ${seed}`);
  const pick = <T>(list: readonly T[]): T | undefined => list[Math.floor(next() * list.length)];
  const formOf = (record: Candidate | undefined) => pick(pick(record?.names ?? []) ?? []) ?? "";
  const wordOf = (form: string) => pick(words(form)) ?? "";
  const start = (word: string) => [...word].slice(0, 1 + Math.floor(next() * 3)).join("");
  const texts = new Set<string>();
  while (texts.size < count) {
    const record = pick(records);
    const form = formOf(record);
    const other = formOf(next() < 0.7 ? record : pick(records));
    const kind = next();
    if (kind < 0.4) texts.add(form.slice(0, 2 + Math.floor(next() * 10)).trim());
    else if (kind < 0.7) texts.add(`${wordOf(form)} ${start(wordOf(other))}`.trim());
    else
      texts.add(
        `${form
          .split(" ")
          .slice(0, 1 + Math.floor(next() * 2))
          .join(" ")} ${start(wordOf(form))}`.trim(),
      );
  }
  return [...texts].filter((t) => words(normalize(t)).length > 0);
}

/**
 * The brute force's data: the fixture's cities and 600 venues with other names on them (written as
 * a venue file), as the brute force reads them, and the options that import them into `path` (a
 * small prefix minimum: broad words' anchored pages are compared too).
 */
export function bruteForceData(path: string) {
  const cities = citiesOf(FIXTURES.cities, FIXTURES.localized);
  const rows = venueRows(cities, 600);
  const target = { kind: "file" as const, path };
  return {
    cities,
    venues: venuesOf(rows, cities),
    options: { ...FIXTURES, venues: [writeVenues(rows)], prefixCountMin: 10, target },
  };
}
