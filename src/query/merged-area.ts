/**
 * The first page of a venue search without a name in an area (a box, a circle) over several venue
 * databases (docs/deploy.md#past-one-database): each venue database reads its first page's records
 * with its own total, as the one database reads them (trips.ts areaBrowse), merged in the area's
 * order (nearest first near a point, then pos). The total is the sum of theirs: each counts
 * exactly what it holds, unless its count stopped at its cap (src/match/capped.ts), where a sum of
 * lower bounds is not the one database's lower bound: null then, and the request path answers from
 * the main database, as it does a deeper page (each venue database would read every record before
 * it: the world's box at page 33 read 31,944 rows from four).
 */
import type { Area } from "../data-contract/distance.ts";
import type { Language } from "../data-contract/languages.ts";
import { ITEMS_PER_PAGE } from "../params/paging.ts";
import type { SearchParams } from "../params/search-params.ts";
import { inOrder, MERGED, recordsAt, rowsOfEach, type Row } from "./merged-rows.ts";
import type { Runner } from "./resource.ts";
import { areaBrowse } from "./trips.ts";
import { VENUES } from "./venues.ts";

const SIZE = ITEMS_PER_PAGE.venues;

/** The total of the databases' positions (each row with its database's total); null when one is a lower bound. */
function summed(lists: readonly Row[][]): { total: number } | null {
  if (lists.some((rows) => Number(rows[0]?.more ?? 0) > 0)) return null;
  return { total: lists.reduce((n, rows) => n + Number(rows[0]?.total ?? 0), 0) };
}

/** The first page's records and total of a search without a name in `area`; null where a database's count is a lower bound. */
export async function firstAreaPage(
  shards: readonly Runner[],
  p: SearchParams,
  area: Area,
  language: Language,
): Promise<{ total: number; rows: Row[] } | null> {
  const lists = await rowsOfEach(shards, MERGED, () => recordsAt(areaBrowse(VENUES, p, area, 0, SIZE), language, true));
  const total = summed(lists);
  return total === null ? null : { ...total, rows: inOrder(lists, "by_pos").slice(0, SIZE) };
}
