/**
 * A venue search without a name or an area over several venue databases
 * (docs/deploy.md#past-one-database): the one database's page, merged in pos order (the order of
 * such a search: docs/api.md#order) from each database's part of it.
 *
 * - A search that seeks (every venue, a country, a country's state code): the main database reads
 *   the total and the pos the page starts at (its stored blocks count every venue: venues.ts); each
 *   venue database reads a page's worth from there, and the first of them merged are the page.
 * - Any other (a kind, a city or a state by name, a state code in any country) serves its window
 *   (src/params/window.ts): each venue database reads its matches up to the page's end, whose merge
 *   holds the page, then the records of the page from those that hold them (on the first page, with
 *   its matches). Its total is stored in the main database, or counted by the venue databases one
 *   after another, each within what the others left of the one database's cap (capped.ts), so that
 *   their reads together stay within it and the total is the one database's.
 *
 * A database that answered in the main one's stead (src/d1/route.ts: another import) gives rows of
 * every venue: a record is kept once, and the request path answers again from the main database.
 */
import type { Language } from "../data-contract/languages.ts";
import { CANDIDATES } from "../match/capped.ts";
import { ITEMS_PER_PAGE, pageOffset } from "../params/paging.ts";
import type { SearchParams } from "../params/search-params.ts";
import { raw, sql, type Sql } from "../sql/sql.ts";
import { pageSelect, type Page, type VenueRecord } from "./records.ts";
import { eachAtOnce, type Runner } from "./resource.ts";
import { mergedBrowse, VENUES, type MergedBrowse } from "./venues.ts";

type Row = Record<string, unknown>;

const SIZE = ITEMS_PER_PAGE.venues;
const WHAT = "venues merged from the venue databases";

/** The records at `positions` (rows of pos, rank, dist), each with its pos (by_pos). */
const recordsAt = (positions: Sql, language: Language): Sql =>
  sql`WITH page AS (${positions}) ${pageSelect("venues", language, raw("h.pos AS by_pos, "))}`;

/** Positions of the pos listed. */
const listed = (pos: readonly number[]): Sql =>
  sql`SELECT value AS pos, value AS rank, NULL AS dist FROM json_each(${JSON.stringify(pos)})`;

/** Rows of several databases in pos order (column `column`), each pos once. */
function inPosOrder(lists: readonly Row[][], column: string): Row[] {
  const seen = new Set<number>();
  return lists
    .flat()
    .sort((a, b) => Number(a[column]) - Number(b[column]))
    .filter((row) => !seen.has(Number(row[column])) && seen.add(Number(row[column])));
}

/**
 * The total counted by each venue database in turn, each within what the ones before it left of
 * `cap` (CANDIDATES): one database's capped count of them all (n at most cap + 1, a lower bound past cap).
 */
export async function countedInTurn(shards: readonly Runner[], countWithin: (limit: number) => Sql, cap = CANDIDATES) {
  let counted = 0;
  for (const shard of shards) {
    const [result] = await shard.run(`${WHAT}: a count`, [countWithin(cap - counted)]);
    const row = result?.rows[0];
    counted += Number(row?.n ?? 0);
    if (Number(row?.more ?? 0) > 0) return { total: counted, totalAtLeast: true as const };
  }
  return { total: counted };
}

/** The total: stored in the main database, or counted in the venue databases. */
async function totalOf(main: Runner, shards: readonly Runner[], parts: MergedBrowse, mainRows?: Row[]) {
  if (parts.countEach !== null) return countedInTurn(shards, parts.countEach);
  const rows =
    mainRows ?? (parts.total === null ? [] : ((await main.run(`${WHAT}: the total`, [parts.total]))[0]?.rows ?? []));
  return { total: Number(rows[0]?.n ?? 0) };
}

/** The page's records of a search that seeks: from the pos the main database says it starts at. */
async function soughtPage(main: Runner, shards: readonly Runner[], parts: MergedBrowse, language: Language) {
  const [totalRows, startRows] = await main.run(`${WHAT}: the total and the page's start`, [
    parts.total ?? raw("SELECT 0 AS n"),
    parts.start ?? raw("SELECT NULL AS start"),
  ]);
  const start = startRows?.rows[0]?.start;
  const total = await totalOf(main, shards, parts, totalRows?.rows);
  if (typeof start !== "number") return { ...total, rows: [] };
  const lists = await eachAtOnce(
    shards,
    async (r) => (await r.run(WHAT, [recordsAt(parts.positions(start, SIZE), language)]))[0]?.rows ?? [],
  );
  return { ...total, rows: inPosOrder(lists, "by_pos").slice(0, SIZE) };
}

/** The page's records of a search within its window: each database's matches up to the page's end, merged. */
async function windowPage(
  main: Runner,
  shards: readonly Runner[],
  parts: MergedBrowse,
  offset: number,
  language: Language,
) {
  if (offset === 0) {
    const lists = await eachAtOnce(
      shards,
      async (r) => (await r.run(WHAT, [recordsAt(parts.positions(null, SIZE), language)]))[0]?.rows ?? [],
    );
    return { ...(await totalOf(main, shards, parts)), rows: inPosOrder(lists, "by_pos").slice(0, SIZE) };
  }
  const matches = await eachAtOnce(
    shards,
    async (r) => (await r.run(`${WHAT}: the matches`, [parts.positions(null, offset + SIZE)]))[0]?.rows ?? [],
  );
  const page = new Set(
    inPosOrder(matches, "pos")
      .slice(offset, offset + SIZE)
      .map((row) => Number(row.pos)),
  );
  const lists = await eachAtOnce(shards, async (r, i) => {
    const held = (matches[i] ?? []).map((row) => Number(row.pos)).filter((pos) => page.has(pos));
    return held.length === 0 ? [] : ((await r.run(WHAT, [recordsAt(listed(held), language)]))[0]?.rows ?? []);
  });
  // The total after the rows: a venue database's session runs one round trip at a time (route.ts counts its rows read).
  return { ...(await totalOf(main, shards, parts)), rows: inPosOrder(lists, "by_pos") };
}

/**
 * The page of a venue search without a name or an area, merged from `shards` (their totals from
 * `main`); null where one database answers it (one city).
 */
export async function mergedVenues(
  main: Runner,
  shards: readonly Runner[],
  p: SearchParams,
  language: Language,
): Promise<Page<VenueRecord> | null> {
  const offset = pageOffset("venues", p.page);
  const parts = mergedBrowse(p, offset);
  if (parts === null) return null;
  const { rows, ...total } =
    parts.start !== null
      ? await soughtPage(main, shards, parts, language)
      : await windowPage(main, shards, parts, offset, language);
  return { page: p.page, ...total, items: rows.map((r) => VENUES.record(r)), match: "exact" };
}
