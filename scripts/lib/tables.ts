/**
 * How a Dataset maps onto the tables of migrations/0001_schema.sql, shared by the local
 * writer (better-sqlite3 on the local D1 file) and the remote one (SQL files for wrangler).
 */
import type { Dataset } from "./dataset.ts";
import { NAMES_PER_CITY } from "./dataset.ts";

export type SqlValue = string | number | null;

export interface TableData {
  name: string;
  columns: readonly string[];
  rows: () => Iterable<SqlValue[]>;
  count: number;
}

/** Tables in load order (parents first). */
export function tableData(d: Dataset): TableData[] {
  const nameCount = d.cities.reduce((n, c) => n + c.names.length, 0);
  return [
    {
      name: "countries",
      columns: ["code", "name", "name_norm"],
      rows: () => d.countries.map((c) => [c.code, c.name, c.nameNorm]),
      count: d.countries.length,
    },
    {
      name: "admin1",
      columns: ["country_code", "code", "name", "name_norm"],
      rows: () => d.admin1.map((a) => [a.countryCode, a.code, a.name, a.nameNorm]),
      count: d.admin1.length,
    },
    {
      name: "cities",
      columns: [
        "pos",
        "id",
        "name",
        "ascii_name",
        "name_norm",
        "ascii_norm",
        "admin1_code",
        "country_code",
        "lat",
        "lng",
        "population",
        "alternate_names",
        "country_rank",
        "state_rank",
        "venue_count",
      ],
      rows: () =>
        d.cities.map((c) => [
          c.pos,
          c.id,
          c.name,
          c.asciiName,
          c.nameNorm,
          c.asciiNorm,
          c.admin1Code,
          c.countryCode,
          c.lat,
          c.lng,
          c.population,
          c.alternateNames,
          c.countryRank,
          c.stateRank,
          c.venueCount,
        ]),
      count: d.cities.length,
    },
    {
      name: "city_names",
      columns: ["id", "norm"],
      rows: function* () {
        for (const c of d.cities) {
          for (let k = 0; k < c.names.length; k++) yield [c.pos * NAMES_PER_CITY + k, c.names[k] ?? ""];
        }
      },
      count: nameCount,
    },
    {
      name: "venues",
      columns: [
        "pos",
        "id",
        "name",
        "name_norm",
        "city_pos",
        "country_code",
        "admin1_code",
        "url",
        "country_rank",
        "state_rank",
        "city_rank",
      ],
      rows: () =>
        d.venues.map((v) => [
          v.pos,
          v.id,
          v.name,
          v.nameNorm,
          v.cityPos,
          v.countryCode,
          v.admin1Code,
          v.url,
          v.countryRank,
          v.stateRank,
          v.cityRank,
        ]),
      count: d.venues.length,
    },
    {
      name: "region_counts",
      columns: ["country_code", "admin1_code", "cities", "venues"],
      rows: () => d.regionCounts.map((r) => [r.countryCode, r.admin1Code, r.cities, r.venues]),
      count: d.regionCounts.length,
    },
    {
      name: "localized_names",
      columns: ["lang", "kind", "key", "name"],
      rows: () => d.localizedNames.map((l) => [l.lang, l.kind, l.key, l.name]),
      count: d.localizedNames.length,
    },
    {
      name: "name_prefix_counts",
      columns: ["kind", "scope", "prefix", "n"],
      rows: () => d.prefixCounts.map((r) => [r.kind, r.scope, r.prefix, r.n]),
      count: d.prefixCounts.length,
    },
  ];
}

/** Empties the search indexes (contentless FTS5 tables are cleared with 'delete-all'). */
export const CLEAR_SEARCH_INDEXES = [
  "INSERT INTO cities_fts (cities_fts) VALUES ('delete-all')",
  "INSERT INTO venues_fts (venues_fts) VALUES ('delete-all')",
];

/** The filter tokens of a row with country_code and admin1_code columns (migration 0002). */
const REGION_TOKENS = `'_c_' || lower(country_code)
  || CASE WHEN admin1_code IS NULL THEN ''
     ELSE ' _s_' || lower(country_code) || '_' || lower(admin1_code) || ' _a_' || lower(admin1_code) END`;

/**
 * Fills the search indexes from the tables (see migration 0002), merges each index into one
 * segment, and gathers planner statistics.
 */
export const BUILD_SEARCH_INDEXES = [
  `INSERT INTO cities_fts (rowid, words, starts, filters)
   SELECT c.pos, n.words, n.starts, ${REGION_TOKENS} FROM cities c
   JOIN (SELECT id >> 10 AS pos, group_concat(norm, ' ') AS words, group_concat(replace(norm, ' ', '_'), ' ') AS starts
         FROM city_names GROUP BY id >> 10) n ON n.pos = c.pos`,
  "INSERT INTO cities_fts (cities_fts) VALUES ('optimize')",
  `INSERT INTO venues_fts (rowid, name)
   SELECT pos, name_norm || CASE WHEN city_pos IS NULL THEN '' ELSE ' ' || ${REGION_TOKENS} || ' _t_' || city_pos END
   FROM venues`,
  "INSERT INTO venues_fts (venues_fts) VALUES ('optimize')",
  "ANALYZE",
];

export function metaRows(d: Dataset, dataVersion: string, sources: string): [string, string][] {
  const counts = tableData(d).map((t) => [`rows_${t.name}`, String(t.count)] as [string, string]);
  return [["data_version", dataVersion], ["sources", sources], ["imported_at", new Date().toISOString()], ...counts];
}
