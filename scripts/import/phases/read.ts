/**
 * Phase 1, read and validate: the GeoNames sources and the localized names, streamed row by row
 * through their readers' checks into the build file's raw tables (venues: venue-rows.ts). Bad rows
 * go to `problems`; the build stops after a source that had any, unless --skip-invalid.
 */
import { basename } from "node:path";
import type Database from "better-sqlite3";
import { normalize } from "../../../src/data-contract/normalize.ts";
import { inWorker, ROW_WORKERS } from "../../tools/in-worker.ts";
import type { LocalizedName } from "../../../src/data-contract/name-index.ts";
import type { CityJob, CityRowsJob, CityRowsWritten } from "./raw-city.ts";
import type { Problems } from "../problems.ts";
import type { Progress } from "../progress.ts";
import {
  readAdmin1,
  readCities,
  readCountryInfo,
  type City,
  type CityReadCounts,
  type Country,
} from "../sources/geonames.ts";
import { countryNames, readLocalizedNames } from "../sources/localized-names.ts";
import { attachedPath } from "./build-file.ts";

/** countryInfo and admin-1 names into the served tables (they are small and read whole). */
export async function readRegions(
  db: Database.Database,
  files: { countries: string; admin1: string },
  problems: Problems,
  progress: Progress,
): Promise<{ countries: Country[]; admin1: number }> {
  progress.phase(`reading ${basename(files.countries)} and ${basename(files.admin1)}`);
  const countries = await readCountryInfo(files.countries, problems);
  const admin1 = await readAdmin1(files.admin1, problems);
  problems.check();
  const insertCountry = db.prepare("INSERT INTO countries (code, name, name_norm) VALUES (?, ?, ?)");
  const insertAdmin1 = db.prepare("INSERT INTO admin1 (country_code, code, name, name_norm) VALUES (?, ?, ?, ?)");
  db.transaction(() => {
    for (const c of countries) insertCountry.run(c.code, c.name, normalize(c.name));
    for (const a of admin1) insertAdmin1.run(a.countryCode, a.code, a.name, normalize(a.name));
  })();
  return { countries, admin1: admin1.length };
}

/** Localized names into raw_localized; returns each city's localized names (they are names of the city too). */
export async function readLocalized(
  db: Database.Database,
  file: string,
  countryCodes: readonly string[],
  problems: Problems,
  progress: Progress,
): Promise<Map<string, LocalizedName[]>> {
  progress.phase(`reading ${basename(file)}`);
  const localized = await readLocalizedNames(file, problems);
  problems.check();
  const byCity = new Map<string, LocalizedName[]>();
  for (const l of localized) {
    if (l.key.includes(".")) continue;
    byCity.set(l.key, [...(byCity.get(l.key) ?? []), { lang: l.lang as LocalizedName["lang"], name: l.name }]);
  }
  const insert = db.prepare("INSERT INTO raw_localized (lang, key, name) VALUES (?, ?, ?)");
  db.transaction(() => {
    for (const l of [...localized, ...countryNames(countryCodes)]) insert.run(l.lang, l.key, l.name);
  })();
  return byCity;
}

/** Jobs of cities in batches, with their localized names, for the workers to write into `file`. */
async function* cityJobs(
  cities: AsyncIterable<City>,
  localized: ReadonlyMap<string, LocalizedName[]>,
  file: string,
): AsyncGenerator<CityRowsJob> {
  let batch: CityJob[] = [];
  for await (const c of cities) {
    batch.push([c, localized.get(c.id) ?? []]);
    if (batch.length < CITY_JOB) continue;
    yield { file, cities: batch };
    batch = [];
  }
  if (batch.length > 0) yield { file, cities: batch };
}

/** Cities of one job of the worker. */
const CITY_JOB = 2000;

/** The rows of raw_cities of the cities read, made and written by worker threads (city-rows-worker.ts) as they are read. */
function citiesWritten(cities: AsyncIterable<City>, localized: ReadonlyMap<string, LocalizedName[]>, file: string) {
  const module = new URL("./city-rows-worker.ts", import.meta.url);
  return inWorker<CityRowsJob, CityRowsWritten>(module, cityJobs(cities, localized, file), ROW_WORKERS);
}

/** What reading the cities left out: what the geoname table's reader counts, and the places below --min-population. */
interface CityRowCounts extends CityReadCounts {
  belowMinPopulation: number;
}

/**
 * The cities of at least `min` people (a smaller data set: docs/deploy.md#workers-free); the others
 * counted. Such a data set keeps a city's own, ASCII and localized names, not the other alternate
 * names GeoNames lists: a big city has dozens, each a document of city_name_words_fts, most of the
 * rows that the 2,491 cities of 200,000 people or more would write (53,798 of 141,888 with 4,000
 * venues, 2026-11-28).
 */
async function* atLeast(cities: AsyncIterable<City>, min: number, counts: CityRowCounts): AsyncGenerator<City> {
  for await (const city of cities) {
    if (min === 0) yield city;
    else if (city.population >= min) yield { ...city, alternateNames: [] };
    else counts.belowMinPopulation++;
  }
}

/** The populated places of the geoname table (of at least `minPopulation` people) into raw_cities, streamed. */
export async function readCityRows(
  db: Database.Database,
  file: string,
  countryCodes: ReadonlySet<string>,
  localizedByCity: ReadonlyMap<string, LocalizedName[]>,
  problems: Problems,
  progress: Progress,
  minPopulation = 0,
): Promise<CityRowCounts> {
  progress.phase(`reading ${basename(file)}`);
  const counts: CityRowCounts = { lines: 0, notPopulated: 0, badAlternateNames: 0, belowMinPopulation: 0 };
  const zeroRegions = new Set(
    db.prepare("SELECT country_code FROM admin1 WHERE code = '00'").pluck().all() as string[],
  );
  const cities = atLeast(readCities(file, problems, countryCodes, counts, zeroRegions), minPopulation, counts);
  // The workers write the build file: this connection holds no transaction meanwhile.
  const repeated: [gid: number, line: number][] = [];
  let written = 0;
  for await (const job of citiesWritten(cities, localizedByCity, attachedPath(db, "main"))) {
    written += job.written;
    repeated.push(...job.repeated);
    progress.tick(written);
  }
  reportRepeated(db, basename(file), repeated, problems);
  problems.check();
  return counts;
}

/** Each line whose geonameid an earlier line has (the row kept: city-rows-worker.ts), in the order of the lines. */
function reportRepeated(db: Database.Database, file: string, repeated: [number, number][], problems: Problems) {
  const firstLineOf = db.prepare("SELECT line FROM raw_cities WHERE gid = ?").pluck();
  for (const [gid, line] of repeated.sort((a, b) => a[1] - b[1])) {
    problems.add(file, line, `geonameid ${gid} appears twice (first on line ${String(firstLineOf.get(gid))})`);
  }
}

/**
 * Cities whose admin-1 code the admin-1 table lacks, per country (most first): they are served
 * without a state. Many of them mean the table is of another GeoNames date than the cities
 * (GeoNames renumbers regions: Vietnam 2025, Norway 2024).
 */
export function citiesOutsideTheAdmin1Table(db: Database.Database): [country: string, cities: number][] {
  const rows = db
    .prepare(
      `SELECT r.country_code AS country, count(*) AS cities FROM raw_cities r
       WHERE r.admin1_code IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM admin1 a WHERE a.country_code = r.country_code AND a.code = r.admin1_code)
       GROUP BY r.country_code ORDER BY cities DESC, country`,
    )
    .all() as { country: string; cities: number }[];
  return rows.map((r) => [r.country, r.cities]);
}
