import type { SearchParams } from "../params";
import { sql, type Sql } from "./sql";

/** Conditions joined with AND ("1" for none). */
export function and(conditions: readonly Sql[]): Sql {
  return {
    sql: conditions.length === 0 ? "1" : conditions.map((c) => c.sql).join(" AND "),
    params: conditions.flatMap((c) => c.params),
  };
}

/** The country code a `country` value stands for: the code itself, or looked up by name. */
export function countryCode(country: NonNullable<SearchParams["country"]>): Sql {
  return "code" in country
    ? { sql: "?", params: [country.code] }
    : { sql: "(SELECT code FROM countries WHERE name_norm = ?)", params: [country.nameNorm] };
}

/**
 * `state`, `stateCode` and `country` as conditions on a table alias with country_code and
 * admin1_code columns: cities, venues (which carry copies of their city's), region_counts.
 */
export function regionConditions(alias: string, p: SearchParams): Sql[] {
  const out: Sql[] = [];
  if (p.state !== undefined) {
    out.push({
      sql: `(${alias}.country_code, ${alias}.admin1_code) IN (SELECT country_code, code FROM admin1 WHERE name_norm = ?)`,
      params: [p.state],
    });
  }
  if (p.stateCode !== undefined) out.push({ sql: `${alias}.admin1_code = ?`, params: [p.stateCode] });
  if (p.country !== undefined) {
    const code = countryCode(p.country);
    out.push({ sql: `${alias}.country_code = ${code.sql}`, params: code.params });
  }
  return out;
}

/**
 * A page and total for the filter sets with stored ranks and totals: none (everything), a
 * country, or a country and a state code. Pages are seeks on `pos` or on the rank within the
 * country or state, so any page reads only its own rows. Null for other filter sets.
 */
export function rankedScope(
  p: SearchParams,
  table: "venues" | "cities",
  offset: number,
  perPage: number,
): { positions: Sql; count: Sql } | null {
  if (p.state !== undefined || (p.stateCode !== undefined && p.country === undefined)) return null;
  const t = table === "venues" ? "v" : "c";
  if (p.country === undefined) {
    return {
      positions: sql(
        `SELECT 0 AS tier, ${t}.pos FROM ${table} ${t} WHERE ${t}.pos > ? ORDER BY ${t}.pos LIMIT ?`,
        offset,
        perPage,
      ),
      count: sql(`SELECT CAST(value AS INTEGER) AS n FROM meta WHERE key = 'rows_${table}'`),
    };
  }
  const country = countryCode(p.country);
  const [scope, rank, admin1] =
    p.stateCode === undefined
      ? [`${t}.country_code = ${country.sql}`, `${t}.country_rank`, "''"]
      : [`${t}.country_code = ${country.sql} AND ${t}.admin1_code = ?`, `${t}.state_rank`, "?"];
  const scopeParams = p.stateCode === undefined ? country.params : [...country.params, p.stateCode];
  return {
    positions: sql(
      `SELECT 0 AS tier, ${t}.pos FROM ${table} ${t} WHERE ${scope} AND ${rank} > ? ORDER BY ${rank} LIMIT ?`,
      ...scopeParams,
      offset,
      perPage,
    ),
    count: sql(
      `SELECT coalesce((SELECT ${table} FROM region_counts WHERE country_code = ${country.sql} AND admin1_code = ${admin1}), 0) AS n`,
      ...scopeParams,
    ),
  };
}

/**
 * The stored total of cities or venues in the states that `state`, `stateCode` and `country`
 * select (region_counts; admin1_code '' rows are whole countries).
 */
export function statesTotal(p: SearchParams, column: "cities" | "venues"): Sql {
  const where = and([sql("r.admin1_code <> ''"), ...regionConditions("r", p)]);
  return {
    sql: `SELECT coalesce(sum(r.${column}), 0) AS n FROM region_counts r WHERE ${where.sql}`,
    params: where.params,
  };
}

/**
 * The total of a one-word name search, from name_prefix_counts when the filters are none, a
 * country, or a country and a state code (the scopes stored there), else counted by FTS.
 * `fts` is the FTS5 text (an SQL expression) of the search.
 */
export function nameTotal(kind: "venue" | "city", table: string, p: SearchParams, word: string | null, fts: Sql): Sql {
  const matches = `FROM ${table} WHERE ${table} MATCH ${fts.sql}`;
  const plain = p.cityId === undefined && p.cityName === undefined && p.state === undefined;
  let scope: Sql | null = null;
  if (plain && p.country === undefined && p.stateCode === undefined) scope = sql("''");
  else if (plain && p.country !== undefined) {
    const code = countryCode(p.country);
    scope =
      p.stateCode === undefined
        ? { sql: `'c:' || ${code.sql}`, params: code.params }
        : { sql: `'s:' || ${code.sql} || ':' || ?`, params: [...code.params, p.stateCode] };
  }
  if (word === null || scope === null) return { sql: `SELECT count(*) AS n ${matches}`, params: fts.params };
  return sql(
    `SELECT coalesce((SELECT n FROM name_prefix_counts WHERE kind = ? AND scope = ${scope.sql} AND prefix = ?),
                     (SELECT count(*) ${matches})) AS n`,
    kind,
    ...scope.params,
    word,
    ...fts.params,
  );
}

/** An FTS5 phrase for a filter token built from a checked code: quoted, lower case. */
function token(text: string): string {
  return `"${text.toLowerCase()}"`;
}

/** A filter token that no document has. */
const NONE = '"_none"';

/** An OR-list of tokens produced by a subquery, or a token that matches nothing. */
const anyOf = (select: string) => `coalesce('(' || (${select}) || ')', '${NONE}')`;

/**
 * The filters as an SQL expression that evaluates to FTS5 query text over the filter tokens
 * of the search indexes (`_c_us _s_us_ca …`, see migration 0002), or null without filters.
 * Values from the database are codes and positions (letters and digits); values from the user
 * are quoted by token().
 */
export function filterMatch(p: SearchParams, withCity: boolean): Sql | null {
  const parts: Sql[] = [];
  if (withCity && p.cityId !== undefined) {
    parts.push(sql(`'"_t_' || coalesce((SELECT pos FROM cities WHERE id = ?), 0) || '"'`, p.cityId));
  }
  if (withCity && p.cityName !== undefined) {
    parts.push(
      sql(
        anyOf(`SELECT group_concat('"_t_' || pos || '"', ' OR ') FROM cities WHERE name_norm = ? OR ascii_norm = ?`),
        p.cityName,
        p.cityName,
      ),
    );
  }
  if (p.state !== undefined) {
    parts.push(
      sql(
        anyOf(
          `SELECT group_concat('"_s_' || lower(country_code) || '_' || lower(code) || '"', ' OR ') FROM admin1 WHERE name_norm = ?`,
        ),
        p.state,
      ),
    );
  }
  if (p.stateCode !== undefined) {
    // Admin-1 codes are letters and digits (the import checks): anything else matches nothing,
    // and must not reach FTS5 as several tokens or a NUL.
    parts.push(sql("?", /^[0-9A-Z]+$/.test(p.stateCode) ? token(`_a_${p.stateCode}`) : NONE));
  }
  if (p.country !== undefined) {
    parts.push(
      "code" in p.country
        ? sql("?", token(`_c_${p.country.code}`))
        : sql(
            `'"_c_' || lower(coalesce((SELECT code FROM countries WHERE name_norm = ?), 'none')) || '"'`,
            p.country.nameNorm,
          ),
    );
  }
  if (parts.length === 0) return null;
  // FTS5 needs an explicit AND next to a parenthesized group.
  return { sql: parts.map((x) => x.sql).join(" || ' AND ' || "), params: parts.flatMap((x) => x.params) };
}

/** `expression AND (filters)`: FTS5 text (a bound value) and the filters, as one SQL expression. */
export function andFilters(expression: string, filters: Sql | null): Sql {
  return filters === null
    ? sql("?", expression)
    : { sql: `? || ' AND (' || ${filters.sql} || ')'`, params: [expression, ...filters.params] };
}
