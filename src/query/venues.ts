/**
 * Venue SQL (docs/api.md): searches without a name (names.ts does names).
 *
 * `pos` orders venues by their city's population, then name, then id (migrations/0004, 0014), so
 * the venues of a city are the pos range cities.venue_first + [0, venue_count), and venue_blocks
 * gives any page of a country or state as a few seeks (src/data-contract/blocks.ts). Totals of
 * whole regions and cities are stored numbers.
 */
import { ALL_VENUES, CITY_BLOCK, SCOPE_SEPARATOR } from "../data-contract/blocks.ts";
import { normalize } from "../data-contract/normalize.ts";
import { placesOf } from "../geo/places.ts";
import { ITEMS_PER_PAGE } from "../params/paging.ts";
import type { SearchParams } from "../params/search-params.ts";
import { raw, sql, type Sql } from "../sql/sql.ts";
import { and, cityConditions, countryCode, ftsFilters, regionConditions } from "../match/filters.ts";
import { pageRecords, venueRecord, type VenueRecord, type VenueRow } from "./records.ts";
import type { ResourceQueries, Search } from "./resource.ts";
import { kindTotal, storedKindTotal } from "./totals.ts";
import { CANDIDATES, cappedCount, matchesOf } from "../match/capped.ts";

const PAGE_SIZE = ITEMS_PER_PAGE.venues;

/**
 * The pos that the page at `offset` of a scope's venues starts at (src/data-contract/blocks.ts):
 * the scope's block holding it (venue_blocks), then a running sum over that block's cities (the
 * rowid range of CITY_BLOCK cities, which `cities` filters to the scope's). NULL past the last.
 */
function scopeStart(scope: Sql, cities: Sql, offset: number): Sql {
  return sql`(WITH blk AS (SELECT block, before, first FROM venue_blocks WHERE scope = ${scope} AND before <= ${offset}
                           ORDER BY before DESC LIMIT 1),
    city AS (SELECT c.venue_first, (SELECT before FROM blk) + sum(c.venue_count) OVER (ORDER BY c.pos) - c.venue_count AS skipped
             FROM cities c NOT INDEXED
             WHERE c.pos >= (SELECT block FROM blk) * ${raw(String(CITY_BLOCK))}
               AND c.pos < ((SELECT block FROM blk) + 1) * ${raw(String(CITY_BLOCK))} AND c.venue_count > 0 AND ${cities})
    SELECT coalesce((SELECT venue_first + ${offset} - skipped FROM city WHERE skipped <= ${offset} ORDER BY skipped DESC LIMIT 1),
                    (SELECT first + ${offset} - before FROM blk)))`;
}

/** A scope with stored blocks: its venues (a condition, null for all), its key and cities (scopeStart), its total. */
interface BlockScope {
  venues: Sql | null;
  key: Sql;
  cities: Sql;
  count: Sql;
}

/** The scope of the filters that have stored blocks: none, a country, a country and a state code. */
function blockScope(p: SearchParams): BlockScope | null {
  if (p.state !== undefined || (p.stateCode !== undefined && p.country === undefined)) return null;
  if (p.country === undefined) {
    const count = sql`SELECT CAST(value AS INTEGER) AS n FROM meta WHERE key = 'rows_venues'`;
    return { venues: null, key: sql`${ALL_VENUES}`, cities: raw("1"), count };
  }
  const code = countryCode(p.country);
  if (p.stateCode === undefined) {
    return {
      venues: sql`country_code = ${code}`,
      key: code,
      cities: sql`c.country_code = ${code}`,
      count: sql`SELECT coalesce((SELECT venues FROM region_counts WHERE country_code = ${code} AND admin1_code = ''), 0) AS n`,
    };
  }
  return {
    venues: sql`country_code = ${code} AND admin1_code = ${p.stateCode}`,
    key: sql`${code} || ${SCOPE_SEPARATOR} || ${p.stateCode}`,
    cities: sql`c.country_code = ${code} AND c.admin1_code = ${p.stateCode}`,
    count: sql`SELECT coalesce((SELECT venues FROM region_counts WHERE country_code = ${code} AND admin1_code = ${p.stateCode}), 0) AS n`,
  };
}

/** A page of a scope's venues from the pos `start` (an SQL expression or a bound number). */
function fromStart(scope: BlockScope, start: Sql | number | null): Sql {
  const where = scope.venues === null ? sql`pos >= ${start}` : sql`${scope.venues} AND pos >= ${start}`;
  return sql`SELECT pos, pos AS rank, NULL AS dist FROM venues WHERE ${where} ORDER BY pos LIMIT ${PAGE_SIZE}`;
}

/** Pages of the filters that have stored blocks, sought from their block. */
function ranked(p: SearchParams, offset: number): Search | null {
  const scope = blockScope(p);
  if (scope === null) return null;
  return { positions: fromStart(scope, scopeStart(scope.key, scope.cities, offset)), count: scope.count };
}

/** The cities a venue search's city and region filters allow (alias c). */
function cityFilter(p: SearchParams): Sql {
  return and([...cityConditions(p), ...regionConditions("c", p, { useIndex: false })]);
}

/** The total of the venues of cities by name (their stored counts), or of states by name or code (the regions'). */
function placesCount(p: SearchParams): Sql {
  return p.cityName !== undefined
    ? sql`SELECT coalesce(sum(c.venue_count), 0) AS n FROM cities c WHERE ${cityFilter(p)}`
    : sql`SELECT coalesce(sum(r.venues), 0) AS n FROM region_counts r WHERE ${and([raw("r.admin1_code <> ''"), ...regionConditions("r", p)])}`;
}

/**
 * The FTS list of a search's filter tokens (its kind's among them) in pos order: a part of it, and
 * its count capped at CANDIDATES matches, or at `limit` (a venue database's share: merged-browse.ts).
 */
function filterList(p: SearchParams) {
  const filters = ftsFilters(p, "venues_fts");
  if (filters === null) return null;
  const flt = sql`WITH flt(q) AS (SELECT ${filters})`;
  const countWithin = (limit: number) =>
    sql`${flt} ${cappedCount(matchesOf("venues_fts", raw("(SELECT q FROM flt)")), null, { limit })}`;
  return {
    part: (offset: number, limit: number) =>
      sql`${flt} SELECT rowid AS pos, rowid AS rank, NULL AS dist FROM venues_fts
          WHERE venues_fts MATCH (SELECT q FROM flt) ORDER BY rowid LIMIT ${limit} OFFSET ${offset}`,
    count: countWithin(CANDIDATES),
    countWithin,
  };
}

/**
 * Venues of a kind, with or without other filters: the FTS list of the kind's token and the
 * filters' in pos order; the total stored per kind in every region where one is (totals.ts).
 */
function ofKind(p: SearchParams, offset: number): Search | null {
  const list = filterList(p);
  return list === null ? null : { positions: list.part(offset, PAGE_SIZE), count: kindTotal(p, list.count) };
}

export const VENUES: ResourceQueries<VenueRecord> = {
  resource: "venues",
  fts: "venues_fts",
  // A venue's own point, else its city's: both in its row (src/data-contract/venue-points.ts).
  places: placesOf("venues", "v", "v.lat", "v.lng"),
  prefixKind: "venue",

  browse(p, offset) {
    if (p.kind !== undefined) return ofKind(p, offset);
    if (p.cityId !== undefined) {
      // One city: its venues are one pos range.
      const city = sql`SELECT venue_first, venue_count FROM cities c WHERE ${cityFilter(p)}`;
      return {
        positions: sql`SELECT v.pos, v.pos AS rank, NULL AS dist FROM (${city}) c
                       JOIN venues v ON v.pos >= c.venue_first + ${offset} AND v.pos < c.venue_first + c.venue_count
                       ORDER BY v.pos LIMIT ${PAGE_SIZE}`,
        count: sql`SELECT coalesce((SELECT venue_count FROM cities c WHERE ${cityFilter(p)}), 0) AS n`,
      };
    }
    const scope = p.cityName === undefined ? ranked(p, offset) : null;
    if (scope !== null) return scope;
    // A city by name, a state by name, or a state code in any country: page through the FTS list
    // of the filter tokens; the total is the sum of the stored totals of the cities or states.
    const list = filterList(p);
    return list === null ? null : { positions: list.part(offset, PAGE_SIZE), count: placesCount(p) };
  },

  page: (positions, language, total) => pageRecords("venues", positions, language, total),

  record: (row) => venueRecord(row as unknown as VenueRow),
  id: (v) => v.id,
  names: (v) => [normalize(v.name)],
};

/**
 * A venue search without a name or an area as several venue databases answer it together
 * (src/query/merged-browse.ts): what the main database reads (the total where it is stored, and
 * the pos the page starts at where the search seeks) and what each venue database reads from there.
 */
export interface MergedBrowse {
  /** In the main database: the total (one row, n); null where each venue database counts its own. */
  total: Sql | null;
  /**
   * In each venue database, where the total is not stored: its count of its first `limit` matches
   * and 1 in `more` past them (src/match/capped.ts).
   */
  countEach: ((limit: number) => Sql) | null;
  /** In the main database: the pos the page starts at (one row, start: NULL past the last), where the search seeks. */
  start: Sql | null;
  /** In each venue database: its records of the page from `start` (a search that seeks), else its first `limit` matches. */
  positions(start: number | null, limit: number): Sql;
}

/** The parts of a merged venue search without a name or an area; null for one city (one venue database holds it). */
export function mergedBrowse(p: SearchParams, offset: number): MergedBrowse | null {
  if (p.cityId !== undefined) return null;
  const scope = p.kind === undefined && p.cityName === undefined ? blockScope(p) : null;
  if (scope !== null) {
    const start = sql`SELECT ${scopeStart(scope.key, scope.cities, offset)} AS start`;
    return { total: scope.count, countEach: null, start, positions: (from) => fromStart(scope, from) };
  }
  const list = filterList(p);
  if (list === null) return null;
  const positions = (_: number | null, limit: number) => list.part(0, limit);
  if (p.kind === undefined) return { total: placesCount(p), countEach: null, start: null, positions };
  const stored = storedKindTotal(p);
  return { total: stored, countEach: stored === null ? list.countWithin : null, start: null, positions };
}
