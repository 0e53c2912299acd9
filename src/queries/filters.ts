/**
 * The parts every search statement is made of (SPEC §3, §10): filters as FTS5 tokens, the name
 * tiers (exact name, name starting with the query, every word a prefix), stored totals, and
 * distances. The token format is src/tokens.ts; user text reaches FTS5 only inside quoted
 * phrases, and SQL only as bound values.
 */
import { coveringTokens, distanceSql, type Circle } from "../geo.ts";
import { words } from "../normalize.ts";
import type { SearchParams } from "../params.ts";
import {
  admin1Token,
  cityTokenSql,
  countryToken,
  countryTokenSql,
  nameToken,
  phrase,
  stateTokenSql,
} from "../tokens.ts";
import { join, raw, sql, type Sql } from "./sql.ts";

/** A token no document has: a filter that matches nothing. */
const NONE = phrase("__none");

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

/** Whether a search has filters besides its name and point (a city search has no city filters). */
export const hasFilters = (p: SearchParams): boolean =>
  [p.cityId, p.cityName, p.state, p.stateCode, p.country].some((f) => f !== undefined);

export const and = (conditions: readonly Sql[]): Sql =>
  conditions.length === 0 ? raw("1") : join(conditions, " AND ");

/** Phrases of tokens that a subquery builds from its rows (as an OR-list), or NONE without rows. */
function tokensOf(token: string, from: Sql): Sql {
  return sql`coalesce((SELECT '(' || group_concat('"' || ${raw(token)} || '"', ' OR ') || ')' ${from}), ${NONE})`;
}

/**
 * The filters as an SQL expression that evaluates to FTS5 query text over filter tokens, or null
 * without filters. `venueCities` adds a venue search's city filters (cityId, cityName); `near`
 * the grid cells covering the circle.
 */
export function filterMatch(p: SearchParams, options: { venueCities: boolean; near: boolean }): Sql | null {
  const parts: Sql[] = [];
  if (options.venueCities && p.cityId !== undefined) {
    parts.push(tokensOf(cityTokenSql("pos"), sql`FROM cities WHERE id = ${p.cityId}`));
  }
  if (options.venueCities && p.cityName !== undefined) {
    parts.push(
      tokensOf(cityTokenSql("pos"), sql`FROM cities WHERE name_norm = ${p.cityName} OR ascii_norm = ${p.cityName}`),
    );
  }
  if (p.state !== undefined) {
    parts.push(tokensOf(stateTokenSql("country_code", "code"), sql`FROM admin1 WHERE name_norm = ${p.state}`));
  }
  if (p.stateCode !== undefined) {
    // Admin-1 codes are letters and digits (the import checks): anything else matches nothing.
    parts.push(sql`${/^[0-9A-Z]+$/.test(p.stateCode) ? phrase(admin1Token(p.stateCode)) : NONE}`);
  }
  if (p.country !== undefined) {
    parts.push(
      "code" in p.country
        ? sql`${phrase(countryToken(p.country.code))}`
        : tokensOf(countryTokenSql("code"), sql`FROM countries WHERE name_norm = ${p.country.nameNorm}`),
    );
  }
  if (options.near && p.near !== undefined) {
    parts.push(sql`${`(${coveringTokens(p.near).map(phrase).join(" OR ")})`}`);
  }
  if (parts.length === 0) return null;
  // FTS5 needs an explicit AND next to a parenthesized group.
  return join(parts, " || ' AND ' || ");
}

/** FTS5 text of a name search's parts (bound values), each to be combined with the filters. */
export interface NameTiers {
  /** Some name equals the query: its name token. */
  exact: string;
  /** Some name starts with the query: the name token as a prefix. */
  starts: string;
  /** Every query word starts a word of a name. */
  words: string;
}

export function nameTiers(normalized: string): NameTiers | null {
  const list = words(normalized);
  if (list.length === 0) return null;
  const token = phrase(nameToken(normalized));
  return { exact: token, starts: `${token}*`, words: list.map((w) => `${phrase(w)}*`).join(" ") };
}

/** An FTS5 text and the filters, as one SQL expression: `(text) AND (filters)` (AND binds before OR). */
export function withFilters(text: string, filters: Sql | null): Sql {
  return filters === null ? sql`${text}` : sql`${`(${text}) AND (`} || ${filters} || ')'`;
}

/** Great-circle distance (km) from the circle's centre to the coordinates of alias `c`. */
export function distance(near: Circle): Sql {
  return distanceSql(near, raw("c.lat"), raw("c.lng"));
}
