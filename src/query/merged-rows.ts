/**
 * Rows of several venue databases as one database's (docs/deploy.md#past-one-database): the
 * records of a page with their pos, merged in the order of a search without a name or an area,
 * `pos`, which is global; each record once (a database that answered in the main one's stead,
 * src/d1/route.ts, gives rows of every venue).
 */
import type { Language } from "../data-contract/languages.ts";
import type { SizedBest } from "../match/own-names.ts";
import { numbered, sql, type Sql } from "../sql/sql.ts";
import { pageRecords } from "./records.ts";
import { eachAtOnce, type Runner } from "./resource.ts";

export type Row = Record<string, unknown>;

/** A row of sizedBest() (src/match/own-names.ts) as the numbers rankedOnce() ranks. */
export const sizedOf = (row: Row): SizedBest => ({
  pos: Number(row.pos),
  k: Number(row.k),
  size: row.size === null || row.size === undefined ? null : Number(row.size),
});

/** What the merged statements are called in logs. */
export const MERGED = "venues merged from the venue databases";

/** The records at `positions` (rows of pos, rank, dist), each with its pos (by_pos). */
export const recordsAt = (positions: Sql, language: Language): Sql =>
  pageRecords("venues", positions, language, false, true);

/** Positions of the pos listed. */
const listed = (pos: readonly number[]): Sql =>
  sql`SELECT value AS pos, value AS rank, NULL AS dist FROM json_each(${JSON.stringify(pos)})`;

/** Rows of several databases in the order `compare` gives, each record (its pos in column `key`) once. */
export function mergedOnce(lists: readonly Row[][], compare: (a: Row, b: Row) => number, key: string): Row[] {
  const seen = new Set<number>();
  return lists
    .flat()
    .sort(compare)
    .filter((row) => !seen.has(Number(row[key])) && seen.add(Number(row[key])));
}

/** Rows of several databases in pos order (column `column`), each pos once. */
export const inPosOrder = (lists: readonly Row[][], column: string): Row[] =>
  mergedOnce(lists, (a, b) => Number(a[column]) - Number(b[column]), column);

/** The rows of statements run in one round trip, their values numbered as D1 takes them (numbered()). */
export const rowsOf = async (r: Runner, what: string, statements: readonly Sql[]): Promise<Row[][]> =>
  (await r.run(what, statements.map(numbered))).map((result) => result.rows);

/** Each runner's rows of one statement (none where it is null), at most 5 databases at once. */
export const rowsOfEach = (runners: readonly Runner[], what: string, statement: (i: number) => Sql | null) =>
  eachAtOnce(runners, async (r, i) => {
    const s = statement(i);
    return s === null ? [] : ((await rowsOf(r, what, [s]))[0] ?? []);
  });

/**
 * The records of the pos in `page` (in order), read from the databases whose `matches` (each
 * database's positions) hold them, in pos order.
 */
export async function recordsOf(
  shards: readonly Runner[],
  matches: readonly Row[][],
  page: ReadonlySet<number>,
  language: Language,
): Promise<Row[]> {
  const lists = await rowsOfEach(shards, MERGED, (i) => {
    const held = (matches[i] ?? []).map((row) => Number(row.pos)).filter((pos) => page.has(pos));
    return held.length === 0 ? null : recordsAt(listed(held), language);
  });
  return inPosOrder(lists, "by_pos");
}

/**
 * A runner whose rows of each statement are every runner's, one database's after another's: for
 * statements of records by id (a lookup, the names of a page's records), each record held by one
 * venue database. A database that answered in the main one's stead (route.ts) repeats the others'.
 */
export const united = (runners: readonly Runner[]): Runner => ({
  async run(what, statements) {
    const each = await eachAtOnce(runners, (r) => r.run(what, statements));
    return statements.map((_, i) => ({ rows: each.flatMap((results) => results[i]?.rows ?? []) }));
  },
});

/** The rows of `statements` (none for those that are null, nor a round trip without any) in one round trip. */
export async function rowsOfTrip(r: Runner, what: string, statements: readonly (Sql | null)[]): Promise<Row[][]> {
  const asked = statements.filter((s) => s !== null);
  const rows = asked.length === 0 ? [] : await rowsOf(r, what, asked);
  let at = 0;
  return statements.map((s) => (s === null ? [] : (rows[at++] ?? [])));
}

/** Each runner's rows of `statements` (rowsOfTrip), at most 5 databases at once. */
export const rowsOfEachTrip = (runners: readonly Runner[], what: string, statements: readonly (Sql | null)[]) =>
  eachAtOnce(runners, (r) => rowsOfTrip(r, what, statements));

/**
 * How a one-row statement of the typo fallback's trips (forgiving.ts), run in each venue database,
 * makes one database's row, by its name; undefined for those the main database reads (the place
 * readings): whether a correction is a whole name (in one of them), the first tier's key (the
 * least), the search's total under `prefix` (their sum; a lower bound where one of them says so).
 */
export function combineOf(name: string, prefix: string): ((rows: Row[]) => Row) | undefined {
  const numbers = (rows: Row[], column: string) => rows.map((r) => Number(r[column] ?? -1));
  if (name === "whole name") return (rows) => ({ n: Math.max(0, ...numbers(rows, "n")) });
  if (name === "key") {
    return (rows) => {
      const keys = numbers(rows, "k").filter((k) => k >= 0);
      return { k: keys.length === 0 ? -1 : Math.min(...keys) };
    };
  }
  if (name !== `${prefix}total`) return undefined;
  return (rows) => ({
    n: numbers(rows, "n").reduce((a, b) => a + Math.max(b, 0), 0),
    more: Math.max(0, ...numbers(rows, "more")),
  });
}
