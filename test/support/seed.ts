/**
 * The worker tests' database: the fixture files in test/fixtures run through the import's own
 * readers and row builder (plus generated venues for volume), turned into SQL statements that
 * the test setup runs against the local D1 inside workerd.
 */
import { fileURLToPath } from "node:url";
import { buildDataset } from "../../scripts/lib/dataset.ts";
import { generateVenues, generatorCities } from "../../scripts/lib/generate-venues.ts";
import { readAdmin1, readCities, readCountryInfo } from "../../scripts/lib/geonames.ts";
import { countryNames, readLocalizedNames } from "../../scripts/lib/localized-names.ts";
import { Problems } from "../../scripts/lib/problems.ts";
import { insertStatements, literal } from "../../scripts/lib/sql-text.ts";
import { BUILD_SEARCH_INDEXES, metaRows, tableData } from "../../scripts/lib/tables.ts";
import { readVenueFiles } from "../../scripts/lib/venue-files.ts";

export const FIXTURE_DATA_VERSION = "fixture-v1";
export const GENERATED_FIXTURE_VENUES = 3000;
export const FIXTURE_PREFIX_COUNT_MIN = 20;

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

export async function fixtureSeedStatements(): Promise<string[]> {
  const problems = new Problems(false);
  const countries = await readCountryInfo(fixture("countryInfo.txt"), problems);
  const admin1 = await readAdmin1(fixture("admin1CodesASCII.txt"), problems);
  const { cities } = await readCities(fixture("cities.txt"), problems, {
    countries: new Set(countries.map((c) => c.code)),
  });
  const listed = await readVenueFiles([fixture("venues.csv")], problems);
  const localized = await readLocalizedNames(fixture("localized-names.tsv"), problems);
  const localizedCountries = countryNames(countries.map((c) => c.code));
  const generated = generateVenues(generatorCities(cities, countries), {
    count: GENERATED_FIXTURE_VENUES,
    seed: "fixture",
  });
  // A low threshold, so that the stored totals of broad name prefixes are used (and checked
  // against the pages) by the worker tests as they are at full scale.
  const dataset = buildDataset(
    { countries, admin1, cities, venues: [...listed, ...generated], localized, localizedCountries },
    problems,
    {
      prefixCountMin: FIXTURE_PREFIX_COUNT_MIN,
    },
  );
  problems.check();
  return [
    ...tableData(dataset).flatMap((t) => [...insertStatements(t)]),
    ...BUILD_SEARCH_INDEXES,
    ...metaRows(dataset, FIXTURE_DATA_VERSION, "test fixtures").map(
      ([k, v]) => `INSERT INTO meta (key, value) VALUES (${literal(k)}, ${literal(v)})`,
    ),
  ];
}
