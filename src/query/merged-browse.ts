/**
 * A venue search without a name or an area over several venue databases
 * (docs/deploy.md#past-one-database): the one database's page, merged from each database's part
 * of it in the order of such a search, pos (docs/api.md#order). In an area: merged-area.ts.
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
import { areaOf, type SearchParams } from "../params/search-params.ts";
import { raw, type Sql } from "../sql/sql.ts";
import { inPosOrder, MERGED, recordsAt, recordsOf, rowsOf, rowsOfEach, type Row } from "./merged-rows.ts";
import type { Page, VenueRecord } from "./records.ts";
import type { Runner } from "./resource.ts";
import { mergedBrowse, VENUES, type MergedBrowse } from "./venues.ts";

const SIZE = ITEMS_PER_PAGE.venues;

/**
 * The total counted by each venue database in turn, each within what the ones before it left of
 * `cap` (CANDIDATES): one database's capped count of them all (n at most cap + 1, a lower bound past cap).
 */
export async function countedInTurn(shards: readonly Runner[], countWithin: (limit: number) => Sql, cap = CANDIDATES) {
  let counted = 0;
  for (const shard of shards) {
    const [rows] = await rowsOf(shard, `${MERGED}: a count`, [countWithin(cap - counted)]);
    const row = rows?.[0];
    counted += Number(row?.n ?? 0);
    if (Number(row?.more ?? 0) > 0) return { total: counted, totalAtLeast: true as const };
  }
  return { total: counted };
}

/** The total's row (n, more): stored in the main database, else counted by the venue databases in turn. */
export async function totalRow(
  shards: readonly Runner[],
  countWithin: (limit: number) => Sql,
  stored: Row | undefined,
) {
  const total = stored === undefined ? await countedInTurn(shards, countWithin) : { total: Number(stored.n ?? 0) };
  return { n: total.total, more: "totalAtLeast" in total ? 1 : 0 };
}

/** The total: stored in the main database, or counted in the venue databases. */
async function totalOf(main: Runner, shards: readonly Runner[], parts: MergedBrowse, mainRows?: Row[]) {
  if (parts.countEach !== null) return countedInTurn(shards, parts.countEach);
  const read = async (total: Sql) => (await rowsOf(main, `${MERGED}: the total`, [total]))[0] ?? [];
  const rows = mainRows ?? (parts.total === null ? [] : await read(parts.total));
  return { total: Number(rows[0]?.n ?? 0) };
}

/** The page's records of a search that seeks: from the pos the main database says it starts at. */
async function soughtPage(main: Runner, shards: readonly Runner[], parts: MergedBrowse, language: Language) {
  const [totalRows, startRows] = await rowsOf(main, `${MERGED}: the total and the page's start`, [
    parts.total ?? raw("SELECT 0 AS n"),
    parts.start ?? raw("SELECT NULL AS start"),
  ]);
  const start = startRows?.[0]?.start;
  const total = await totalOf(main, shards, parts, totalRows);
  if (typeof start !== "number") return { ...total, rows: [] };
  const lists = await rowsOfEach(shards, MERGED, () => recordsAt(parts.positions(start, SIZE), language));
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
  let rows: Row[];
  if (offset === 0) {
    const lists = await rowsOfEach(shards, MERGED, () => recordsAt(parts.positions(null, SIZE), language));
    rows = inPosOrder(lists, "by_pos").slice(0, SIZE);
  } else {
    const matches = await rowsOfEach(shards, `${MERGED}: the matches`, () => parts.positions(null, offset + SIZE));
    const page = inPosOrder(matches, "pos").slice(offset, offset + SIZE);
    rows = await recordsOf(shards, matches, new Set(page.map((row) => Number(row.pos))), language);
  }
  // The total after the rows: a venue database's session runs one round trip at a time (route.ts counts its rows read).
  return { ...(await totalOf(main, shards, parts)), rows };
}

/** The records and total of a search without a name or an area, merged; null where one database answers it. */
async function merged(main: Runner, shards: readonly Runner[], p: SearchParams, language: Language) {
  if (areaOf(p) !== undefined) return null;
  const offset = pageOffset("venues", p.page);
  const parts = mergedBrowse(p, offset);
  if (parts === null) return null;
  if (parts.start !== null) return soughtPage(main, shards, parts, language);
  return windowPage(main, shards, parts, offset, language);
}

/**
 * The page of a venue search without a name or an area, merged from `shards` (totals and starts from `main`);
 * null where one database answers it (one city, an area).
 */
export async function mergedVenues(
  main: Runner,
  shards: readonly Runner[],
  p: SearchParams,
  language: Language,
): Promise<Page<VenueRecord> | null> {
  const found = await merged(main, shards, p, language);
  if (found === null) return null;
  const { rows, ...total } = found;
  return { page: p.page, ...total, items: rows.map((r) => VENUES.record(r)), match: "exact" };
}
