/**
 * Builds the search data into a private SQLite file (no one reads it meanwhile, so transactions
 * may be long): the served tables of migrations/ under their own names, plus the documents of the
 * three FTS indexes (venue_docs, city_docs, word_docs), which publish.ts turns into the indexes
 * on the target.
 *
 * Memory does not grow with the data: sources stream row by row into raw tables; ordering, ranks,
 * joins and counts are SQL on those tables (SQLite sorts on disk); JS passes read back in batches.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import Database from "better-sqlite3";
import { indexDeletes } from "../../src/format/typo-keys.ts";
import { normalize, words } from "../../src/format/normalize.ts";
import { cityTokenSql, geoTokens, nameToken, regionTokens, zCode } from "../../src/format/tokens.ts";
import { cityVenues, citylessCount, citylessVenues, generatorCity, venueCounts, VenueIds } from "./generate-venues.ts";
import {
  nameAnchors,
  prefixCandidates,
  scopedPrefixCounts,
  type PrefixRecord,
  type TierRecord,
} from "./prefix-counts.ts";
import { ImportError, type Problems } from "./problems.ts";
import type { Progress } from "./progress.ts";
import { ROOT } from "./project.ts";
import { readAdmin1, readCities, readCountryInfo, type CityReadCounts, type Country } from "./sources/geonames.ts";
import { countryNames, readLocalizedNames } from "./sources/localized-names.ts";
import { readVenueFiles, type VenueInput } from "./sources/venue-files.ts";

/** Name prefixes that match at least this many rows get a stored total (and anchors of deep pages). */
export const PREFIX_COUNT_MIN = 1000;
/** An anchor of deep pages every this many matches of a broad prefix's name tier. */
export const NAME_ANCHOR_EVERY = 100;

/** Rows per transaction while streaming sources in. */
const BATCH = 20_000;

export interface BuildSources {
  countries: string;
  admin1: string;
  cities: string;
  localized: string;
  /** Venue files; none means generated venues. */
  venueFiles: string[];
  venueCount: number;
  seed: string;
}

export interface BuildCounts {
  /** An anchor of deep pages every this many matches (meta name_anchor_every). */
  anchorEvery: number;
  countries: number;
  admin1: number;
  cities: number;
  venues: number;
  words: number;
  localizedNames: number;
  notPopulated: number;
  badAlternateNames: number;
  duplicateVenues: number;
}

/** Counts before anything was read. */
export function noCounts(anchorEvery = 0): BuildCounts {
  return {
    anchorEvery,
    countries: 0,
    admin1: 0,
    cities: 0,
    venues: 0,
    words: 0,
    localizedNames: 0,
    notPopulated: 0,
    badAlternateNames: 0,
    duplicateVenues: 0,
  };
}

/** The tables of the build that publish.ts copies, in load order, and the FTS documents. */
export const PLAIN_TABLES = [
  "countries",
  "admin1",
  "cities",
  "venues",
  "words",
  "region_counts",
  "name_prefix_counts",
  "name_tiers",
  "name_anchors",
  "localized_names",
] as const;
export const FTS_DOCUMENTS = [
  { table: "cities_fts", docs: "city_docs" },
  { table: "venues_fts", docs: "venue_docs" },
  { table: "words_fts", docs: "word_docs" },
] as const;

/** Creates an empty build file with the served schema (migrations/) and the build's own tables. */
export function createBuildFile(path: string): Database.Database {
  rmSync(path, { force: true });
  const db = new Database(path);
  db.pragma("journal_mode = OFF");
  db.pragma("synchronous = OFF");
  db.pragma("cache_size = -65536"); // 64 MiB
  db.pragma("temp_store = FILE");
  const dir = join(ROOT, "migrations");
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort()) {
    db.exec(readFileSync(join(dir, file), "utf8"));
  }
  // The served tables' indexes are built on the target, from all the rows at once (publish.ts):
  // the build keeps their statements and writes its rows without them.
  db.exec(`
    CREATE TABLE build_indexes (name TEXT PRIMARY KEY, tbl TEXT NOT NULL, sql TEXT NOT NULL);
    INSERT INTO build_indexes SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL;`);
  for (const name of db.prepare("SELECT name FROM build_indexes").pluck().all() as string[]) {
    db.exec(`DROP INDEX "${name}"`);
  }
  db.exec(`
    CREATE TABLE raw_cities (
      gid INTEGER PRIMARY KEY, name TEXT NOT NULL, name_norm TEXT NOT NULL, ascii_norm TEXT,
      country_code TEXT NOT NULL, admin1_code TEXT, lat REAL NOT NULL, lng REAL NOT NULL,
      population INTEGER NOT NULL, z INTEGER NOT NULL,
      words TEXT NOT NULL,   -- the distinct words of all its names
      names TEXT NOT NULL,   -- each distinct name as a name token
      tokens TEXT NOT NULL,  -- region and geo tokens
      line INTEGER NOT NULL
    );
    -- No index while loading (ids come in random order): repeated ids are found by sorting, after.
    CREATE TABLE raw_venues (
      id TEXT NOT NULL, name TEXT NOT NULL, name_norm TEXT NOT NULL, name_token TEXT NOT NULL,
      city_gid INTEGER, url TEXT, file TEXT NOT NULL, line INTEGER NOT NULL
    );
    CREATE TABLE raw_localized (lang TEXT NOT NULL, key TEXT NOT NULL, name TEXT NOT NULL);
    CREATE TABLE city_docs (pos INTEGER PRIMARY KEY, doc TEXT NOT NULL);
    CREATE TABLE venue_docs (pos INTEGER PRIMARY KEY, doc TEXT NOT NULL);
    CREATE TABLE word_docs (pos INTEGER PRIMARY KEY, doc TEXT NOT NULL);
  `);
  return db;
}

/** Runs `write` over an async stream of items in transactions of BATCH items. */
async function inBatches<T>(
  db: Database.Database,
  items: AsyncIterable<T> | Iterable<T>,
  write: (item: T) => void,
  tick: (n: number) => void,
): Promise<number> {
  let n = 0;
  db.exec("BEGIN");
  try {
    for await (const item of items) {
      write(item);
      if (++n % BATCH === 0) {
        db.exec("COMMIT");
        tick(n);
        db.exec("BEGIN");
      }
    }
    db.exec("COMMIT");
  } catch (e) {
    if (db.inTransaction) db.exec("ROLLBACK");
    throw e;
  }
  tick(n);
  return n;
}

/** Reads, validates and derives everything; the build file then holds the data to publish. */
export async function build(
  db: Database.Database,
  sources: BuildSources,
  problems: Problems,
  progress: Progress,
  options: { prefixCountMin?: number; anchorEvery?: number } = {},
): Promise<BuildCounts> {
  const prefixCountMin = options.prefixCountMin ?? PREFIX_COUNT_MIN;
  const anchorEvery = options.anchorEvery ?? NAME_ANCHOR_EVERY;
  const counts = noCounts(anchorEvery);

  progress.phase(`reading ${basename(sources.countries)} and ${basename(sources.admin1)}`);
  const countries = await readCountryInfo(sources.countries, problems);
  const admin1 = await readAdmin1(sources.admin1, problems);
  problems.check();
  const insertCountry = db.prepare("INSERT INTO countries (code, name, name_norm) VALUES (?, ?, ?)");
  const insertAdmin1 = db.prepare("INSERT INTO admin1 (country_code, code, name, name_norm) VALUES (?, ?, ?, ?)");
  db.transaction(() => {
    for (const c of countries) insertCountry.run(c.code, c.name, normalize(c.name));
    for (const a of admin1) insertAdmin1.run(a.countryCode, a.code, a.name, normalize(a.name));
  })();
  counts.countries = countries.length;
  counts.admin1 = admin1.length;

  progress.phase(`reading ${basename(sources.localized)}`);
  const localized = await readLocalizedNames(sources.localized, problems);
  problems.check();
  const localizedByCity = new Map<string, string[]>();
  for (const l of localized) {
    if (l.key.includes(".")) continue;
    const list = localizedByCity.get(l.key) ?? [];
    list.push(l.name);
    localizedByCity.set(l.key, list);
  }
  const insertLocalized = db.prepare("INSERT INTO raw_localized (lang, key, name) VALUES (?, ?, ?)");
  db.transaction(() => {
    for (const l of [...localized, ...countryNames(countries.map((c) => c.code))])
      insertLocalized.run(l.lang, l.key, l.name);
  })();

  progress.phase(`reading ${basename(sources.cities)}`);
  const readCounts: CityReadCounts = { lines: 0, notPopulated: 0, badAlternateNames: 0 };
  const citiesFile = basename(sources.cities);
  const insertCity = db.prepare(
    `INSERT INTO raw_cities (gid, name, name_norm, ascii_norm, country_code, admin1_code, lat, lng, population, z, words, names, tokens, line)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const firstLineOf = db.prepare("SELECT line FROM raw_cities WHERE gid = ?").pluck();
  counts.cities = await inBatches(
    db,
    readCities(sources.cities, problems, new Set(countries.map((c) => c.code)), readCounts),
    (c) => {
      // Localized city names are names of the city too: `Wiedeń` finds Vienna whatever the language.
      const names = [c.name, c.asciiName, ...c.alternateNames, ...(localizedByCity.get(c.id) ?? [])];
      const normalized = [...new Set(names.map(normalize))].filter(Boolean);
      const nameNorm = normalize(c.name);
      const asciiNorm = normalize(c.asciiName);
      try {
        insertCity.run(
          Number(c.id),
          c.name,
          nameNorm,
          asciiNorm === nameNorm ? null : asciiNorm,
          c.countryCode,
          c.admin1Code,
          c.lat,
          c.lng,
          c.population,
          zCode(c.lat, c.lng),
          [...new Set(normalized.flatMap(words))].join(" "),
          normalized.map(nameToken).join(" "),
          [...regionTokens(c.countryCode, c.admin1Code), ...geoTokens(c.lat, c.lng)].join(" "),
          c.line,
        );
      } catch (e) {
        if (!isUniqueViolation(e)) throw e;
        problems.add(
          citiesFile,
          c.line,
          `geonameid ${c.id} appears twice (first on line ${String(firstLineOf.get(Number(c.id)))})`,
        );
      }
    },
    (n) => progress.tick(n),
  );
  counts.notPopulated = readCounts.notPopulated;
  counts.badAlternateNames = readCounts.badAlternateNames;
  problems.check();

  const byCountry = new Map<string, Country>(countries.map((c) => [c.code, c]));
  const venueRows =
    sources.venueFiles.length === 0
      ? generated(db, byCountry, sources, progress)
      : fromFiles(sources.venueFiles, problems, progress);
  const insertVenue = db.prepare(
    "INSERT INTO raw_venues (id, name, name_norm, name_token, city_gid, url, file, line) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  );
  await inBatches(
    db,
    venueRows,
    (v) => {
      const nameNorm = normalize(v.name);
      const token = words(nameNorm).length > 0 ? nameToken(nameNorm) : "";
      insertVenue.run(
        v.id,
        v.name,
        nameNorm,
        token,
        v.cityId === null ? null : Number(v.cityId),
        v.url,
        v.file,
        v.line,
      );
    },
    (n) => progress.tick(n),
  );
  progress.phase("checking venue ids and cities");
  counts.duplicateVenues = dropRepeatedVenues(db, problems);
  for (const r of db
    .prepare(
      `SELECT v.id, v.city_gid, v.file, v.line FROM raw_venues v
       WHERE v.city_gid IS NOT NULL AND NOT EXISTS (SELECT 1 FROM raw_cities c WHERE c.gid = v.city_gid)`,
    )
    .all() as { id: string; city_gid: number; file: string; line: number }[]) {
    problems.add(r.file, r.line, `venue ${r.id}: city ${r.city_gid} is not among the imported cities`);
  }
  db.exec("DELETE FROM raw_venues WHERE city_gid IS NOT NULL AND city_gid NOT IN (SELECT gid FROM raw_cities)");
  problems.check();

  progress.phase("ordering cities (population, then id) and ranking them in their countries and states");
  db.exec(`
    INSERT INTO cities (pos, id, name, name_norm, ascii_norm, country_code, admin1_code, lat, lng, population, z,
                        country_rank, state_rank, venue_first, venue_count)
    SELECT row_number() OVER (ORDER BY population DESC, gid), CAST(gid AS TEXT), name, name_norm, ascii_norm,
           country_code, admin1_code, lat, lng, population, z,
           row_number() OVER (PARTITION BY country_code ORDER BY population DESC, gid),
           CASE WHEN admin1_code IS NOT NULL
                THEN row_number() OVER (PARTITION BY country_code, admin1_code ORDER BY population DESC, gid) END,
           NULL, 0
    FROM raw_cities ORDER BY population DESC, gid;
    -- The build's own lookups: venues and localized names find their city by id, and the stored
    -- totals read the cities (and their venues) by country and state.
    CREATE INDEX build_cities_by_id ON cities (id);
    CREATE INDEX build_cities_by_region ON cities (country_code, admin1_code, state_rank);`);
  counts.cities = db.prepare("SELECT count(*) FROM cities").pluck().get() as number;

  progress.phase("ordering venues (city population, name, id) and ranking them");
  // The venues of a city are one pos range, so a venue's rank in its country (state) is the
  // venues of the country's (state's) bigger cities, from a running sum over the cities, plus its
  // place in its city: no sort of the venues but the one that numbers them.
  db.exec(`
    CREATE TEMP TABLE ordered_venues (
      pos INTEGER PRIMARY KEY, id TEXT NOT NULL, name TEXT NOT NULL, name_norm TEXT NOT NULL,
      name_token TEXT NOT NULL, city_pos INTEGER, url TEXT
    );
    INSERT INTO temp.ordered_venues
    SELECT row_number() OVER (ORDER BY c.pos IS NULL, c.pos, r.name_norm, r.id), r.id, r.name, r.name_norm,
           r.name_token, c.pos, r.url
    FROM raw_venues r LEFT JOIN cities c ON c.id = CAST(r.city_gid AS TEXT)
    ORDER BY 1;
    UPDATE cities SET venue_first = s.first, venue_count = s.n
    FROM (SELECT city_pos, min(pos) AS first, count(*) AS n FROM temp.ordered_venues WHERE city_pos IS NOT NULL
          GROUP BY city_pos) s
    WHERE cities.pos = s.city_pos;
    -- Running totals along the curve (migration 0006), cities and venues up to and including each.
    UPDATE cities SET z_cities = s.cities, z_venues = s.venues
    FROM (SELECT pos, row_number() OVER along AS cities, sum(venue_count) OVER along AS venues FROM cities
          WINDOW along AS (ORDER BY z, pos ROWS UNBOUNDED PRECEDING)) s
    WHERE cities.pos = s.pos;
    CREATE TEMP TABLE venues_before (pos INTEGER PRIMARY KEY, country INTEGER NOT NULL, state INTEGER);
    INSERT INTO temp.venues_before
    SELECT pos, sum(venue_count) OVER (PARTITION BY country_code ORDER BY pos) - venue_count,
           CASE WHEN admin1_code IS NOT NULL
                THEN sum(venue_count) OVER (PARTITION BY country_code, admin1_code ORDER BY pos) - venue_count END
    FROM cities WHERE venue_count > 0 ORDER BY pos;
    INSERT INTO venues (pos, id, name, city_pos, url, country_code, admin1_code, country_rank, state_rank)
    SELECT o.pos, o.id, o.name, o.city_pos, o.url, c.country_code, c.admin1_code,
           b.country + o.pos - c.venue_first + 1, b.state + o.pos - c.venue_first + 1
    FROM temp.ordered_venues o LEFT JOIN cities c ON c.pos = o.city_pos LEFT JOIN temp.venues_before b ON b.pos = o.city_pos
    ORDER BY o.pos;
    INSERT INTO region_counts (country_code, admin1_code, cities, venues)
    SELECT country_code, '', count(*), sum(venue_count) FROM cities GROUP BY country_code
    UNION ALL
    SELECT country_code, admin1_code, count(*), sum(venue_count) FROM cities WHERE admin1_code IS NOT NULL
    GROUP BY country_code, admin1_code;
    INSERT INTO localized_names (lang, kind, key, name)
    SELECT lang, CASE WHEN key GLOB '[0-9]*' THEN 'city' WHEN key GLOB '*.*' THEN 'admin1' ELSE 'country' END, key, name
    FROM raw_localized l
    WHERE EXISTS (SELECT 1 FROM cities WHERE id = l.key)
       OR EXISTS (SELECT 1 FROM admin1 WHERE country_code || '.' || code = l.key)
       OR EXISTS (SELECT 1 FROM countries WHERE code = l.key)
    ORDER BY 1, 2, 3;
    DROP TABLE temp.venues_before;`);
  counts.venues = db.prepare("SELECT count(*) FROM venues").pluck().get() as number;
  counts.localizedNames = db.prepare("SELECT count(*) FROM localized_names").pluck().get() as number;

  progress.phase("search documents of cities and venues");
  db.exec(`
    INSERT INTO city_docs (pos, doc)
    SELECT c.pos, r.words || ' ' || r.names || ' ' || r.tokens FROM cities c JOIN raw_cities r ON r.gid = CAST(c.id AS INTEGER)
    ORDER BY c.pos;
    INSERT INTO venue_docs (pos, doc)
    SELECT v.pos, trim(v.name_norm || ' ' || v.name_token || CASE WHEN v.city_pos IS NULL THEN ''
                  ELSE ' ' || r.tokens || ' ' || ${cityTokenSql("v.city_pos")} END)
    FROM temp.ordered_venues v LEFT JOIN cities c ON c.pos = v.city_pos
    LEFT JOIN raw_cities r ON r.gid = CAST(c.id AS INTEGER)
    ORDER BY v.pos;`);

  progress.phase("vocabulary of names (for the stored prefix totals and typo tolerance)");
  db.exec(`
    INSERT INTO words (word, venues, cities)
    SELECT value, sum(kind = 'v'), sum(kind = 'c') FROM (
      SELECT 'v' AS kind, j.value FROM temp.ordered_venues, json_each('["' || replace(name_norm, ' ', '","') || '"]') j
      UNION ALL
      SELECT 'c', j.value FROM raw_cities, json_each('["' || replace(words, ' ', '","') || '"]') j
    ) WHERE length(value) >= 3 GROUP BY value ORDER BY value`);
  counts.words = db.prepare("SELECT count(*) FROM words").pluck().get() as number;
  progress.phase("deletion neighbourhoods of the vocabulary (typo tolerance)", counts.words);
  // A function called by SQLite streams the words through, without reading them out in batches.
  db.function("index_deletes", { deterministic: true }, (word) => indexDeletes(String(word)));
  db.exec("INSERT INTO word_docs (pos, doc) SELECT id, index_deletes(word) FROM words ORDER BY id");
  progress.tick(counts.words);

  progress.phase("stored totals of broad name prefixes");
  const prefixRows: [string, string, string, number][] = [];
  for (const kind of ["venue", "city"] as const) {
    const column = kind === "venue" ? "venues" : "cities";
    const candidates = prefixCandidates(
      db.prepare(`SELECT word, ${column} FROM words WHERE ${column} > 0 ORDER BY id`).raw().iterate() as Iterable<
        [string, number]
      >,
      prefixCountMin,
    );
    type RegionRow = { text: string; country_code: string | null; admin1_code: string | null };
    const records: Iterable<RegionRow>[] =
      kind === "venue"
        ? [
            // Each city's venues are one pos range: cities by region, then their venues in order;
            // then the venues without a city.
            db
              .prepare(
                `SELECT o.name_norm AS text, c.country_code, c.admin1_code
                 FROM cities c JOIN temp.ordered_venues o ON o.pos >= c.venue_first AND o.pos < c.venue_first + c.venue_count
                 WHERE c.venue_count > 0 ORDER BY c.country_code, c.admin1_code, c.state_rank, o.pos`,
              )
              .iterate() as Iterable<RegionRow>,
            db
              .prepare(
                "SELECT name_norm AS text, NULL AS country_code, NULL AS admin1_code FROM temp.ordered_venues WHERE city_pos IS NULL",
              )
              .iterate() as Iterable<RegionRow>,
          ]
        : [
            db
              .prepare(
                `SELECT r.words AS text, c.country_code, c.admin1_code FROM cities c JOIN raw_cities r ON r.gid = CAST(c.id AS INTEGER)
                 ORDER BY c.country_code, c.admin1_code, c.state_rank`,
              )
              .iterate() as Iterable<RegionRow>,
          ];
    const rows = scopedPrefixCounts(prefixRecords(records), candidates, prefixCountMin);
    for (const [scope, prefix, n] of rows) prefixRows.push([kind, scope, prefix, n]);

    // Anchors of deep pages for the broad prefixes of scope '' (no filters), records in pos order.
    const broad = new Set(rows.filter(([scope]) => scope === "").map(([, prefix]) => prefix));
    const inOrder =
      kind === "venue"
        ? db.prepare("SELECT pos, name_norm AS text, name_token AS names FROM temp.ordered_venues ORDER BY pos")
        : db.prepare(
            "SELECT c.pos, r.words AS text, r.names FROM cities c JOIN raw_cities r ON r.gid = CAST(c.id AS INTEGER) ORDER BY c.pos",
          );
    const { tiers, anchors } = nameAnchors(
      tierRecords(inOrder.iterate() as Iterable<{ pos: number; text: string; names: string }>),
      broad,
      anchorEvery,
    );
    const insertTiers = db.prepare("INSERT INTO name_tiers (kind, prefix, tier0, tier1, tier2) VALUES (?, ?, ?, ?, ?)");
    const insertAnchor = db.prepare("INSERT INTO name_anchors (kind, prefix, tier, k, pos) VALUES (?, ?, ?, ?, ?)");
    db.transaction(() => {
      for (const t of tiers) insertTiers.run(kind, ...t);
      for (const a of anchors) insertAnchor.run(kind, ...a);
    })();
  }
  const insertPrefix = db.prepare("INSERT INTO name_prefix_counts (kind, scope, prefix, n) VALUES (?, ?, ?, ?)");
  db.transaction(() => {
    for (const row of prefixRows) insertPrefix.run(...row);
  })();

  db.exec("DROP TABLE raw_cities; DROP TABLE raw_venues; DROP TABLE raw_localized; DROP TABLE temp.ordered_venues;");
  return counts;
}

function* tierRecords(rows: Iterable<{ pos: number; text: string; names: string }>): Generator<TierRecord> {
  for (const r of rows) yield { pos: r.pos, words: words(r.text), nameTokens: words(r.names) };
}

function* prefixRecords(
  parts: Iterable<{ text: string; country_code: string | null; admin1_code: string | null }>[],
): Generator<PrefixRecord> {
  for (const rows of parts) {
    for (const r of rows) yield { words: words(r.text), countryCode: r.country_code, admin1Code: r.admin1_code };
  }
}

/**
 * A venue id given twice: the same row again (overlapping saved pages) is counted once; a
 * different row is a problem, reported at its line. Returns the number of repeats dropped.
 */
function dropRepeatedVenues(db: Database.Database, problems: Problems): number {
  const rows = db
    .prepare(
      `SELECT r.rowid, r.id, r.name, r.city_gid, r.url, r.file, r.line FROM raw_venues r
       JOIN (SELECT id FROM raw_venues GROUP BY id HAVING count(*) > 1) d ON d.id = r.id ORDER BY r.id, r.rowid`,
    )
    .all() as {
    rowid: number;
    id: string;
    name: string;
    city_gid: number | null;
    url: string | null;
    file: string;
    line: number;
  }[];
  let repeats = 0;
  const drop: number[] = [];
  let first: (typeof rows)[number] | undefined;
  for (const r of rows) {
    if (first?.id !== r.id) {
      first = r;
      continue;
    }
    drop.push(r.rowid);
    if (first.name === r.name && first.city_gid === r.city_gid && first.url === r.url) repeats++;
    else problems.add(r.file, r.line, `venue id ${r.id} was already used (${first.file}:${first.line})`);
  }
  const remove = db.prepare("DELETE FROM raw_venues WHERE rowid = ?");
  db.transaction(() => {
    for (const rowid of drop) remove.run(rowid);
  })();
  return repeats;
}

function isUniqueViolation(e: unknown): boolean {
  return e instanceof Database.SqliteError && e.code.startsWith("SQLITE_CONSTRAINT");
}

/** Venue rows from files, with progress. */
async function* fromFiles(files: string[], problems: Problems, progress: Progress): AsyncGenerator<VenueInput> {
  for (const f of files) if (!existsSync(f)) throw new ImportError(`${f}: no such file`);
  progress.phase("reading venue files");
  yield* readVenueFiles(files, problems);
}

/**
 * Generated venues, city by city in geonameid order (so the same cities give the same venues
 * however they were read), with the cities read back from the build file in batches.
 */
async function* generated(
  db: Database.Database,
  countries: ReadonlyMap<string, Country>,
  sources: BuildSources,
  progress: Progress,
): AsyncGenerator<VenueInput> {
  progress.phase("generating venues", sources.venueCount);
  // Filled in place (Float64Array.from of an iterator would gather a JS array of them first).
  const populations = new Float64Array(db.prepare("SELECT count(*) FROM raw_cities").pluck().get() as number);
  let i = 0;
  for (const population of db.prepare("SELECT population FROM raw_cities ORDER BY gid").pluck().iterate()) {
    populations[i++] = population as number;
  }
  const cityless = citylessCount(sources.venueCount);
  const perCity = venueCounts(populations, sources.venueCount - cityless);
  const ids = new VenueIds(sources.seed);
  const batch = db.prepare(
    "SELECT gid, name, country_code, admin1_code, population FROM raw_cities WHERE gid > ? ORDER BY gid LIMIT ?",
  );
  let index = 0;
  for (let last = 0; ;) {
    const cities = batch.all(last, 5000) as {
      gid: number;
      name: string;
      country_code: string;
      admin1_code: string | null;
      population: number;
    }[];
    if (cities.length === 0) break;
    last = cities[cities.length - 1]?.gid ?? last;
    for (const c of cities) {
      const city = generatorCity(
        {
          id: String(c.gid),
          name: c.name,
          countryCode: c.country_code,
          admin1Code: c.admin1_code,
          population: c.population,
        },
        countries,
      );
      yield* cityVenues(city, perCity[index++] ?? 0, sources.seed, ids);
    }
  }
  yield* citylessVenues(cityless, sources.seed, ids);
}
