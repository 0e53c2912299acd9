/**
 * A venue name search outside an area over several venue databases
 * (docs/deploy.md#past-one-database): the first round trip of runSearch() (search.ts), its strict
 * answer merged from each database's part, its other statements (a typo's corrections, the place
 * readings: trips.ts) in the main database, at the same time. What follows it (a place read in the
 * name, the typo fallback) runs in the main database, which holds every venue.
 *
 * A name search reads, in each tier, the first matches up to the page's end (names.ts: tiered),
 * so each database's tiers hold its part of the page: merged, each record keeps its best key, and
 * the records found only by another name are promoted by the first record found by an own name of
 * them all (src/match/own-names.ts: rankedOnce), which no database alone can know. Then the
 * records of the page from the databases that hold them, and the total: stored in the main
 * database for a one-word name, or counted by the venue databases in turn (merged-browse.ts). A
 * word alone reads its first page so too; its deeper pages, where the word is broad, seek by the
 * stored anchors of its tiers (anchored.ts), and are answered by the main database.
 */
import type { Language } from "../data-contract/languages.ts";
import { rankedOnce, type SizedBest } from "../match/own-names.ts";
import { ITEMS_PER_PAGE, pageOffset } from "../params/paging.ts";
import type { SearchParams } from "../params/search-params.ts";
import { numbered, type Sql } from "../sql/sql.ts";
import { aloneWord } from "./anchored.ts";
import { countedInTurn } from "./merged-browse.ts";
import { MERGED, recordsOf, rowsOfEach, type Row } from "./merged-rows.ts";
import type { Runner } from "./resource.ts";
import { storedCount } from "./totals.ts";
import { TripRows } from "./trip.ts";
import type { FirstTrip } from "./trips.ts";
import { VENUES } from "./venues.ts";

/**
 * The matches a tier reads at most over every venue database asked: the page's end in each. A
 * tier's reads cost a few rows a match (its checks), more than one database's for as many matches
 * (`the c` at page 10 from four: 14,204 rows, where the main database read 8,060 at page 11), and
 * the typo fallback may read in the main database after them, within the 20,000 of a request
 * (docs/api.md#what-one-request-may-cost); deeper pages are the main database's, until a name's
 * deep pages seek in each venue database (docs/deploy.md#past-one-database).
 */
const MOST_MERGED_MATCHES = 600;

/** The first trip's statements that the merge makes of its own: the others run in the main database. */
const MERGED_PARTS = new Set(["total", "page"]);

const sized = (row: Row): SizedBest => ({
  pos: Number(row.pos),
  k: Number(row.k),
  size: row.size === null || row.size === undefined ? null : Number(row.size),
});

/** The main database's part: the first trip's other statements, and the stored total. */
async function mainPart(main: Runner, first: FirstTrip, p: SearchParams) {
  const kept = first.trip.names.map((name, i) => [name, first.trip.statements[i]] as const);
  const own = kept.filter(([name]) => !MERGED_PARTS.has(name));
  const stored = storedCount(VENUES, p);
  const statements = [...own.map(([, s]) => s as Sql), ...(stored === null ? [] : [numbered(stored)])];
  const names = own.map(([name]) => name);
  const results = await main.run("venues search (the main database)", statements, names);
  const storedRow = stored === null ? undefined : results[own.length]?.rows[0];
  return { names, rows: results.slice(0, own.length), stored: storedRow };
}

/**
 * The rows of runSearch()'s first round trip for a venue name search outside an area, merged from
 * `shards` (the other statements in `main`); null where the main database answers it alone (not a
 * name outside an area, a page deeper than the databases may read, a word alone past its first page).
 */
export async function mergedFirstTrip(
  main: Runner,
  shards: readonly Runner[],
  first: FirstTrip,
  p: SearchParams,
  language: Language,
): Promise<TripRows | null> {
  const parts = first.search.merge;
  const offset = pageOffset("venues", p.page);
  const deep = shards.length * (offset + ITEMS_PER_PAGE.venues) > MOST_MERGED_MATCHES;
  if (parts === undefined || deep || (offset > 0 && aloneWord(p) !== undefined)) return null;
  const [inMain, bests] = await Promise.all([
    mainPart(main, first, p),
    rowsOfEach(shards, `${MERGED}: the best tiers`, () => parts.best),
  ]);
  const page = rankedOnce(bests.flat().map(sized))
    .slice(offset, offset + ITEMS_PER_PAGE.venues)
    .map((r) => r.pos);
  const records = new Map((await recordsOf(shards, bests, new Set(page), language)).map((r) => [Number(r.by_pos), r]));
  const total =
    inMain.stored === undefined
      ? await countedInTurn(shards, parts.countWithin)
      : { total: Number(inMain.stored.n ?? 0) };
  const count = { n: total.total, more: "totalAtLeast" in total ? 1 : 0 };
  const rows = page.map((pos) => records.get(pos)).filter((r) => r !== undefined);
  return new TripRows(["total", "page", ...inMain.names], [{ rows: [count] }, { rows }, ...inMain.rows]);
}
