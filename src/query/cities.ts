/**
 * City SQL (docs/api.md): searches without a name (names.ts does names).
 *
 * `pos` orders cities by population (largest first), then geonameid, and the rank columns give
 * any page of a country or state as an index seek; region totals are stored numbers.
 */
import { normalize } from "../format/normalize.ts";
import { circleTotal, pageCities, withPageCircle } from "../geo/curve.ts";
import { cityDistance, nearIndex } from "../geo/index.ts";
import { ITEMS_PER_PAGE } from "../params/paging.ts";
import { raw, sql } from "../sql/sql.ts";
import { and, countryCode, ftsFilters, regionConditions } from "./filters.ts";
import { cityRecord, pageRecords, type CityRecord, type CityRow } from "./records.ts";
import type { ResourceQueries } from "./search.ts";

const PAGE_SIZE = ITEMS_PER_PAGE.cities;

export const CITIES: ResourceQueries<CityRecord> = {
  resource: "cities",
  fts: "cities_fts",
  placeJoins: raw("JOIN cities c ON c.pos = g.pos"),
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

  nearby(p, offset) {
    const near = p.near;
    if (near === undefined) throw new Error("nearby() without a point");
    const filters = ftsFilters(p, "cities_fts");
    if (nearIndex(p) === "curve") {
      // The circle alone: along the curve (src/geo/curve.ts).
      return {
        positions: withPageCircle(
          near,
          "z_cities",
          offset + PAGE_SIZE,
          // Ranked after the LIMIT: a sort that keeps one page, not a window over every city measured.
          sql`SELECT pos, ${offset} + row_number() OVER (ORDER BY dist, pos) AS rank, dist FROM (
                SELECT pos, dist FROM (${pageCities(near)}) WHERE dist <= (SELECT km FROM circle)
                ORDER BY dist, pos LIMIT ${PAGE_SIZE} OFFSET ${offset})`,
        ),
        count: circleTotal(near, "z_cities", raw("1")),
      };
    }
    // With filters: the cells' tokens and the filters' intersected by FTS5, each match measured.
    const measured = sql`SELECT c.pos, ${cityDistance(near)} AS dist FROM cities_fts f JOIN cities c ON c.pos = f.rowid
                         WHERE cities_fts MATCH ${filters ?? sql`''`}`;
    return {
      positions: sql`SELECT pos, row_number() OVER (ORDER BY dist, pos) AS rank, dist FROM (${measured})
                     WHERE dist <= ${near.radiusKm} ORDER BY rank LIMIT ${PAGE_SIZE} OFFSET ${offset}`,
      count: sql`SELECT count(*) AS n FROM (${measured}) WHERE dist <= ${near.radiusKm}`,
    };
  },

  page: (positions, language) => pageRecords("cities", positions, language),

  record: (row) => cityRecord(row as unknown as CityRow),
  names: (c) => [normalize(c.name)],
};
