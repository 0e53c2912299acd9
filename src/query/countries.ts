/**
 * The countries search (docs/api.md#countries): every row of `countries` as imported (all of
 * GeoNames' countryInfo, whether or not any of its cities were imported), named in the language
 * asked for, sorted by that name as a reader of that language would sort it.
 */
import type { Language } from "../data-contract/languages.ts";
import { sql, type Sql } from "../sql/sql.ts";
import { countryName } from "./records.ts";

export interface CountryRecord {
  code: string;
  name: string;
}

/** Every country with its name in `language` (a few hundred rows at most: read whole). */
export function everyCountry(language: Language): Sql {
  return sql`SELECT co.code AS code, ${countryName(language, "co.code")} AS name FROM countries co`;
}

/**
 * The rows of everyCountry() sorted by name in the language's collation (SQLite has only binary
 * order: `États-Unis` would follow `Suisse`), then by code so that equal names keep one order.
 */
export function countriesByName(rows: readonly Record<string, unknown>[], language: Language): CountryRecord[] {
  const collator = new Intl.Collator(language);
  return rows
    .map((r) => ({ code: String(r.code), name: String(r.name) }))
    .sort((a, b) => collator.compare(a.name, b.name) || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}
