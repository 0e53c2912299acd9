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
      columns: ["pos", "id", "name", "name_norm", "city_pos", "country_code", "admin1_code", "url"],
      rows: () => d.venues.map((v) => [v.pos, v.id, v.name, v.nameNorm, v.cityPos, v.countryCode, v.admin1Code, v.url]),
      count: d.venues.length,
    },
  ];
}

/** Empties the search indexes (contentless FTS5 tables are cleared with 'delete-all'). */
export const CLEAR_SEARCH_INDEXES = [
  "INSERT INTO city_names_fts (city_names_fts) VALUES ('delete-all')",
  "INSERT INTO venues_fts (venues_fts) VALUES ('delete-all')",
];

/** Fills the search indexes from the tables, then merges each index into one segment. */
export const BUILD_SEARCH_INDEXES = [
  "INSERT INTO city_names_fts (rowid, norm) SELECT id, norm FROM city_names",
  "INSERT INTO city_names_fts (city_names_fts) VALUES ('optimize')",
  "INSERT INTO venues_fts (rowid, name) SELECT pos, name_norm FROM venues",
  "INSERT INTO venues_fts (venues_fts) VALUES ('optimize')",
];

export function metaRows(d: Dataset, dataVersion: string, sources: string): [string, string][] {
  const counts = tableData(d).map((t) => [`rows_${t.name}`, String(t.count)] as [string, string]);
  return [["data_version", dataVersion], ["sources", sources], ["imported_at", new Date().toISOString()], ...counts];
}
