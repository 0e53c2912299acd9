/**
 * The scopes of stored totals (table name_prefix_counts, column scope): how many records a
 * one-word name search matches is stored for every record (scope ""), per country ("c:US") and
 * per state of a country ("s:US:CA"). The import writes the keys with scopeKey(); the worker finds
 * the key of a request's filters with scopeKeySql(), or learns that no total is stored for them.
 */
import { sql, type Sql } from "../sql/sql.ts";

/** The scope of a record in a country (or null) and a state (or null). */
export function scopeKey(countryCode: string | null, admin1Code: string | null = null): string {
  if (countryCode === null) return "";
  return admin1Code === null ? `c:${countryCode}` : `s:${countryCode}:${admin1Code}`;
}

/**
 * The same key as an SQL expression, from a country code (an SQL expression: the code, or looked
 * up by the country's name) and an admin-1 code; `country` null means every record.
 */
export function scopeKeySql(country: Sql | null, admin1Code?: string): Sql {
  if (country === null) return sql`''`;
  return admin1Code === undefined ? sql`'c:' || ${country}` : sql`'s:' || ${country} || ':' || ${admin1Code}`;
}
