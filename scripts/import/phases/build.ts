/**
 * Builds the search data into a private SQLite file (no one reads it meanwhile, so transactions
 * may be long), phase by phase: read (sources → raw tables), order (the served tables), documents
 * (of the FTS indexes), vocabulary (words and their typo keys), stored totals. publish/ then
 * copies the result to the target.
 *
 * Memory does not grow with the data: sources stream row by row into raw tables; ordering, ranks,
 * joins and counts are SQL on those tables (SQLite sorts on disk); JS passes read back in batches.
 */
import type Database from "better-sqlite3";
import type { Problems } from "../problems.ts";
import type { Progress } from "../progress.ts";
import { dropRawTables } from "./build-file.ts";
import { cityDocuments, venueDocuments } from "./documents.ts";
import { largestPopulation, orderCities, orderVenues, regionsAndNames } from "./order.ts";
import { citiesOutsideTheAdmin1Table, readCityRows, readLocalized, readRegions } from "./read.ts";
import { storedTotals } from "./stored-totals.ts";
import type { VenueFileReport } from "../sources/venue-files.ts";
import { dropSameVenues, placeVenues } from "./place-venues.ts";
import { checkVenues, readVenueRows, type VenueSources } from "./venue-rows.ts";
import { vocabulary } from "./vocabulary.ts";
import { placeNames } from "./place-names.ts";
import { readRegionCodes } from "../sources/region-codes.ts";
import { cellCounts, CELL_COUNT_MIN, gridFunctions } from "./cell-counts.ts";
import { FtsPrebuild } from "./fts-prebuild.ts";
import { SETLIST_VENUE_URL_PREFIX } from "../../../src/data-contract/ids.ts";
import { collectGarbage } from "../../tools/collect-garbage.ts";
import { dropOtherCities, keepShardVenues, type ShardChoice } from "../shards/venues.ts";
import { takeMainVenuesOut } from "../shards/main-venues.ts";
import { indexedRecords } from "../shards/served.ts";
import { keepRead, type ReadShared, type ReadState } from "../shards/read-once.ts";
import { noCounts, type BuildCounts } from "./counts.ts";
import type { Country } from "../sources/geonames.ts";

/** Name prefixes that match at least this many rows get a stored total (and anchors of deep pages). */
const PREFIX_COUNT_MIN = 1000;
/** An anchor of deep pages every this many matches of a broad prefix's name tier. */
const NAME_ANCHOR_EVERY = 100;

export interface BuildSources extends VenueSources {
  countries: string;
  admin1: string;
  cities: string;
  localized: string;
  /** Abbreviations of regions with numeric admin-1 codes (data/region-codes.tsv). */
  regionCodes: string;
  /** Only the cities of at least this many people (a smaller data set: docs/deploy.md#workers-free). */
  minPopulation?: number;
}

/** Reads, validates and derives everything; the build file then holds the data to publish. */
export async function build(
  db: Database.Database,
  sources: BuildSources,
  problems: Problems,
  progress: Progress,
  options: {
    prefixCountMin?: number;
    anchorEvery?: number;
    cellCountMin?: number;
    shards?: ShardChoice;
    read?: ReadShared;
  } = {},
): Promise<BuildCounts> {
  gridFunctions(db);
  const prefixCountMin = options.prefixCountMin ?? PREFIX_COUNT_MIN;
  const anchorEvery = options.anchorEvery ?? NAME_ANCHOR_EVERY;
  const { counts, countries } =
    options.read?.kept === undefined
      ? await readSources(db, sources, noCounts(anchorEvery), problems, progress)
      : readAsKept(options.read.kept, problems, progress);
  // The main database's plan is kept with its reading (it changes no row), for the venue databases' builds.
  if (options.shards !== undefined)
    counts.shardPlan = keepShardVenues(db, options.shards, options.read?.kept?.counts.shardPlan);
  if (options.read?.keep !== undefined)
    keepRead(db, options.read.keep, { counts, countries, problems: problems.collected() });

  const shard = options.shards?.index ?? null;
  const indexed = indexedRecords(options.shards);
  counts.cities = orderCities(db, progress, shard);
  counts.largestPopulation = largestPopulation(db);
  cityDocuments(db, progress, indexed.cities);
  const indexes = new FtsPrebuild(db);
  try {
    indexes.index("side_cities");
    counts.venues = orderVenues(db, progress);
    if (shard !== null) dropOtherCities(db, shard);
    counts.localizedNames = regionsAndNames(db, progress);
    counts.placeNames = placeNames(db, countries, await readRegionCodes(sources.regionCodes, problems));
    problems.check();
    venueDocuments(db, progress, indexed.venues);
    indexes.index("side_venues");
    counts.words = vocabulary(db, progress);
    indexes.index("side_words");
    storedTotals(db, progress, { prefixCountMin, anchorEvery, cities: indexed.cities });
    counts.cellCounts = cellCounts(db, progress, options.cellCountMin ?? CELL_COUNT_MIN, indexed.cities);
    dropRawTables(db);
    progress.phase("waiting for the search indexes (built beside the phases before)");
    await indexes.done();
  } finally {
    await indexes.close();
  }
  takeMainVenuesOut(db, options.shards, progress);
  return counts;
}

/** The sources into the raw tables, the venues placed and checked: the counts so far and the countries read. */
async function readSources(
  db: Database.Database,
  sources: BuildSources,
  counts: BuildCounts,
  problems: Problems,
  progress: Progress,
): Promise<{ counts: BuildCounts; countries: Country[] }> {
  const { countries } = await readPlaces(db, sources, counts, problems, progress);
  const byCountry = new Map(countries.map((c) => [c.code, c]));
  counts.venueFiles = await readVenueRows(db, sources, byCountry, problems, progress);
  placeVenues(db, progress);
  collectGarbage();
  counts.venueSources = sources.venueCount > 0 ? ["generated"] : [];
  // Generated venues need no checks: their ids are a bijection of their numbers (generate/ids.ts)
  // and their cities the raw cities; each check reads every venue row (10M: 51 s, 2026-11-27).
  if (sources.venueFiles.length > 0) {
    const sameVenues = dropSameVenues(db);
    counts.duplicateVenues = checkVenues(db, problems, progress);
    placementReports(db, counts.venueFiles, sameVenues);
    counts.venueSources = db
      .prepare("SELECT DISTINCT source FROM raw_venues ORDER BY source")
      .pluck()
      .all() as string[];
  }
  return { counts, countries };
}

/** The reading of the main database's build, taken over with its copy of the build file. */
function readAsKept(kept: ReadState, problems: Problems, progress: Progress) {
  progress.phase("the sources as the main database's build read them (a copy of its build file)");
  problems.takeOver(kept.problems);
  return { counts: kept.counts, countries: kept.countries };
}

/** The countries, regions, localized names and cities into the build (their counts into `counts`). */
async function readPlaces(
  db: Database.Database,
  sources: BuildSources,
  counts: BuildCounts,
  problems: Problems,
  progress: Progress,
) {
  const regions = await readRegions(db, sources, problems, progress);
  counts.countries = regions.countries.length;
  counts.admin1 = regions.admin1;
  const codes = regions.countries.map((c) => c.code);
  const localizedByCity = await readLocalized(db, sources.localized, codes, problems, progress);
  const { cities, minPopulation } = sources;
  const read = await readCityRows(db, cities, new Set(codes), localizedByCity, problems, progress, minPopulation);
  counts.notPopulated = read.notPopulated;
  counts.belowMinPopulation = read.belowMinPopulation;
  counts.badAlternateNames = read.badAlternateNames;
  counts.outsideAdmin1 = citiesOutsideTheAdmin1Table(db);
  return regions;
}

/** How the venues of each file got their city (after placing and the checks). */
function placementReports(db: Database.Database, reports: VenueFileReport[], sameVenues: Map<string, number>): void {
  const rows = db
    .prepare(
      `SELECT file, placed, count(*) AS n, sum(url LIKE '${SETLIST_VENUE_URL_PREFIX}%') AS setlist
       FROM raw_venues GROUP BY file, placed`,
    )
    .all() as { file: string; placed: string | null; n: number; setlist: number }[];
  for (const report of reports) {
    const of = (placed: string | null) => rows.find((r) => r.file === report.file && r.placed === placed)?.n ?? 0;
    report.setlistIds = rows.filter((r) => r.file === report.file).reduce((n, r) => n + r.setlist, 0);
    report.placed = {
      given: of("given"),
      hint: of("hint"),
      position: of("position"),
      none: of(null),
      sameVenue: sameVenues.get(report.file) ?? 0,
    };
  }
}
