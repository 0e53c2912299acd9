/**
 * The columns of a city and of a venue as answers show them, with names in the language asked
 * for (a translation from localized_names, else the English name, field by field), and the two
 * statements that read records: a page's, from its positions, and one by its id. The columns read
 * the aliases c (cities), a (admin1), co (countries) and v (venues) that the joins below provide.
 */
import type { Language } from "../language.ts";
import type { Resource } from "../paging.ts";
import { join, raw, sql, type Sql } from "./sql.ts";

/** A name in a language: the translation when there is one. `key` and `english` are written in code. */
function localized(language: Language, kind: "city" | "admin1" | "country", key: string, english: string): Sql {
  if (language === "en") return raw(english);
  return sql`coalesce((SELECT name FROM localized_names WHERE lang = ${language} AND kind = ${kind} AND key = ${raw(key)}), ${raw(english)})`;
}

/** Joins from `cities c` to its state (a) and country (co). */
const CITY_JOINS = raw(`JOIN countries co ON co.code = c.country_code
  LEFT JOIN admin1 a ON a.country_code = c.country_code AND a.code = c.admin1_code`);

/** Joins from `venues v` to its city (c), the city's state (a) and country (co). */
const VENUE_JOINS = raw(`LEFT JOIN cities c ON c.pos = v.city_pos
  LEFT JOIN countries co ON co.code = c.country_code
  LEFT JOIN admin1 a ON a.country_code = c.country_code AND a.code = c.admin1_code`);

/** A city's columns, named with a prefix (rows.ts CityRow). */
function cityFields(language: Language, prefix: string): Sql[] {
  return [
    raw(`c.id AS ${prefix}id`),
    sql`${localized(language, "city", "c.id", "c.name")} AS ${raw(`${prefix}name`)}`,
    sql`${localized(language, "admin1", "c.country_code || '.' || c.admin1_code", "a.name")} AS ${raw(`${prefix}state`)}`,
    raw(`c.admin1_code AS ${prefix}state_code, c.lat AS ${prefix}lat, c.lng AS ${prefix}lng`),
    raw(`c.country_code AS ${prefix}country_code`),
    sql`${localized(language, "country", "c.country_code", "co.name")} AS ${raw(`${prefix}country_name`)}`,
  ];
}

/** Each resource's table and its alias, the joins its columns read, and its columns. */
const RECORDS = {
  /** A city (rows.ts CityRow). */
  cities: {
    table: raw("cities"),
    alias: raw("c"),
    joins: CITY_JOINS,
    columns: (l: Language) => join(cityFields(l, ""), ", "),
  },
  /** A venue and its city, the city's columns prefixed `city_` (rows.ts VenueRow). */
  venues: {
    table: raw("venues"),
    alias: raw("v"),
    joins: VENUE_JOINS,
    columns: (l: Language) => join([raw("v.id, v.name, v.url"), ...cityFields(l, "city_")], ", "),
  },
};

/**
 * The records at the positions of a page (rows of pos, rank, dist), in the page's order.
 * CROSS JOIN: the page's few rows drive the lookups (without statistics, some SQLite versions
 * would rather scan every record and look each up in the page).
 */
export function pageRecords(resource: Resource, positions: Sql, language: Language): Sql {
  const r = RECORDS[resource];
  return sql`WITH page AS (${positions})
             SELECT h.dist, ${r.columns(language)} FROM page h CROSS JOIN ${r.table} ${r.alias} ON ${r.alias}.pos = h.pos ${r.joins}
             ORDER BY h.rank`;
}

/** One record by its id (a venue id, a city's geonameid). */
export function recordById(resource: Resource, id: string, language: Language): Sql {
  const r = RECORDS[resource];
  return sql`SELECT ${r.columns(language)} FROM ${r.table} ${r.alias} ${r.joins} WHERE ${r.alias}.id = ${id}`;
}
