/**
 * A record, from SQL to the typed form the shapes read: the columns of a city and of a venue with
 * names in the language asked for (a translation from localized_names, else the English name,
 * field by field), the two statements that read records (a page's, from its positions, and one by
 * its id), their rows, and the records and pages the queries return. The columns read the aliases
 * c (cities), a (admin1), co (countries) and v (venues) that the joins below provide.
 */
import type { Language } from "../data-contract/languages.ts";
import { isVenueKind, type VenueKind } from "../data-contract/venue-kinds.ts";
import { ownPointSql } from "../data-contract/venue-points.ts";
import type { Resource } from "../params/paging.ts";
import type { SearchParams } from "../params/search-params.ts";
import { join, raw, sql, type Sql } from "../sql/sql.ts";

export interface CityRecord {
  id: string;
  name: string;
  state: string | null;
  stateCode: string | null;
  lat: number;
  lng: number;
  countryCode: string;
  countryName: string;
  /** Kilometres from the point of a search near a point. */
  distanceKm?: number;
}

export interface VenueRecord {
  id: string;
  name: string;
  url: string | null;
  city: CityRecord | null;
  /** The venue's own point, when its source has one (docs/api.md#venues-at-their-own-place). */
  coords: { lat: number; lng: number } | null;
  kind: VenueKind;
  distanceKm?: number;
}

export interface Page<T> {
  page: number;
  total: number;
  /**
   * The total is a lower bound: the search counted its first candidates only and there were more
   * (src/match/capped.ts; docs/api.md#what-one-request-may-cost).
   */
  totalAtLeast?: true;
  items: T[];
  /**
   * How the names matched: strictly, with a place read at the end of the name
   * (docs/api.md#a-place-in-the-text), or forgiving typos (docs/api.md#typo-tolerance).
   */
  match: "exact" | "place" | "fuzzy";
  /** For a fuzzy answer: the corrected query that the first result matched. */
  suggestion?: string;
  /** The search that answered, when a place was read at the end of the name. */
  readAs?: SearchParams;
}

export interface CityRow {
  /** Kilometres from the centre of a search near a point. */
  dist?: number | null;
  id: string;
  name: string;
  state: string | null;
  state_code: string | null;
  lat: number;
  lng: number;
  country_code: string;
  country_name: string;
}

export interface VenueRow {
  dist?: number | null;
  id: string;
  name: string;
  url: string | null;
  lat: number | null;
  lng: number | null;
  kind: string;
  city_id: string | null;
  city_name: string | null;
  city_state: string | null;
  city_state_code: string | null;
  city_lat: number | null;
  city_lng: number | null;
  city_country_code: string | null;
  city_country_name: string | null;
}

export function cityRecord(r: CityRow): CityRecord {
  return {
    id: r.id,
    name: r.name,
    state: r.state,
    stateCode: r.state_code,
    lat: r.lat,
    lng: r.lng,
    countryCode: r.country_code,
    countryName: r.country_name,
    ...distanceOf(r),
  };
}

/** The distance of a search near a point, to one decimal (docs/api.md#near-a-point). */
function distanceOf(r: { dist?: number | null }): { distanceKm?: number } {
  return typeof r.dist === "number" ? { distanceKm: Math.round(r.dist * 10) / 10 } : {};
}

export function venueRecord(r: VenueRow): VenueRecord {
  const city =
    r.city_id === null || r.city_name === null
      ? null
      : {
          id: r.city_id,
          name: r.city_name,
          state: r.city_state,
          stateCode: r.city_state_code,
          lat: r.city_lat ?? 0,
          lng: r.city_lng ?? 0,
          countryCode: r.city_country_code ?? "",
          countryName: r.city_country_name ?? "",
        };
  const coords = r.lat === null || r.lng === null ? null : { lat: r.lat, lng: r.lng };
  const kind = isVenueKind(r.kind) ? r.kind : "other";
  return { id: r.id, name: r.name, url: r.url, city, coords, kind, ...distanceOf(r) };
}

/** A name in a language: the translation when there is one. `key` and `english` are written in code. */
function localized(
  language: Language,
  kind: "city" | "admin1" | "country" | "venue",
  key: string,
  english: string,
): Sql {
  if (language === "en") return raw(english);
  return sql`coalesce((SELECT name FROM localized_names WHERE lang = ${language} AND kind = ${kind} AND key = ${raw(key)}), ${raw(english)})`;
}

/** A country's name in a language: `code` reads its code, `co` is its row of countries. */
export const countryName = (language: Language, code: string): Sql => localized(language, "country", code, "co.name");

/** Joins from `cities c` to its state (a) and country (co); LEFT: an empty page keeps its row of the total. */
const CITY_JOINS = raw(`LEFT JOIN countries co ON co.code = c.country_code
  LEFT JOIN admin1 a ON a.country_code = c.country_code AND a.code = c.admin1_code`);

/** Joins from `venues v` to its city (c), the city's state (a) and country (co). */
const VENUE_JOINS = raw(`LEFT JOIN cities c ON c.pos = v.city_pos
  LEFT JOIN countries co ON co.code = c.country_code
  LEFT JOIN admin1 a ON a.country_code = c.country_code AND a.code = c.admin1_code`);

/** A city's columns, named with a prefix (CityRow). */
function cityFields(language: Language, prefix: string): Sql[] {
  return [
    raw(`c.id AS ${prefix}id`),
    sql`${localized(language, "city", "c.id", "c.name")} AS ${raw(`${prefix}name`)}`,
    sql`${localized(language, "admin1", "c.country_code || '.' || c.admin1_code", "a.name")} AS ${raw(`${prefix}state`)}`,
    raw(`c.admin1_code AS ${prefix}state_code, c.lat AS ${prefix}lat, c.lng AS ${prefix}lng`),
    raw(`c.country_code AS ${prefix}country_code`),
    sql`${countryName(language, "c.country_code")} AS ${raw(`${prefix}country_name`)}`,
  ];
}

/** Each resource's table and its alias, the joins its columns read, and its columns. */
const RECORDS = {
  /** A city (CityRow). */
  cities: {
    table: raw("cities"),
    alias: raw("c"),
    joins: CITY_JOINS,
    columns: (l: Language) => join(cityFields(l, ""), ", "),
  },
  /** A venue and its city, the city's columns prefixed `city_` (VenueRow). */
  venues: {
    table: raw("venues"),
    alias: raw("v"),
    joins: VENUE_JOINS,
    columns: (l: Language) =>
      join(
        [
          raw("v.id"),
          sql`${localized(l, "venue", "v.id", "v.name")} AS name`,
          raw(`v.url, ${ownPointSql("v", "lat")} AS lat, ${ownPointSql("v", "lng")} AS lng, v.kind`),
          ...cityFields(l, "city_"),
        ],
        ", ",
      ),
  },
};

/** Each resource's columns in each language: the same SQL on every request, built once an isolate. */
const builtColumns = new Map<string, Sql>();
function columnsOf(resource: Resource, language: Language): Sql {
  const key = `${resource} ${language}`;
  let columns = builtColumns.get(key);
  if (columns === undefined) builtColumns.set(key, (columns = RECORDS[resource].columns(language)));
  return columns;
}

/**
 * The records at the positions of a page (rows of pos, rank, dist), in the page's order; with the
 * positions' total (and whether it is a lower bound) on each row when they carry one (a search in an area: src/geo/pages.ts), where
 * an empty page is one row of the total alone (its record columns NULL). LEFT JOIN: the page's few
 * rows drive the lookups (without statistics, some SQLite versions would rather scan every record
 * and look each up in the page). `withPos`: each row with its pos too (by_pos: rows of several
 * databases merged, src/query/merged-rows.ts).
 */
export function pageRecords(
  resource: Resource,
  positions: Sql,
  language: Language,
  total = false,
  withPos = false,
): Sql {
  const extra = `${total ? "h.total, h.more, " : ""}${withPos ? "h.pos AS by_pos, " : ""}`;
  return sql`WITH page AS (${positions}) ${pageSelect(resource, language, raw(extra))}`;
}

/**
 * The SELECT of pageRecords over a table `page` of the statement (h), with `extra` columns before
 * the record's (ending in a comma) and `joins` after its own (the suggestions' names: src/suggest/).
 */
export function pageSelect(resource: Resource, language: Language, extra: Sql = raw(""), joins: Sql = raw("")): Sql {
  const r = RECORDS[resource];
  return sql`SELECT h.dist, ${extra}${columnsOf(resource, language)} FROM page h LEFT JOIN ${r.table} ${r.alias} ON ${r.alias}.pos = h.pos ${r.joins}${joins}
             ORDER BY h.rank, h.pos`;
}

/** One record by its id (a venue id, a city's geonameid). */
export function recordById(resource: Resource, id: string, language: Language): Sql {
  const r = RECORDS[resource];
  return sql`SELECT ${columnsOf(resource, language)} FROM ${r.table} ${r.alias} ${r.joins} WHERE ${r.alias}.id = ${id}`;
}
