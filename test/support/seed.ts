/**
 * The worker tests' database: the fixture files in test/fixtures (plus generated venues for
 * volume) run through the import's own build, then published with the very statements a remote
 * import sends to D1 (scripts/import/publish/remote.ts), which the test setup runs against the local D1
 * inside workerd. So every worker test run also checks the remote import path on D1 itself.
 */
import { DEFAULT_SELECTION } from "../../scripts/import/sources/venue-selection.ts";
import { defaultSources } from "../../scripts/import/sources/resolve.ts";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "../../scripts/import/phases/build.ts";
import { createBuildFile } from "../../scripts/import/phases/build-file.ts";
import { generateVenues, generatorCity } from "../../scripts/import/generate/venues.ts";
import { Problems } from "../../scripts/import/problems.ts";
import { Progress } from "../../scripts/import/progress.ts";
import { remoteParts } from "../../scripts/import/publish/remote.ts";
import { isSection, readCities, readCountryInfo, type City } from "../../scripts/import/sources/geonames.ts";

const FIXTURE_DATA_VERSION = "fixture-v1";
const GENERATED_FIXTURE_VENUES = 3000;
const FIXTURE_PREFIX_COUNT_MIN = 20;
const FIXTURE_ANCHOR_EVERY = 7;

export const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

/** The fixture's venues.csv and generated venues on the fixture's cities, as one CSV file. */
async function fixtureVenues(path: string): Promise<void> {
  const problems = new Problems(false);
  const countries = await readCountryInfo(fixture("countryInfo.txt"), problems);
  const cities: City[] = [];
  const counts = { lines: 0, notPopulated: 0, badAlternateNames: 0 };
  for await (const c of readCities(fixture("cities.txt"), problems, new Set(countries.map((c) => c.code)), counts)) {
    cities.push(c);
  }
  const byCode = new Map(countries.map((c) => [c.code, c]));
  const generated = generateVenues(
    cities.map((c) => generatorCity({ ...c, section: isSection(c) }, byCode)),
    { count: GENERATED_FIXTURE_VENUES, seed: "fixture" },
  );
  const quote = (field: string) => `"${field.replaceAll('"', '""')}"`;
  // Every other generated venue keeps its own point; the rest sit at their city's (both are searched).
  const rows = generated.map((v, i) => {
    const point = i % 2 === 0 && v.lat !== null && v.lng !== null ? [String(v.lat), String(v.lng)] : ["", ""];
    return [v.id, v.name, v.cityId ?? "", v.url, ...point, v.kind].map(quote).join(",");
  });
  writeFileSync(path, `${readFileSync(fixture("venues.csv"), "utf8").trimEnd()}\n${rows.join("\n")}\n`);
}

export async function fixtureSeedStatements(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "vcs-seed-"));
  try {
    const venues = join(dir, "venues.csv");
    await fixtureVenues(venues);
    const problems = new Problems(false);
    const db = createBuildFile(join(dir, "build.sqlite"));
    try {
      const counts = await build(
        db,
        {
          countries: fixture("countryInfo.txt"),
          admin1: fixture("admin1CodesASCII.txt"),
          cities: fixture("cities.txt"),
          localized: fixture("localized-names.tsv"),
          regionCodes: defaultSources().regionCodes,
          venueFiles: [venues],
          venueCount: 0,
          seed: "fixture",
          selection: DEFAULT_SELECTION,
        },
        problems,
        new Progress(process.stderr, true),
        // A low threshold, so that the stored totals of broad name prefixes are used (and checked
        // against the pages) by the worker tests as they are at full scale.
        // Anchors of deep pages every 7 matches: the tests page through anchored searches.
        { prefixCountMin: FIXTURE_PREFIX_COUNT_MIN, anchorEvery: FIXTURE_ANCHOR_EVERY },
      );
      problems.check();
      const meta: [string, string][] = [
        ["data_version", FIXTURE_DATA_VERSION],
        ["sources", "test fixtures"],
        ["rows_cities", String(counts.cities)],
        ["rows_venues", String(counts.venues)],
        ["name_anchor_every", String(counts.anchorEvery)],
        // As the import records them (scripts/import/run.ts): the fixture's venues are a file's.
        ["venue_sources", counts.venueSources.join(",")],
      ];
      return [...remoteParts(db, meta, FIXTURE_DATA_VERSION, "fixture")].flatMap((p) =>
        [...p.statements].map((s) => s.sql),
      );
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
