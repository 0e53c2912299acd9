/**
 * The filters of a search (docs/api.md#matching) in the two forms the statements use: as
 * conditions on table columns, and as FTS5 text over the filter tokens of the search documents
 * (src/data-contract/tokens.ts), so that a name and its filters are one FTS5 intersection.
 */
import {
  admin1Token,
  cityTokenSql,
  countryToken,
  countryTokenSql,
  kindToken,
  stateTokenSql,
} from "../data-contract/tokens.ts";
import type { SearchParams } from "../params/search-params.ts";
import { join, raw, sql, type Sql } from "../sql/sql.ts";
import { allOfSql, NOTHING_SQL, phrase, tokensFrom } from "./fts.ts";

/** The country code a `country` value stands for: the code itself, or looked up by name. */
export function countryCode(country: NonNullable<SearchParams["country"]>): Sql {
  return "code" in country
    ? sql`${country.code}`
    : sql`(SELECT code FROM countries WHERE name_norm = ${country.nameNorm})`;
}

/**
 * `state`, `stateCode` and `country` as conditions on a table alias with country_code and
 * admin1_code columns: cities, venues (which carry their city's), region_counts.
 */
export function regionConditions(alias: string, p: SearchParams, options: { useIndex?: boolean } = {}): Sql[] {
  // `+column` keeps SQLite from reading a whole region through its index when another condition
  // (a city's name or id) is the selective one: there are no statistics to tell it so.
  const t = raw(options.useIndex === false ? `+${alias}` : alias);
  const out: Sql[] = [];
  if (p.state !== undefined) {
    out.push(
      sql`(${t}.country_code, ${t}.admin1_code) IN (SELECT country_code, code FROM admin1 WHERE name_norm = ${p.state})`,
    );
  }
  if (p.stateCode !== undefined) out.push(sql`${t}.admin1_code = ${p.stateCode}`);
  if (p.country !== undefined) out.push(sql`${t}.country_code = ${countryCode(p.country)}`);
  return out;
}

/** A venue search's city conditions (cityId, cityName) on the cities alias `c`. */
export function cityConditions(p: SearchParams): Sql[] {
  const out: Sql[] = [];
  if (p.cityId !== undefined) out.push(sql`c.id = ${p.cityId}`);
  if (p.cityName !== undefined) out.push(sql`(c.name_norm = ${p.cityName} OR c.ascii_norm = ${p.cityName})`);
  return out;
}

export const and = (conditions: readonly Sql[]): Sql =>
  conditions.length === 0 ? raw("1") : join(conditions, " AND ");

/** The FTS5 text of a venue's city filters (cityId, cityName): its city's token. */
function venueCityTokens(p: SearchParams): Sql[] {
  const parts: Sql[] = [];
  if (p.cityId !== undefined) parts.push(tokensFrom(cityTokenSql("pos"), sql`FROM cities WHERE id = ${p.cityId}`));
  if (p.cityName !== undefined) {
    const named = sql`FROM cities WHERE name_norm = ${p.cityName} OR ascii_norm = ${p.cityName}`;
    parts.push(tokensFrom(cityTokenSql("pos"), named));
  }
  return parts;
}

/** The FTS5 text of the region filters (state, stateCode, country). */
function regionTokens(p: SearchParams): Sql[] {
  const parts: Sql[] = [];
  if (p.state !== undefined) {
    parts.push(tokensFrom(stateTokenSql("country_code", "code"), sql`FROM admin1 WHERE name_norm = ${p.state}`));
  }
  if (p.stateCode !== undefined) {
    // Admin-1 codes are letters and digits (the import checks): anything else matches nothing.
    parts.push(sql`${/^[0-9A-Z]+$/.test(p.stateCode) ? phrase(admin1Token(p.stateCode)) : NOTHING_SQL}`);
  }
  if (p.country !== undefined) {
    parts.push(
      "code" in p.country
        ? sql`${phrase(countryToken(p.country.code))}`
        : tokensFrom(countryTokenSql("code"), sql`FROM countries WHERE name_norm = ${p.country.nameNorm}`),
    );
  }
  return parts;
}

/**
 * The filters as an SQL expression that evaluates to FTS5 text over the filter tokens of `index`
 * (venue documents carry their city's token and their kind's, city documents do not), or null
 * without filters. `withKind: false` leaves a venue's kind out (a search in an area counts it apart).
 */
export function ftsFilters(p: SearchParams, index: "venues_fts" | "cities_fts", withKind = true): Sql | null {
  const parts = [...(index === "venues_fts" ? venueCityTokens(p) : []), ...regionTokens(p)];
  if (index === "venues_fts" && withKind && p.kind !== undefined) parts.push(sql`${phrase(kindToken(p.kind))}`);
  return parts.length === 0 ? null : allOfSql(parts);
}
