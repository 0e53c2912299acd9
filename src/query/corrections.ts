/**
 * What the typo fallback reads from the vocabulary (table words, index words_fts; see
 * src/data-contract/typo-keys.ts): for each query word whether some record has a word starting with it,
 * and its candidate corrections, the most common first.
 */
import type { Resource } from "../params/paging.ts";
import { int, join, raw, sql, type Sql } from "../sql/sql.ts";
import { phrase, prefixOf } from "../match/fts.ts";
import type { Candidate, Lookup } from "./typos.ts";

/** Candidate corrections of one query word, the most common first. */
const CANDIDATES_PER_WORD = 200;

/**
 * The name of correctionsSql's statement in a search's first round trip: over venue databases it
 * runs in the main database, whose vocabulary counts every venue (src/d1/main-only.ts).
 */
export const CORRECTIONS = "corrections";

/** The vocabulary's candidate corrections of one query word (of a name or of a place), as a JSON array of [word, records, places]. */
function candidatesJson(resource: Resource, lookup: Lookup): Sql {
  const column = raw(resource === "venues" ? "w.venues" : "w.cities");
  return sql`(SELECT json_group_array(json_array(word, records, places)) FROM (
               SELECT w.word, ${column} AS records, w.places FROM words_fts f JOIN words w ON w.id = f.rowid
               WHERE words_fts MATCH ${lookup.keys.map(phrase).join(" OR ")} AND (${column} > 0 OR w.places > 0)
               AND length(w.word) BETWEEN ${int(lookup.minLength)} AND ${int(lookup.maxLength)}
               ORDER BY max(${column}, w.places) DESC LIMIT ${int(CANDIDATES_PER_WORD)}))`;
}

/**
 * Which columns of the corrections' row a statement reads: all of them (one database), or, over
 * several venue databases (src/query/merged-names.ts), those of the records' index in each venue
 * database and those of the vocabulary, which counts every venue, in the main database.
 */
export type CorrectionsPart = "all" | "index" | "vocabulary";

/**
 * One row: for each query word (column w0, w1 …) whether some record has a word starting with it,
 * so that a reading may keep it as typed, and the candidate corrections of each word that may
 * differ (c0, c1 …); with `held` (held.ts), whether the filters may hold a record (column held).
 * With `unless` (the strict answer stands), no row: such an answer reads no vocabulary. `part`:
 * the columns of the index (w, held; `unless` kept) or of the vocabulary (c) alone.
 */
export function correctionsSql(
  resource: Resource,
  fts: string,
  queryWords: readonly string[],
  list: readonly Lookup[],
  { unless, held, part = "all" }: { unless?: Sql | undefined; held?: Sql | null; part?: CorrectionsPart } = {},
): Sql {
  const index = raw(fts);
  const indexColumns = [
    ...queryWords.map(
      (w, i) => sql`EXISTS (SELECT 1 FROM ${index} WHERE ${index} MATCH ${prefixOf(w)}) AS ${raw(`w${i}`)}`,
    ),
    ...(held === undefined || held === null ? [] : [sql`${held} AS held`]),
  ];
  const vocabulary = list.map((lookup, i) => sql`${candidatesJson(resource, lookup)} AS ${raw(`c${i}`)}`);
  const columns =
    part === "index" ? indexColumns : part === "vocabulary" ? vocabulary : [...indexColumns, ...vocabulary];
  const stands = unless === undefined || part === "vocabulary" ? raw("") : sql` WHERE NOT ${unless}`;
  return sql`SELECT ${join(columns, ", ")}${stands}`;
}

/**
 * The corrections' row over several venue databases, as one database's: none where the strict
 * answer stands in one of them (`index`, each database's index part, holds no row); else the
 * vocabulary's candidates with each index column true where it is true in one of them.
 */
export function correctionsOver(
  index: readonly Record<string, unknown>[][],
  vocabulary: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (index.some((rows) => rows[0] === undefined)) return undefined;
  const row: Record<string, unknown> = { ...vocabulary };
  for (const indexRow of index.map((rows) => rows[0] ?? {})) {
    for (const [column, value] of Object.entries(indexRow))
      row[column] = Math.max(Number(row[column] ?? 0), Number(value));
  }
  return row;
}

/** The row of correctionsSql as which words match as typed and the candidate corrections. */
export function corrections(
  row: Record<string, unknown> | undefined,
  queryWords: number,
): { present: boolean[]; candidates: Candidate[] } {
  const present = Array.from({ length: queryWords }, (_, i) => row === undefined || Number(row[`w${i}`]) !== 0);
  const candidates: Candidate[] = [];
  for (let i = 0; row !== undefined && typeof row[`c${i}`] === "string"; i++) {
    for (const [word, records, places] of JSON.parse(row[`c${i}`] as string) as [string, number, number][]) {
      candidates.push({ word, records, places });
    }
  }
  return { present, candidates };
}
