/**
 * City SQL (docs/api.md): searches without a name (names.ts does names).
 *
 * `pos` orders cities by population (largest first), then geonameid, and the rank columns give
 * any page of a country or state as an index seek; region totals are stored numbers.
 */
import { normalize } from "../data-contract/normalize.ts";
import { placesOf } from "../geo/places.ts";
import { ITEMS_PER_PAGE } from "../params/paging.ts";
import { raw, sql } from "../sql/sql.ts";
import { and, countryCode, ftsFilters, regionConditions } from "../match/filters.ts";
import { cityRecord, pageRecords, type CityRecord, type CityRow } from "./records.ts";
import type { ResourceQueries } from "./resource.ts";

const PAGE_SIZE = ITEMS_PER_PAGE.cities;

export const CITIES: ResourceQueries<CityRecord> = {
  resource: "cities",
  fts: "cities_fts",
  places: placesOf("cities", "c", "c.lat", "c.lng"),
  prefixKind: "city",

  browse(p, offset) {
    if (p.state === undefined && !(p.stateCode !== undefined && p.country === undefined)) {
      if (p.country === undefined) {
        return {
          positions: sql`SELECT pos, pos AS rank, NULL AS dist FROM cities WHERE pos > ${offset} ORDER BY pos LIMIT ${PAGE_SIZE}`,
          count: sql`SELECT CAST(value AS INTEGER) AS n FROM meta WHERE key = 'rows_cities'`,
        };
      }
      const code = countryCode(p.country);
      const [rank, scope, admin1] =
        p.stateCode === undefined
          ? [raw("country_rank"), sql`country_code = ${code}`, sql`''`]
          : [raw("state_rank"), sql`country_code = ${code} AND admin1_code = ${p.stateCode}`, sql`${p.stateCode}`];
      return {
        positions: sql`SELECT pos, ${rank} AS rank, NULL AS dist FROM cities
                       WHERE ${scope} AND ${rank} > ${offset} ORDER BY ${rank} LIMIT ${PAGE_SIZE}`,
        count: sql`SELECT coalesce((SELECT cities FROM region_counts WHERE country_code = ${code} AND admin1_code = ${admin1}), 0) AS n`,
      };
    }
    // A state by name (maybe in several countries), or a state code in any country: page through
    // the FTS list of the filter tokens; the total is the sum of stored state totals.
    const filters = ftsFilters(p, "cities_fts");
    if (filters === null) return null;
    return {
      positions: sql`SELECT rowid AS pos, rowid AS rank, NULL AS dist FROM cities_fts
                     WHERE cities_fts MATCH ${filters} ORDER BY rowid LIMIT ${PAGE_SIZE} OFFSET ${offset}`,
      count: sql`SELECT coalesce(sum(r.cities), 0) AS n FROM region_counts r WHERE ${and([raw("r.admin1_code <> ''"), ...regionConditions("r", p)])}`,
    };
  },

  page: (positions, language, total) => pageRecords("cities", positions, language, total),

  record: (row) => cityRecord(row as unknown as CityRow),
  id: (c) => c.id,
  names: (c) => [normalize(c.name)],
};
