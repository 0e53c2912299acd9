/**
 * The build file: a private SQLite file that an import builds its data in (no one reads it, so its
 * transactions may be long). It holds the served tables of migrations/ under their own names,
 * without their indexes (publishing builds them from all the rows at once) and the raw tables the
 * sources are read into; its side files hold the documents of the three FTS indexes, and the raw
 * venues (written there by the generator's worker thread while this thread places the venues).
 */
import { copyFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { processRuns } from "../../tools/project.ts";
import { applyMigrations } from "../migrations.ts";
import type { Progress } from "../progress.ts";

/** The tables of the build that publishing copies, in load order, and the FTS documents. */
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
  "cell_counts",
  "venue_blocks",
  "cell_blocks",
  "localized_names",
  "place_names",
  "city_name_texts",
  "venue_name_texts",
] as const;
/**
 * The side files, attached to the build under these names: the documents of the search indexes,
 * which a worker thread turns into the indexes themselves while the build goes on
 * (fts-prebuild.ts), so that publishing copies them instead of indexing every document then. A
 * file per index, because their documents are written at different times (the cities' once the
 * cities are ordered, the venues' once the venues are, the vocabulary's last), and a file is the
 * worker's alone while it indexes.
 */
export const SIDE_FILES = ["side_cities", "side_venues", "side_words"] as const;
export type SideFile = (typeof SIDE_FILES)[number];

export const FTS_DOCUMENTS = [
  { table: "cities_fts", docs: "city_docs", file: "side_cities" },
  { table: "venues_fts", docs: "venue_docs", file: "side_venues" },
  { table: "words_fts", docs: "word_docs", file: "side_words" },
  { table: "city_name_words_fts", docs: "city_name_docs", file: "side_cities" },
  { table: "venue_name_words_fts", docs: "venue_name_docs", file: "side_venues" },
] as const satisfies readonly { table: string; docs: string; file: SideFile }[];

/**
 * The side file of table raw_venues, attached under this name: the generator's worker thread
 * writes the generated venues' rows into it itself (generate/rows.ts), with a connection of its
 * own, while this thread places the venues and reads nothing of it; the build's SQL names the
 * table unqualified, as SQLite finds it in an attached file. Handing the rows back to be written
 * here cost the main thread a third of the generation (1M venues on 2M cities: 30 s, 20 s with no
 * rows at all); written by the worker, 22.9 s against 25.4 in alternate runs (2026-11-27).
 */
export const RAW_VENUES_FILE = "side_raw_venues" as const;

export const sidePathOf = (buildPath: string, side: SideFile | typeof RAW_VENUES_FILE): string =>
  buildPath.replace(/(\.sqlite)?$/, `-${side.replaceAll("_", "-")}.sqlite`);

/** A new build file's path in `dir`: named by the import's process, so that another can tell it is left. */
export const newBuildPath = (dir: string): string => join(dir, `build-${process.pid}-${Date.now()}.sqlite`);

/** A build file's name, or one of its side files' or SQLite's beside it: the pid of its import. */
const BUILD_NAME = /^build-(\d+)-\d+(?:-[a-z-]+)?\.sqlite(?:-wal|-shm|-journal)?$/;

/**
 * Deletes the build files in `dir` of imports whose process is gone, and says so: an import
 * stopped by Ctrl-C or killed never reaches the end that deletes its build (gigabytes at 10M venues).
 */
export function dropLeftBuilds(dir: string, progress: Progress): void {
  let files = 0;
  let bytes = 0;
  for (const name of readdirSync(dir)) {
    const pid = BUILD_NAME.exec(name)?.[1];
    if (pid === undefined || processRuns(Number(pid))) continue;
    const path = join(dir, name);
    bytes += statSync(path).size;
    files += 1;
    rmSync(path, { force: true });
  }
  if (files > 0) {
    const mib = (bytes / 2 ** 20).toFixed(1);
    progress.line(`Deleted what imports that stopped before their end left in ${dir}: ${files} files, ${mib} MiB.`);
  }
}

/** The path of a file attached to the build. */
export const attachedPath = (db: Database.Database, name: string): string =>
  db.prepare("SELECT file FROM pragma_database_list WHERE name = ?").pluck().get(name) as string;

/**
 * Creates the side files of a build (empty) and attaches them to the build, and the raw venues'
 * file (empty, or as `keptRawVenues` already holds it).
 */
function attachSideFiles(db: Database.Database, buildPath: string, keptRawVenues = false): void {
  for (const side of SIDE_FILES) {
    const path = sidePathOf(buildPath, side);
    rmSync(path, { force: true });
    const file = new Database(path);
    for (const { docs } of FTS_DOCUMENTS.filter((f) => f.file === side))
      file.exec(`CREATE TABLE ${docs} (pos INTEGER PRIMARY KEY, doc TEXT NOT NULL)`);
    file.close();
    db.prepare(`ATTACH DATABASE ? AS ${side}`).run(path);
    db.exec(`PRAGMA ${side}.synchronous = OFF`);
  }
  const rawVenues = sidePathOf(buildPath, RAW_VENUES_FILE);
  if (!keptRawVenues) rmSync(rawVenues, { force: true });
  db.prepare(`ATTACH DATABASE ? AS ${RAW_VENUES_FILE}`).run(rawVenues);
  db.exec(`PRAGMA ${RAW_VENUES_FILE}.synchronous = OFF; PRAGMA ${RAW_VENUES_FILE}.cache_size = -16384`);
}

/** The raw tables the sources are read into; dropped when the build is done. */
const RAW_TABLES = `
  CREATE TABLE raw_cities (
    gid INTEGER PRIMARY KEY, name TEXT NOT NULL, name_norm TEXT NOT NULL, ascii_norm TEXT,
    country_code TEXT NOT NULL, admin1_code TEXT, lat REAL NOT NULL, lng REAL NOT NULL,
    population INTEGER NOT NULL, z INTEGER NOT NULL,  -- its cell at the grid's finest level (src/data-contract/grid.ts)
    section INTEGER NOT NULL,  -- 1: a section of a populated place (PPLX), which venues are not placed in
    words TEXT NOT NULL,   -- the distinct words of all its names
    names TEXT NOT NULL,   -- each distinct name as a name token
    main TEXT NOT NULL DEFAULT '',  -- its own names' tokens: main-name tokens, its shown name's words (raw-city.ts)
    shared TEXT NOT NULL DEFAULT '',  -- the starts its names' words share, as tokens (name-index.ts sharedStarts)
    name_sets TEXT,        -- each name apart, its words and shared starts (JSON), NULL when one name holds them all
    name_texts TEXT,       -- the names of name_sets as written (JSON: src/data-contract/name-sets.ts)
    tokens TEXT NOT NULL,  -- region tokens
    line INTEGER NOT NULL
  );
  -- No index while loading (ids come in random order): repeated ids are found by sorting, after.
  CREATE TABLE ${RAW_VENUES_FILE}.raw_venues (
    id TEXT NOT NULL, name TEXT NOT NULL, name_norm TEXT NOT NULL,
    words TEXT NOT NULL,   -- the distinct words of all its names (src/data-contract/spellings.ts)
    names TEXT NOT NULL,   -- each form of each name as a name token
    own TEXT NOT NULL,     -- with other names: its own names' tokens (raw-venue.ts), else ''
    shared TEXT NOT NULL,  -- the starts its names' words share, as tokens (name-index.ts sharedStarts)
    name_sets TEXT,        -- each name apart, its words and shared starts (JSON), NULL when one name holds them all
    name_texts TEXT,       -- the names of name_sets as written (JSON: src/data-contract/name-sets.ts)
    localized TEXT,        -- JSON object of language to the name shown in it, where it differs
    city_gid INTEGER, url TEXT, file TEXT NOT NULL, line NOT NULL,  -- a line number or a JSON path
    lat REAL, lng REAL, kind TEXT NOT NULL, source TEXT NOT NULL,
    hints TEXT NOT NULL, country_hint TEXT,  -- city names its source gives, as name tokens, space-separated
    placed TEXT,  -- how its city was found: 'given', 'hint', 'position', or NULL (no city)
    -- The source's own id and link, when the record is served under its setlist.fm page's (which
    -- it falls back to when another record holds that id: docs/import.md#setlistfm-ids).
    own_id TEXT, own_url TEXT
  );
  CREATE TABLE raw_localized (lang TEXT NOT NULL, key TEXT NOT NULL, name TEXT NOT NULL);`;

/** Opens a build file with the pragmas a build writes with. */
function openBuildFile(path: string): Database.Database {
  const db = new Database(path);
  // The rollback journal stays: better-sqlite3's defensive mode ignores journal_mode = OFF, and
  // forcing it off (unsafe mode) made 1M venues no faster (143.6 s against 139.8, 2026-11-27).
  db.pragma("synchronous = OFF");
  // 16 MiB: it also sizes each sort (the ordering phases run several at once, one per window
  // ordering), and larger caches bought no time (1M venues: 67 s either way; docs/import.md#memory).
  db.pragma("cache_size = -16384");
  db.pragma("temp_store = FILE");
  return db;
}

/** Creates an empty build file with the served schema (migrations/) and the build's own tables, and its side file. */
export function createBuildFile(path: string): Database.Database {
  rmSync(path, { force: true });
  const db = openBuildFile(path);
  applyMigrations(db);
  // The served tables' indexes are built on the target, from all the rows at once (publish/):
  // the build keeps their statements and writes its rows without them.
  db.exec(`
    CREATE TABLE build_indexes (name TEXT PRIMARY KEY, tbl TEXT NOT NULL, sql TEXT NOT NULL);
    INSERT INTO build_indexes SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL;`);
  for (const name of db.prepare("SELECT name FROM build_indexes").pluck().all() as string[]) {
    db.exec(`DROP INDEX "${name}"`);
  }
  attachSideFiles(db, path);
  db.exec(RAW_TABLES);
  return db;
}

/** A build file and its raw venues' file as they were once the sources were read (shards/read-once.ts). */
export interface ReadBuild {
  build: string;
  rawVenues: string;
}

/** Copies the build and its raw venues' file where `to` says (no write transaction may be open). */
export function copyBuildFile(db: Database.Database, to: ReadBuild): void {
  copyFileSync(attachedPath(db, "main"), to.build);
  copyFileSync(attachedPath(db, RAW_VENUES_FILE), to.rawVenues);
}

/** A build file at `path` made from a copy of a build once its sources were read (copyBuildFile). */
export function buildFileFrom(path: string, from: ReadBuild): Database.Database {
  copyFileSync(from.build, path);
  copyFileSync(from.rawVenues, sidePathOf(path, RAW_VENUES_FILE));
  const db = openBuildFile(path);
  attachSideFiles(db, path, true);
  return db;
}

/** Drops what only the build needed. */
export function dropRawTables(db: Database.Database): void {
  const rawVenues = attachedPath(db, RAW_VENUES_FILE);
  db.exec(`DROP TABLE raw_cities; DROP TABLE raw_localized; DROP TABLE temp.ordered_venues;
           DROP TABLE temp.short_words; DROP TABLE temp.city_text; DROP TABLE temp.city_regions;
           DETACH DATABASE ${RAW_VENUES_FILE};`);
  rmSync(rawVenues, { force: true });
}
