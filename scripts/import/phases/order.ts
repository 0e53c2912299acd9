/**
 * Phase 2, write the served tables: cities and venues in the default order (their `pos`) with
 * their ranks in their countries and states, region totals, and the localized names of what was
 * imported. All SQL on the build file: SQLite sorts on
 * disk, so memory does not grow with the data.
 */
import type Database from "better-sqlite3";
import {
  ALL_VENUES,
  CELL_BLOCK_SHIFT,
  CITY_BLOCK,
  SCOPE_SEPARATOR,
  VENUE_SLOTS,
} from "../../../src/data-contract/blocks.ts";
import { cityPointSql, placedPointSql } from "../../../src/data-contract/venue-points.ts";
import type { Progress } from "../progress.ts";
import { withSortHelper } from "../sort-helper.ts";
import { CITY_SHARD } from "../shards/venues.ts";

/**
 * Cities by population, then geonameid; each ranked in its country and state. A venue database
 * (`shard`, from 0) keeps those of its own regions, numbered and ranked among every city, so that
 * a city's `pos`, and its venues', are the main database's (docs/deploy.md#past-one-database).
 */
export function orderCities(db: Database.Database, progress: Progress, shard: number | null = null): number {
  progress.phase("ordering cities (population, then id) and ranking them in their countries and states");
  // Its four windows sort at once, each with a helper (sort-helper.ts): 2M cities 14.1/14.8 →
  // 12.7/10.7 s, the same peak. Not the venues': at half the cache their joins read more (9.2/10.1
  // → 12.4/11.1 s; 2026-11-27, 1M venues on 2M cities, runs in turn).
  const ordered = `
    SELECT row_number() OVER (ORDER BY population DESC, gid) AS pos, CAST(gid AS TEXT), name, name_norm, ascii_norm,
           country_code, admin1_code, lat, lng, population, z,
           row_number() OVER (PARTITION BY z >> ${CELL_BLOCK_SHIFT} ORDER BY z, population DESC, gid),
           row_number() OVER (PARTITION BY country_code ORDER BY population DESC, gid),
           CASE WHEN admin1_code IS NOT NULL
                THEN row_number() OVER (PARTITION BY country_code, admin1_code ORDER BY population DESC, gid) END,
           NULL, 0
    FROM raw_cities`;
  const kept =
    shard === null
      ? `${ordered} ORDER BY population DESC, gid`
      : `SELECT * FROM (${ordered}) WHERE ${CITY_SHARD} = ${String(shard)} ORDER BY pos`;
  withSortHelper(db, () =>
    db.exec(`
    INSERT INTO cities (pos, id, name, name_norm, ascii_norm, country_code, admin1_code, lat, lng, population, cell,
                        cell_rank, country_rank, state_rank, venue_first, venue_count)
    ${kept};
    -- The build's own lookup: localized names find their city by id.
    CREATE INDEX build_cities_by_id ON cities (id);`),
  );
  cellBlocks(db, "cities");
  return db.prepare("SELECT count(*) FROM cities").pluck().get() as number;
}

/** The population of the largest city read, which a venue database may not hold (orderCities). */
export const largestPopulation = (db: Database.Database): number =>
  Number(db.prepare("SELECT coalesce(max(population), 0) FROM raw_cities").pluck().get());

/**
 * Venues by their city's pos (so by city population; venues without a city last), then name,
 * then id, numbered within their city (src/data-contract/blocks.ts): a venue's pos is its city's
 * pos × VENUE_SLOTS plus its place there. No sort of the venues but the one that numbers them.
 */
export function orderVenues(db: Database.Database, progress: Progress): number {
  progress.phase("ordering venues (city population, name, id) and numbering them in their cities");
  // The venues' cities by geonameid, in a compact table: venues come in the order they were made
  // or read (generated ones band by band of latitude), and looking each city up by its text id in
  // the cities table read pages all over a table of millions. Its pages are read from the OS's
  // cache, not held in SQLite's: 1M lookups in random order among 5M cities took 3.4 s so, 2.4 s
  // with 160 MB of cache (measured 2026-11-27), which the import's peak memory cannot spare.
  db.exec(`
    CREATE TEMP TABLE city_at (gid INTEGER PRIMARY KEY, pos INTEGER NOT NULL, lat REAL NOT NULL, lng REAL NOT NULL);
    INSERT INTO temp.city_at SELECT CAST(id AS INTEGER), pos, lat, lng FROM cities ORDER BY CAST(id AS INTEGER);`);
  // Venues without a city: one more city after the last.
  // Counted among every city read, as the cities' pos are (a venue database keeps some: orderCities).
  const noCity = (db.prepare("SELECT count(*) + 1 FROM raw_cities").pluck().get() as number) * VENUE_SLOTS;
  db.prepare(
    `
    CREATE TEMP TABLE ordered_venues (
      pos INTEGER PRIMARY KEY, id TEXT NOT NULL, name TEXT NOT NULL, name_norm TEXT NOT NULL,
      words TEXT NOT NULL, names TEXT NOT NULL, own TEXT NOT NULL, shared TEXT NOT NULL, name_sets TEXT, name_texts TEXT,
      city_pos INTEGER,
      url TEXT, lat REAL, lng REAL, kind TEXT NOT NULL,
      cell INTEGER  -- the finest grid cell of its own point, else its city's (grid_cell: cell-counts.ts)
    )`,
  ).run();
  // Ordered as the window numbers them, which SQLite then sorts once (ORDER BY 1 sorted the
  // numbered rows a second time).
  db.prepare(
    `
    INSERT INTO temp.ordered_venues
    SELECT coalesce(c.pos * ${VENUE_SLOTS}, :noCity)
             + row_number() OVER (PARTITION BY coalesce(c.pos * ${VENUE_SLOTS}, :noCity) ORDER BY r.name_norm, r.id) - 1,
           r.id, r.name, r.name_norm, r.words, r.names, r.own, r.shared, r.name_sets, r.name_texts, c.pos, r.url, r.lat, r.lng,
           r.kind, grid_cell(coalesce(r.lat, c.lat), coalesce(r.lng, c.lng))
    FROM raw_venues r LEFT JOIN temp.city_at c ON c.gid = r.city_gid
    ORDER BY coalesce(c.pos * ${VENUE_SLOTS}, :noCity), r.name_norm, r.id`,
  ).run({ noCity });
  db.exec(`
    DROP TABLE temp.city_at;
    UPDATE cities SET venue_first = s.first, venue_count = s.n
    FROM (SELECT city_pos, min(pos) AS first, count(*) AS n FROM temp.ordered_venues WHERE city_pos IS NOT NULL
          GROUP BY city_pos) s
    WHERE cities.pos = s.city_pos;`);
  const most = db.prepare("SELECT coalesce(max(venue_count), 0) FROM cities").pluck().get() as number;
  if (most > VENUE_SLOTS)
    throw new Error(`a city has ${most} venues, more than the ${VENUE_SLOTS} that pos leaves room for`);
  // The cell ranks in a narrow table of their own: numbering the venues' whole rows by cell
  // sorted them twice (by cell, then back by pos); this sorts two numbers a venue.
  db.exec(`
    CREATE TEMP TABLE cell_ranks (pos INTEGER PRIMARY KEY, cell_rank INTEGER NOT NULL);
    INSERT INTO temp.cell_ranks
    SELECT pos, row_number() OVER (PARTITION BY cell >> ${CELL_BLOCK_SHIFT} ORDER BY cell, pos)
    FROM temp.ordered_venues WHERE cell IS NOT NULL ORDER BY pos;
    INSERT INTO venues (pos, id, name, city_pos, url, country_code, admin1_code, lat, lng, city_point, kind, cell, cell_rank)
    SELECT o.pos, o.id, o.name, o.city_pos, o.url, c.country_code, c.admin1_code, ${placedPointSql("o", "c", "lat")},
           ${placedPointSql("o", "c", "lng")}, ${cityPointSql("o", "c")}, o.kind, o.cell, k.cell_rank
    FROM temp.ordered_venues o LEFT JOIN cities c ON c.pos = o.city_pos LEFT JOIN temp.cell_ranks k ON k.pos = o.pos
    ORDER BY o.pos;
    DROP TABLE temp.cell_ranks;`);
  venueBlocks(db, noCity);
  cellBlocks(db, "venues");
  return db.prepare("SELECT count(*) FROM venues").pluck().get() as number;
}

/** The venues of every scope before each block of cities (venue_blocks), from the cities' counts. */
function venueBlocks(db: Database.Database, noCity: number): void {
  db.prepare(
    `
    INSERT INTO venue_blocks (scope, before, block, first)
    SELECT scope, sum(n) OVER (PARTITION BY scope ORDER BY block) - n, block, NULL FROM (
      SELECT '${ALL_VENUES}' AS scope, pos / ${CITY_BLOCK} AS block, sum(venue_count) AS n
      FROM cities WHERE venue_count > 0 GROUP BY 2
      UNION ALL
      SELECT country_code, pos / ${CITY_BLOCK}, sum(venue_count) FROM cities WHERE venue_count > 0 GROUP BY 1, 2
      UNION ALL
      SELECT country_code || '${SCOPE_SEPARATOR}' || admin1_code, pos / ${CITY_BLOCK}, sum(venue_count)
      FROM cities WHERE venue_count > 0 AND admin1_code IS NOT NULL GROUP BY 1, 2)
    UNION ALL
    SELECT '${ALL_VENUES}', (SELECT coalesce(sum(venue_count), 0) FROM cities), -1, :noCity
    WHERE EXISTS (SELECT 1 FROM temp.ordered_venues WHERE pos >= :noCity)`,
  ).run({ noCity });
}

/** The records of each table before each cell of CELL_BLOCK_LEVEL that holds some (cell_blocks). */
function cellBlocks(db: Database.Database, records: "cities" | "venues"): void {
  db.exec(`
    INSERT INTO cell_blocks (records, block, before)
    SELECT '${records}', block, sum(n) OVER (ORDER BY block) - n FROM (
      SELECT cell >> ${CELL_BLOCK_SHIFT} AS block, count(*) AS n FROM ${records} WHERE cell IS NOT NULL GROUP BY 1)`);
}

/**
 * Cities and venues per country and per state; the localized names of what was imported (venues'
 * among them). The cities' regions are read in one scan into temp.city_regions (with each
 * region's first city, which place-names.ts ranks the regions by): grouping by a region index
 * read each city's row from wherever it lies (2M cities: 13.5 s, against 3.5 s so; 2026-11-27).
 */
export function regionsAndNames(db: Database.Database, progress: Progress): number {
  progress.phase("region totals and localized names");
  db.exec(`
    CREATE TEMP TABLE city_regions AS
    SELECT country_code, admin1_code, count(*) AS cities, sum(venue_count) AS venues, min(pos) AS first
    FROM cities NOT INDEXED GROUP BY country_code, admin1_code;
    INSERT INTO region_counts (country_code, admin1_code, cities, venues)
    SELECT country_code, '', sum(cities), sum(venues) FROM temp.city_regions GROUP BY country_code
    UNION ALL
    SELECT country_code, admin1_code, cities, venues FROM temp.city_regions WHERE admin1_code IS NOT NULL;
    INSERT INTO localized_names (lang, kind, key, name)
    SELECT lang, CASE WHEN key GLOB '[0-9]*' THEN 'city' WHEN key GLOB '*.*' THEN 'admin1' ELSE 'country' END, key, name
    FROM raw_localized l
    WHERE EXISTS (SELECT 1 FROM cities WHERE id = l.key)
       -- By its key (a scan of admin1 for each name took 6 s of every import)
       OR EXISTS (SELECT 1 FROM admin1 WHERE country_code = substr(l.key, 1, 2) AND code = substr(l.key, 4)
                                             AND l.key GLOB '??.*')
       OR EXISTS (SELECT 1 FROM countries WHERE code = l.key)
    UNION ALL
    SELECT j.key, 'venue', v.id, j.value FROM raw_venues v, json_each(v.localized) j WHERE v.localized IS NOT NULL
    ORDER BY 1, 2, 3;`);
  return db.prepare("SELECT count(*) FROM localized_names").pluck().get() as number;
}
