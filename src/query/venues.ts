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
import { kindTotal } from "./totals.ts";
import { cappedCount, matchesOf } from "../match/capped.ts";

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

/** Pages of the filters that have stored blocks: none, a country, a country and a state code. */
function ranked(p: SearchParams, offset: number): Search | null {
  if (p.state !== undefined || (p.stateCode !== undefined && p.country === undefined)) return null;
  if (p.country === undefined) {
    return {
      positions: sql`SELECT pos, pos AS rank, NULL AS dist FROM venues WHERE pos >= ${scopeStart(sql`${ALL_VENUES}`, raw("1"), offset)}
                     ORDER BY pos LIMIT ${PAGE_SIZE}`,
      count: sql`SELECT CAST(value AS INTEGER) AS n FROM meta WHERE key = 'rows_venues'`,
    };
  }
  const code = countryCode(p.country);
  if (p.stateCode === undefined) {
    const start = scopeStart(code, sql`c.country_code = ${code}`, offset);
    return {
      positions: sql`SELECT pos, pos AS rank, NULL AS dist FROM venues
                     WHERE country_code = ${code} AND pos >= ${start} ORDER BY pos LIMIT ${PAGE_SIZE}`,
      count: sql`SELECT coalesce((SELECT venues FROM region_counts WHERE country_code = ${code} AND admin1_code = ''), 0) AS n`,
    };
  }
  const inState = sql`c.country_code = ${code} AND c.admin1_code = ${p.stateCode}`;
  const start = scopeStart(sql`${code} || ${SCOPE_SEPARATOR} || ${p.stateCode}`, inState, offset);
  return {
    positions: sql`SELECT pos, pos AS rank, NULL AS dist FROM venues
                   WHERE country_code = ${code} AND admin1_code = ${p.stateCode} AND pos >= ${start}
                   ORDER BY pos LIMIT ${PAGE_SIZE}`,
    count: sql`SELECT coalesce((SELECT venues FROM region_counts WHERE country_code = ${code} AND admin1_code = ${p.stateCode}), 0) AS n`,
  };
}

/** The cities a venue search's city and region filters allow (alias c). */
function cityFilter(p: SearchParams): Sql {
  return and([...cityConditions(p), ...regionConditions("c", p, { useIndex: false })]);
}

/**
 * Venues of a kind, with or without other filters: the FTS list of the kind's token and the
 * filters' in pos order; the total stored per kind in every region where one is (totals.ts).
 */
function ofKind(p: SearchParams, offset: number): Search | null {
  const filters = ftsFilters(p, "venues_fts");
  if (filters === null) return null;
  const flt = sql`WITH flt(q) AS (SELECT ${filters})`;
  const count = sql`${flt} ${cappedCount(matchesOf("venues_fts", raw("(SELECT q FROM flt)")), null)}`;
  return {
    positions: sql`${flt} SELECT rowid AS pos, rowid AS rank, NULL AS dist FROM venues_fts
                   WHERE venues_fts MATCH (SELECT q FROM flt) ORDER BY rowid LIMIT ${PAGE_SIZE} OFFSET ${offset}`,
    count: kindTotal(p, count),
  };
}

export const VENUES: ResourceQueries<VenueRecord> = {
  resource: "venues",
  fts: "venues_fts",
  // A venue's own point, else its city's (looked up only for a venue without one).
  places: placesOf(
    "venues",
    "v",
    "coalesce(v.lat, (SELECT c.lat FROM cities c WHERE c.pos = v.city_pos))",
    "coalesce(v.lng, (SELECT c.lng FROM cities c WHERE c.pos = v.city_pos))",
  ),
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
    const filters = ftsFilters(p, "venues_fts");
    if (filters === null) return null;
    const count =
      p.cityName !== undefined
        ? sql`SELECT coalesce(sum(c.venue_count), 0) AS n FROM cities c WHERE ${cityFilter(p)}`
        : sql`SELECT coalesce(sum(r.venues), 0) AS n FROM region_counts r WHERE ${and([raw("r.admin1_code <> ''"), ...regionConditions("r", p)])}`;
    return {
      positions: sql`SELECT rowid AS pos, rowid AS rank, NULL AS dist FROM venues_fts
                     WHERE venues_fts MATCH ${filters} ORDER BY rowid LIMIT ${PAGE_SIZE} OFFSET ${offset}`,
      count,
    };
  },

  page: (positions, language, total) => pageRecords("venues", positions, language, total),

  record: (row) => venueRecord(row as unknown as VenueRow),
  id: (v) => v.id,
  names: (v) => [normalize(v.name)],
};
