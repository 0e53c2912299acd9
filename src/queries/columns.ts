/**
 * The columns of a city and of a venue as answers show them, with names in the language asked
 * for (a translation from localized_names, else the English name, field by field). They read the
 * aliases c (cities), a (admin1), co (countries) and v (venues) that the *_JOINS provide.
 */
import type { Language } from "../language";
import type { Sql } from "./sql";

/**
 * An SQL expression for a name in a language. `key` and `english` are expressions written in
 * code here, never user text.
 */
function localized(language: Language, kind: "city" | "admin1" | "country", key: string, english: string): Sql {
  if (language === "en") return { sql: english, params: [] };
  return {
    sql: `coalesce((SELECT name FROM localized_names WHERE lang = ? AND kind = '${kind}' AND key = ${key}), ${english})`,
    params: [language],
  };
}

function list(parts: (string | Sql)[]): Sql {
  return {
    sql: parts.map((p) => (typeof p === "string" ? p : p.sql)).join(", "),
    params: parts.flatMap((p) => (typeof p === "string" ? [] : p.params)),
  };
}

const as = (expression: Sql, name: string): Sql => ({ sql: `${expression.sql} AS ${name}`, params: expression.params });

/** Joins from `cities c` to its state (a) and country (co). */
export const CITY_JOINS = `JOIN countries co ON co.code = c.country_code
  LEFT JOIN admin1 a ON a.country_code = c.country_code AND a.code = c.admin1_code`;

/** Joins from `venues v` to its city (c), the city's state (a) and country (co). */
export const VENUE_JOINS = `LEFT JOIN cities c ON c.pos = v.city_pos
  LEFT JOIN countries co ON co.code = c.country_code
  LEFT JOIN admin1 a ON a.country_code = c.country_code AND a.code = c.admin1_code`;

/** A city's columns, named with a prefix: id, name, state, state_code, lat, lng, country_code, country_name. */
function cityFields(language: Language, prefix: string): (string | Sql)[] {
  return [
    `c.id AS ${prefix}id`,
    as(localized(language, "city", "c.id", "c.name"), `${prefix}name`),
    as(localized(language, "admin1", "c.country_code || '.' || c.admin1_code", "a.name"), `${prefix}state`),
    `c.admin1_code AS ${prefix}state_code`,
    `c.lat AS ${prefix}lat`,
    `c.lng AS ${prefix}lng`,
    `c.country_code AS ${prefix}country_code`,
    as(localized(language, "country", "c.country_code", "co.name"), `${prefix}country_name`),
  ];
}

/** A city (columns of rows.ts CityRow). */
export function cityColumns(language: Language): Sql {
  return list(cityFields(language, ""));
}

/** A venue and its city, the city's columns prefixed `city_` (rows.ts VenueRow). */
export function venueColumns(language: Language): Sql {
  return list(["v.id", "v.name", "v.url", ...cityFields(language, "city_")]);
}
