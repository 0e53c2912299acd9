/**
 * City SQL (SPEC §3, §10): searches without a name (search.ts does names).
 *
 * `pos` orders cities by population (largest first), then geonameid, and the rank columns give
 * any page of a country or state as an index seek; region totals are stored numbers.
 */
import { normalize } from "../normalize.ts";
import { PER_PAGE } from "../paging.ts";
import type { CityRecord } from "../records.ts";
import { pageRecords } from "./columns.ts";
import { circleTotal, pageCities, withPageCircle } from "./curve.ts";
import { and, countryCode, distance, filterMatch, hasFilters, regionConditions } from "./filters.ts";
import { cityRecord, type CityRow } from "./rows.ts";
import type { ResourceQueries } from "./search.ts";
import { raw, sql } from "./sql.ts";

const PER = PER_PAGE.cities;

export const CITIES: ResourceQueries<CityRecord> = {
  resource: "cities",
  fts: "cities_fts",
  placeJoins: raw("JOIN cities c ON c.pos = g.pos"),
  prefixKind: "city",

  browse(p, offset) {
    if (p.state === undefined && !(p.stateCode !== undefined && p.country === undefined)) {
      if (p.country === undefined) {
        return {
          positions: sql`SELECT pos, pos AS rank, NULL AS dist FROM cities WHERE pos > ${offset} ORDER BY pos LIMIT ${PER}`,
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
                       WHERE ${scope} AND ${rank} > ${offset} ORDER BY ${rank} LIMIT ${PER}`,
        count: sql`SELECT coalesce((SELECT cities FROM region_counts WHERE country_code = ${code} AND admin1_code = ${admin1}), 0) AS n`,
      };
    }
    // A state by name (maybe in several countries), or a state code in any country: page through
    // the FTS list of the filter tokens; the total is the sum of stored state totals.
    const filters = filterMatch(p, { venueCities: false, near: false });
    if (filters === null) return null;
    return {
      positions: sql`SELECT rowid AS pos, rowid AS rank, NULL AS dist FROM cities_fts
                     WHERE cities_fts MATCH ${filters} ORDER BY rowid LIMIT ${PER} OFFSET ${offset}`,
      count: sql`SELECT coalesce(sum(r.cities), 0) AS n FROM region_counts r WHERE ${and([raw("r.admin1_code <> ''"), ...regionConditions("r", p)])}`,
    };
  },

  nearby(p, offset) {
    const near = p.near;
    if (near === undefined) throw new Error("nearby() without a point");
    const filters = filterMatch(p, { venueCities: false, near: true });
    if (!hasFilters(p)) {
      // The circle alone: along the curve (curve.ts).
      return {
        positions: withPageCircle(
          near,
          "z_cities",
          offset + PER,
          // Ranked after the LIMIT: a sort that keeps one page, not a window over every city measured.
          sql`SELECT pos, ${offset} + row_number() OVER (ORDER BY dist, pos) AS rank, dist FROM (
                SELECT pos, dist FROM (${pageCities(near)}) WHERE dist <= (SELECT km FROM circle)
                ORDER BY dist, pos LIMIT ${PER} OFFSET ${offset})`,
        ),
        count: circleTotal(near, "z_cities", raw("1")),
      };
    }
    // With filters: the cells' tokens and the filters' intersected by FTS5, each match measured.
    const measured = sql`SELECT c.pos, ${distance(near)} AS dist FROM cities_fts f JOIN cities c ON c.pos = f.rowid
                         WHERE cities_fts MATCH ${filters ?? sql`''`}`;
    return {
      positions: sql`SELECT pos, row_number() OVER (ORDER BY dist, pos) AS rank, dist FROM (${measured})
                     WHERE dist <= ${near.radiusKm} ORDER BY rank LIMIT ${PER} OFFSET ${offset}`,
      count: sql`SELECT count(*) AS n FROM (${measured}) WHERE dist <= ${near.radiusKm}`,
    };
  },

  page: (positions, language) => pageRecords("cities", positions, language),

  record: (row) => cityRecord(row as unknown as CityRow),
  names: (c) => [normalize(c.name)],
};
