/**
 * Pages of a counted term inside a box (src/geo/cells.ts), each one statement whose rows are the
 * page's positions with the total (docs/architecture.md#places-on-a-grid): its name tiers (or the
 * term alone) read in pos order from the cells that cover the box, the records outside the box
 * skipped, until the page is full (src/geo/box-page.ts); every record's page from the grid when the
 * box holds few. Near a point: src/geo/near-pages.ts.
 */
import { EDGE_RECORDS } from "../match/capped.ts";
import { numberedPage } from "../data-contract/ranking.ts";
import { int, num, raw, sql, type Sql } from "../sql/sql.ts";
import {
  moreOf,
  moreOrStopped,
  edgeRecords,
  insideNodeRecords,
  readOnlyWhen,
  termNodes,
  totalOf,
  type Term,
} from "./cells.ts";
import { insideCounts } from "./cell-passes.ts";
import { boxAreas, type Places } from "./places.ts";
import { cut, rangesRecords, rangesTotal, walkCut } from "./ranks.ts";
import { boxPage, type BoxTier } from "./box-page.ts";
import type { Box } from "../data-contract/distance.ts";

/** Every record (its kind and term are not read: ranks.ts counts it). */
export const EVERY_RECORD: Term = { kind: "city", term: "", text: null };
/** Every record as the one tier of a box's page. */
const EVERY_TIER: BoxTier = { key: 0, text: null };

/**
 * How a merge over venue databases asks for a page (src/query/merged-area.ts): near a point, every
 * record read from the circle `ring` (ringsInside); in a box, every record's page from the grid
 * only where the venue database holds at most `fewBelow` records in it, else the total alone; or the
 * page of a box that the merge counted few (`few`), without its total.
 */
export interface MergeHint {
  ring?: number;
  fewBelow?: number;
  few?: boolean;
}

/**
 * Page rows (pos, rank, dist) with the total on each, or one row of the total alone when the page
 * is empty. `total` is a one-row SELECT of columns n and more (src/match/capped.ts: n is a lower
 * bound when more is 1) (a join, not a UNION: each part of a compound
 * SELECT would read the CTEs again).
 */
export function withTotal(page: Sql, total: Sql): Sql {
  return sql`answer(n, more) AS MATERIALIZED (${total}), paged AS MATERIALIZED (${page})
    SELECT paged.pos, paged.rank, paged.dist, answer.n AS total, answer.more AS more FROM answer LEFT JOIN paged ON 1`;
}

/** The positions of a page of a counted term inside a box, with its total from the cell counts. */
export function boxPositions(
  t: Term,
  places: Places,
  box: Box,
  tiers: readonly BoxTier[],
  offset: number,
  size: number,
  merge: MergeHint = {},
): Sql {
  const areas = boxAreas(box);
  if (t.text === null) return everyRecordInBox(places, box, offset, size, merge);
  const page = boxPage(places, box, tiers, null, offset, size);
  return sql`WITH RECURSIVE ${termNodes(t, areas, places)}, ${withTotal(page, totalOf(t, areas, places))}`;
}

/**
 * A page of every record in a box, with the total: the records of its inside ranges (counted by
 * their ranks) and those measured on its edge (at most EDGE_RECORDS: read for the total, and again
 * only for a page of few; kept, they cost a row each more to count). A box that holds
 * few records (a thin strip, a place far from others) is paged from them, in pos order; any other
 * reads its cover in pos order (boxPage), where enough of the cover's first candidates lie inside
 * it. The total decides, and the branch not taken is not read.
 */
function everyRecordInBox(places: Places, box: Box, offset: number, size: number, merge: MergeHint): Sql {
  const areas = boxAreas(box);
  const limit = num(0, "km");
  const { inside } = cut(box, places.within);
  const total = sql`SELECT ${rangesTotal(places, sql`${inside}`)} + (SELECT l0 FROM (${insideCounts([limit])})) + e.inside AS n,
    ${moreOrStopped(places, raw("e.more"), walkCut())} AS more
    FROM (SELECT count(*) FILTER (WHERE away <= ${limit}) AS inside, ${moreOf(places)} AS more FROM edges) e`;
  // Each branch reads nothing unless taken: its ranges an empty list, its cells and edges a LIMIT of
  // 0 (cells.ts readOnlyWhen), its cover's text a token no document has.
  const few = merge.few === true ? raw("1") : sql`(SELECT n FROM answer) <= ${int(merge.fewBelow ?? EDGE_RECORDS)}`;
  const ranges = sql`CASE WHEN ${few} THEN ${inside} ELSE '[]' END`;
  const fromGrid = numberedPage(
    sql`SELECT pos FROM (${rangesRecords(areas, places, ranges)})
      UNION ALL SELECT pos FROM (${insideNodeRecords(places, limit, few)})
      UNION ALL SELECT * FROM (SELECT pos FROM edges WHERE away <= ${limit} ${readOnlyWhen(few)})`,
    raw("pos"),
    { first: offset, size },
  );
  const nodes = sql`WITH RECURSIVE ${termNodes(EVERY_RECORD, areas, places)},
    edges AS NOT MATERIALIZED (SELECT pos, away FROM (${edgeRecords(EVERY_RECORD, areas, places, limit)}) LIMIT ${int(EDGE_RECORDS + 1)})`;
  if (merge.few === true) return sql`${nodes} ${fromGrid}`;
  const fromCover = boxPage(
    places,
    box,
    [EVERY_TIER],
    null,
    offset,
    size,
    merge.fewBelow === undefined ? few : raw("1"),
  );
  const page = sql`SELECT * FROM (${fromGrid}) UNION ALL SELECT * FROM (${fromCover})`;
  return sql`${nodes}, ${withTotal(page, total)}`;
}
