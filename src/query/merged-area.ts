/**
 * A venue search without a name in an area (a box, a circle) over several venue databases
 * (docs/deploy.md#past-one-database): an area serves its window (src/params/window.ts), so each
 * venue database reads its first positions up to the page's end with its own total, as the one
 * database reads them (trips.ts areaBrowse), merged in the area's order (nearest first near a
 * point, then pos); the first page's records at once, a deeper page's then from the databases that
 * hold them. The total is the sum of theirs: each counts exactly what it holds, unless its count
 * stopped at its cap (src/match/capped.ts), where a sum of lower bounds is not the one database's
 * lower bound: null then, and the request path answers from the main database.
 */
import type { Area } from "../data-contract/distance.ts";
import type { Language } from "../data-contract/languages.ts";
import { ITEMS_PER_PAGE } from "../params/paging.ts";
import type { SearchParams } from "../params/search-params.ts";
import { inOrder, MERGED, recordsAt, recordsOf, rowsOfEach, type Row } from "./merged-rows.ts";
import type { Runner } from "./resource.ts";
import { areaBrowse } from "./trips.ts";
import { VENUES } from "./venues.ts";

const SIZE = ITEMS_PER_PAGE.venues;

/** The total of the databases' positions (each row with its database's total); null when one is a lower bound. */
function summed(lists: readonly Row[][]): { total: number } | null {
  if (lists.some((rows) => Number(rows[0]?.more ?? 0) > 0)) return null;
  return { total: lists.reduce((n, rows) => n + Number(rows[0]?.total ?? 0), 0) };
}

/** The page's records and total of a search without a name in `area`; null where a database's count is a lower bound. */
export async function areaPage(
  shards: readonly Runner[],
  p: SearchParams,
  area: Area,
  offset: number,
  language: Language,
): Promise<{ total: number; rows: Row[] } | null> {
  const positions = (size: number) => areaBrowse(VENUES, p, area, 0, size);
  if (offset === 0) {
    const lists = await rowsOfEach(shards, MERGED, () => recordsAt(positions(SIZE), language, true));
    const total = summed(lists);
    return total === null ? null : { ...total, rows: inOrder(lists, "by_pos").slice(0, SIZE) };
  }
  const matches = await rowsOfEach(shards, `${MERGED}: the positions`, () => positions(offset + SIZE));
  const total = summed(matches);
  if (total === null) return null;
  const page = inOrder(matches, "pos").slice(offset, offset + SIZE);
  return { ...total, rows: await recordsOf(shards, matches, page, language) };
}
