/**
 * Pages of a counted term in an area (src/geo/cells.ts), each one statement whose rows are the
 * page's positions with the total (docs/architecture.md#places-on-a-grid):
 *
 * - near a point, nearest first: the counts of circles around the point, each half the radius of
 *   the one before, tell the smallest circle that holds the whole page; only its records are read
 *   (those of its cells wholly inside it, by their cell tokens, and the measured ones);
 * - inside a box, in the default order: its name tiers (or the term alone) read in pos order from
 *   the cells that cover the box, the records outside the box skipped, until the page is full
 *   (src/geo/box-page.ts); every record's page from the grid when the box holds few.
 */
import { EDGE_RECORDS, keptOfFirst, matchesOf } from "../match/capped.ts";
import { classOfKey, OWN, rankOrder } from "../data-contract/ranking.ts";
import { distanceSql } from "../data-contract/distance.ts";
import { boundCte, promotedOf } from "../match/own-names.ts";
import { int, join, num, raw, sql, type Sql } from "../sql/sql.ts";
import {
  edgeCount,
  moreOf,
  moreOrStopped,
  edgeRecords,
  insideCounts,
  insideNodeRecords,
  readOnlyWhen,
  termNodes,
  totalOf,
  type Term,
} from "./cells.ts";
import { boxAreas, circleAreas, type Places } from "./places.ts";
import { inCover } from "./area.ts";
import { anyOf } from "../match/fts.ts";
import { cut, rangesRecords, rangesTotal, walkCut } from "./ranks.ts";
import { boxPage, placedReading, type BoxTier } from "./box-page.ts";
import type { Box, Circle } from "../data-contract/distance.ts";

/** Every record (its kind and term are not read: ranks.ts counts it). */
const EVERY_RECORD: Term = { kind: "city", term: "", text: null };
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

/** The smallest circle a page is looked for in, km, and how many circles at most. */
const SMALLEST_RING_KM = 0.1;
const TERM_RINGS = 5;
/**
 * Every record's circles are counted exactly by their ranks (a few index seeks each), so more of
 * them cost little, and a dense place's page is read from a smaller circle: every venue within
 * 100 km of Paris at 10M venues took 5.7 ms of SQL with 5, 3.7 with 8 (1.6 and 1.1 at 1M). A
 * term's circles are walked and counted from the search index: more of them made the name classes
 * slower at 1M (docs/benchmarks.md).
 */
const EVERY_RECORD_RINGS = 8;
const RING_STEP = 2;

/** The circles a page near a point is looked for in: the search's, then RING_STEP times smaller, and so on. */
function rings(near: Circle, most: number): Circle[] {
  const out = [near];
  while (out.length < most && near.radiusKm / RING_STEP ** out.length >= SMALLEST_RING_KM) {
    out.push({ ...near, radiusKm: near.radiusKm / RING_STEP ** out.length });
  }
  return out;
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

/**
 * A record's key (class and name tier: src/data-contract/ranking.ts, its tiers' keys in order, the
 * last one's when none of the others) when another record lies at its distance, else 0: its own
 * names' or another's, the far larger promoted (the first found by an own name in `circle` read
 * only then).
 */
function tieKey(places: Places, tiers: readonly BoxTier[]): Sql {
  const fts = raw(places.fts);
  const last = tiers.at(-1);
  if (last === undefined) return raw("0");
  const has = (text: string | null) => sql`EXISTS (SELECT 1 FROM ${fts} WHERE ${fts} MATCH ${text} AND rowid = pos)`;
  const whens = tiers.slice(0, -1).map((t) => sql`WHEN ${has(t.text)} THEN ${int(t.key)}`);
  if (whens.length === 0) return raw("0");
  const key = sql`CASE ${join(whens, " ")} ELSE ${int(last.key)} END`;
  return sql`CASE WHEN count(*) OVER (PARTITION BY away) = 1 THEN 0 ELSE ${promotedOf(key, raw("pos"))} END`;
}

/** The first record of the search near a point found by an own name (a SELECT of column own), from its first candidates. */
function firstOwnNear(places: Places, near: Circle, own: string): Sql {
  const away = distanceSql(near, places.lat, places.lng);
  const candidates = matchesOf(places.fts, sql`${inCover(own, near, places.everyPlaced)}`);
  const kept = keptOfFirst(candidates, sql`${away} <= ${num(near.radiusKm, "km")}`, placedReading(places));
  return sql`SELECT (SELECT pos FROM (${kept}) LIMIT 1) AS own`;
}

/**
 * The positions of a page of a counted term near a point: nearest first, then by name tier and
 * pos. The cells wholly inside each circle give a lower bound of what it holds; the page is read
 * from the smallest circle whose bound reaches the page's end (else the search's own circle), and
 * only the edges of that circle and of the search's are measured.
 */
export function nearPositions(
  t: Term,
  places: Places,
  near: Circle,
  tiers: readonly BoxTier[],
  offset: number,
  size: number,
  merge: MergeHint = {},
): Sql {
  if (t.text === null) return everyRecordNear(places, near, offset, size, merge.ring);
  const text = t.text;
  const list = rings(near, TERM_RINGS);
  const areas = circleAreas(list);
  // One bound value for every place that compares with it (D1 binds at most 100).
  const need = num(offset + size, "limit");
  const away = areas.away(places.lat, places.lng);
  const fts = raw(places.fts);
  // The term's records in a circle: from its cover's cell tokens, each measured.
  const inRing = (c: Circle) =>
    sql`SELECT f.rowid AS pos, ${away} AS away FROM ${fts} f ${places.record(raw("f.rowid"))}
        WHERE ${fts} MATCH ${inCover(text, c, places.everyPlaced)} AND ${away} <= ${num(c.radiusKm, "km")}`;
  // The smallest circle that holds the page: its stored cells say so, or, when they are too coarse
  // to, its records counted (smallest first: CASE stops at the first that holds enough).
  const whens = list
    .map((c, j) => ({ c, j }))
    .slice(1)
    .reverse()
    .map(
      ({ c, j }) =>
        sql`WHEN ${raw(`l${j}`)} >= ${need} OR (SELECT count(*) FROM (SELECT 1 FROM (${inRing(c)}) LIMIT ${need})) >= ${need} THEN ${int(j)}`,
    );
  const pick =
    whens.length === 0 ? raw("SELECT 0 AS j") : sql`SELECT CASE ${join(whens, " ")} ELSE 0 END AS j FROM lower`;
  const radius = num(near.radiusKm, "km");
  const total = sql`SELECT (SELECT l0 FROM lower) + e.inside AS n, e.more AS more FROM (${edgeCount(t, areas, places, radius)}) e`;
  // The chosen circle's records: one search whose text and radius the choice picks, read from a
  // joined row (as a subquery in each record's filter, it measured 1–5 ms slower).
  const by = (f: (c: Circle) => Sql) =>
    sql`CASE j ${join(
      list.map((c, j) => sql`WHEN ${int(j)} THEN ${f(c)}`),
      " ",
    )} END`;
  const chosen = sql`SELECT ${by((c) => sql`${inCover(text, c, places.everyPlaced)}`)} AS text, ${by((c) => num(c.radiusKm, "km"))} AS km FROM picked`;
  const candidates = sql`SELECT f.rowid AS pos, ${away} AS away FROM chosen CROSS JOIN ${fts} f ${places.record(raw("f.rowid"))}
    WHERE ${fts} MATCH chosen.text AND ${away} <= chosen.km`;
  const page = sql`SELECT pos, rank, dist FROM (
      SELECT pos, row_number() OVER (ORDER BY ${rankOrder({ key: raw("k"), distance: raw("away"), pos: raw("pos") })}) AS rank, away AS dist FROM (
        SELECT pos, away, ${tieKey(places, tiers)} AS k FROM (${candidates})))
    WHERE rank > ${offset} ORDER BY rank LIMIT ${size}`;
  const own = tiers.flatMap((tier) => (classOfKey(tier.key) === OWN && tier.text !== null ? [tier.text] : []));
  const first = own.length === 0 ? raw("SELECT NULL AS own") : firstOwnNear(places, near, anyOf(own));
  const bound = boundCte(places.fts, first);
  return sql`WITH RECURSIVE ${termNodes(t, areas, places)}, ${bound},
    lower AS MATERIALIZED (${insideCounts(list.map((c) => num(c.radiusKm, "km")))}),
    picked AS MATERIALIZED (${pick}),
    chosen AS MATERIALIZED (${chosen}),
    ${withTotal(page, total)}`;
}

/**
 * One row of what the cells wholly inside each smaller circle of everyRecordNear() hold, by their
 * ranks (columns l1, l2, …; none where the search's circle is the smallest): summed over venue
 * databases, they tell the circle that one database reads a page from (src/query/merged-area.ts).
 */
export function ringsInside(places: Places, near: Circle): Sql {
  const counts = rings(near, EVERY_RECORD_RINGS)
    .slice(1)
    .map((ring, j) => sql`${rangesTotal(places, sql`${cut(ring, places.within).inside}`)} AS ${raw(`l${j + 1}`)}`);
  return counts.length === 0 ? raw("SELECT 0 AS l0") : sql`SELECT ${join(counts, ", ")}`;
}

/**
 * The positions of a page of every record near a point (ranks.ts): the circles' inside ranges
 * counted by their ranks tell the smallest circle that holds the page (`ring`, where a merge chose
 * it: ringsInside); its cells' records are read and measured. The total is the search's circle's,
 * its edge walked.
 */
function everyRecordNear(places: Places, near: Circle, offset: number, size: number, ring?: number): Sql {
  const list = rings(near, EVERY_RECORD_RINGS);
  const cuts = list.map((ring) => cut(ring, places.within));
  const areas = circleAreas([near]);
  // One bound value for every place that compares with it (D1 binds at most 100).
  const need = num(offset + size, "limit");
  const smaller = list
    .map((_, j) => j)
    .slice(1)
    .reverse();
  const whens = smaller.map(
    (j) => sql`WHEN ${rangesTotal(places, sql`${cuts[j]?.inside ?? "[]"}`)} >= ${need} THEN ${int(j)}`,
  );
  const pick =
    ring !== undefined ? int(ring) : smaller.length === 0 ? raw("0") : sql`CASE ${join(whens, " ")} ELSE 0 END`;
  const by = (f: (j: number) => Sql) =>
    join(
      list.map((_, j) => sql`WHEN ${int(j)} THEN ${f(j)}`),
      " ",
    );
  const page = sql`SELECT pos, rank, dist FROM (
      SELECT pos, row_number() OVER (ORDER BY ${rankOrder({ distance: raw("away"), pos: raw("pos") })}) AS rank, away AS dist FROM (
        SELECT pos, away FROM (${rangesRecords(areas, places, raw("(SELECT cells FROM ring)"))}) WHERE away <= (SELECT km FROM ring)))
    WHERE rank > ${offset} ORDER BY rank LIMIT ${size}`;
  return sql`WITH RECURSIVE ${termNodes(EVERY_RECORD, areas, places)},
    picked(j) AS (SELECT ${pick}),
    ring(j, km, cells) AS MATERIALIZED (SELECT j, CASE j ${by((j) => num(list[j]?.radiusKm ?? 0, "km"))} END,
                                        CASE j ${by((j) => sql`${cuts[j]?.all ?? "[]"}`)} END FROM picked),
    ${withTotal(page, totalOf(EVERY_RECORD, areas, places))}`;
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
  const fromGrid = sql`SELECT pos, row_number() OVER (ORDER BY pos) AS rank, NULL AS dist FROM (
      SELECT pos FROM (${rangesRecords(areas, places, ranges)})
      UNION ALL SELECT pos FROM (${insideNodeRecords(places, limit, few)})
      UNION ALL SELECT * FROM (SELECT pos FROM edges WHERE away <= ${limit} ${readOnlyWhen(few)}))
    ORDER BY pos LIMIT ${size} OFFSET ${offset}`;
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
