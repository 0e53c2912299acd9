/**
 * The places a venue search's filters name, for the routing to venue databases (src/d1/shards.ts):
 * its cities (`cityId`, `cityName`) with their points, else its states (`state`, `stateCode`),
 * else its countries, each within the other filters; read from the main database, which holds
 * every place.
 */
import { MAIN_VENUES_KEY, SHARD_PLAN_KEY } from "../data-contract/shards.ts";
import { and, cityConditions, countryCode, regionConditions } from "../match/filters.ts";
import { hasFilters, type SearchParams } from "../params/search-params.ts";
import { sql, type Sql } from "../sql/sql.ts";

/** A statement whose rows are the places (country, state, lat, lng) the filters of `p` name; null without filters. */
export function shardPlacesSql(p: SearchParams): Sql | null {
  if (!hasFilters(p)) return null;
  if (p.cityId !== undefined || p.cityName !== undefined) {
    const conditions = [...cityConditions(p), ...regionConditions("c", p)];
    return sql`SELECT c.country_code AS country, coalesce(c.admin1_code, '') AS state, c.lat, c.lng
               FROM cities c WHERE ${and(conditions)}`;
  }
  if (p.state !== undefined || p.stateCode !== undefined) {
    const conditions = [
      ...(p.state === undefined ? [] : [sql`a.name_norm = ${p.state}`]),
      ...(p.stateCode === undefined ? [] : [sql`a.code = ${p.stateCode}`]),
      ...(p.country === undefined ? [] : [sql`a.country_code = ${countryCode(p.country)}`]),
    ];
    return sql`SELECT a.country_code AS country, a.code AS state, NULL AS lat, NULL AS lng FROM admin1 a WHERE ${and(conditions)}`;
  }
  return p.country === undefined
    ? null
    : sql`SELECT co.code AS country, NULL AS state, NULL AS lat, NULL AS lng FROM countries co
          WHERE co.code = ${countryCode(p.country)}`;
}

/**
 * The plan of the venue databases and which venues the main database holds, from its meta rows
 * (columns plan and venues; no plan for one database, no venues row where the import wrote none).
 */
export const shardPlanSql = (): Sql =>
  sql`SELECT (SELECT value FROM meta WHERE key = ${SHARD_PLAN_KEY}) AS plan,
             (SELECT value FROM meta WHERE key = ${MAIN_VENUES_KEY}) AS venues`;
