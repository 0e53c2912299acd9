/**
 * Pages of a counted term near a point (src/geo/cells.ts), nearest first, each one statement whose
 * rows are the page's positions with the total (src/geo/pages.ts withTotal): the counts of circles
 * around the point, each smaller than the one before, tell the smallest circle that holds the
 * whole page; only its records are read (those of its cells wholly inside it, by their cell
 * tokens, and the measured ones), and only the span of them the page lies in is ordered.
 */
import { keptOfFirst, matchesOf } from "../match/capped.ts";
import { classless, classOfKey, numberedPage, OWN, rankOrder, tierOfKey } from "../data-contract/ranking.ts";
import { distanceSql, type Circle } from "../data-contract/distance.ts";
import { boundCte, promotedOf } from "../match/own-names.ts";
import { anyOf } from "../match/fts.ts";
import { int, join, num, raw, sql, type Sql } from "../sql/sql.ts";
import { areaCellsText, edgeCount, edgeRecords, termNodes, totalOf, type Term } from "./cells.ts";
import { areaColumn, cellLists, insideCounts } from "./cell-passes.ts";
import { circleAreas, type Areas, type Places } from "./places.ts";
import { inCover } from "./area.ts";
import { cut, rangesRecords, rangesTotal } from "./ranks.ts";
import { placedReading, type BoxTier } from "./box-page.ts";
import { EVERY_RECORD, withTotal, type MergeHint } from "./pages.ts";

/** The smallest circle a page is looked for in, km. */
const SMALLEST_RING_KM = 0.1;
/**
 * A term's circles, each √2 smaller than the one before (the smallest a sixteenth of the search's):
 * the circle read holds about twice the page's end where the records lie evenly, not four times,
 * and its records are each read and measured — a one-letter word deep in a dense country read
 * past 20,000 rows with 5 circles twice as far apart (docs/benchmarks.md#near-a-point-deep-pages).
 */
const TERM_RINGS = 9;
const TERM_RING_STEP = Math.SQRT2;
/**
 * Every record's circles are counted exactly by their ranks (a few index seeks each), so more of
 * them cost little, and a dense place's page is read from a smaller circle: every venue within
 * 100 km of Paris at 10M venues took 5.7 ms of SQL with 5, 3.7 with 8 (1.6 and 1.1 at 1M).
 */
const EVERY_RECORD_RINGS = 8;
const EVERY_RECORD_RING_STEP = 2;

/** The circles a page near a point is looked for in: the search's, then `step` times smaller, and so on. */
function rings(near: Circle, most: number, step: number): Circle[] {
  const out = [near];
  while (out.length < most && near.radiusKm / step ** out.length >= SMALLEST_RING_KM) {
    out.push({ ...near, radiusKm: near.radiusKm / step ** out.length });
  }
  return out;
}

/**
 * A record's key: class and name tier (src/data-contract/ranking.ts, its tiers' keys in order, the
 * last one's when none of the others), its own names' or another's; not yet promoted (promotedOf).
 */
function recordKey(places: Places, tiers: readonly BoxTier[]): Sql {
  const fts = raw(places.fts);
  const last = tiers.at(-1);
  if (last === undefined) return raw("0");
  const has = (text: string | null) => sql`EXISTS (SELECT 1 FROM ${fts} WHERE ${fts} MATCH ${text} AND rowid = pos)`;
  const whens = tiers.slice(0, -1).map((t) => sql`WHEN ${has(t.text)} THEN ${int(t.key)}`);
  if (whens.length === 0) return raw("0");
  return sql`CASE ${join(whens, " ")} ELSE ${int(last.key)} END`;
}

/**
 * The CTEs span (lo, hi, before, rows) and spanned (pos, away) of a page near a point: a record's
 * key orders it only among those at its distance (rankOrder) where no tier counts edits, so the
 * page's records lie at the distances from its first to its last by distance alone (lo, hi),
 * after the `before` records nearer than lo. Those records and `before` come from one more pass
 * over the candidates, the records as JSON (exact: SQLite writes a REAL's 17 digits), since each
 * pass over a materialized CTE is read again row by row (D1's rows read). Where a tier counts
 * edits, every candidate.
 */
function pageSpan(tiers: readonly BoxTier[], offset: number, size: number): Sql {
  if (tiers.some((tier) => classless(tier.key) !== tierOfKey(tier.key))) {
    return raw(`span(lo, hi, before) AS (SELECT -1e308, 1e308, 0),
      spanned(pos, away) AS (SELECT pos, away FROM candidate)`);
  }
  return sql`span(lo, hi, before, rows) AS MATERIALIZED (
    SELECT lo, hi, count(*) FILTER (WHERE away < lo), json_group_array(json_array(pos, away)) FILTER (WHERE away BETWEEN lo AND hi)
    FROM (SELECT min(away) AS lo, max(away) AS hi FROM (SELECT away FROM candidate ORDER BY away LIMIT ${size} OFFSET ${offset}))
    CROSS JOIN candidate),
    spanned(pos, away) AS (SELECT value ->> 0, value ->> 1 FROM span CROSS JOIN json_each(span.rows))`;
}

/**
 * The page's rows (pos, rank, dist) from the candidates in its span (CTE spanned): nearest first,
 * a record's key ordering it among those at its distance (0, not looked up, for a record alone at
 * its distance), the far larger promoted (the first found by an own name read only then); ordered
 * with a LIMIT, which keeps the rows up to the page's end alone.
 */
function nearPage(places: Places, tiers: readonly BoxTier[], offset: number, size: number): Sql {
  const order = rankOrder({ key: raw("k"), distance: raw("away"), pos: raw("pos") });
  // The key looked up once a record, in a step of its own (the far larger promoted names it thrice).
  return sql`SELECT pos, ${offset} + row_number() OVER (ORDER BY ${order}) AS rank, away AS dist FROM (
      SELECT pos, away, ${promotedOf(raw("found"), raw("pos"))} AS k FROM (
        SELECT pos, away, CASE WHEN count(*) OVER (PARTITION BY away) = 1 THEN 0 ELSE ${recordKey(places, tiers)} END AS found
        FROM spanned)
      ORDER BY ${order} LIMIT ${size} OFFSET ${offset} - (SELECT before FROM span))`;
}

/** The first record of the search near a point found by an own name (a SELECT of column own), from its first candidates. */
function firstOwnNear(places: Places, near: Circle, own: string): Sql {
  const away = distanceSql(near, places.lat, places.lng);
  const candidates = matchesOf(places.fts, sql`${inCover(own, near, places.everyPlaced)}`);
  const kept = keptOfFirst(candidates, sql`${away} <= ${num(near.radiusKm, "km")}`, placedReading(places));
  return sql`SELECT (SELECT pos FROM (${kept}) LIMIT 1) AS own`;
}

/**
 * The CTE picked (j, km, cover): the smallest circle of `list` that holds the page's end (`need`),
 * else the search's own (j 0), with its radius and the text of its cover. Its stored cells say so
 * (lower: l, at least what it holds; u, at most), or, where they could, its records counted: from
 * the edge's cells when they hold few against the page (l plus those measured inside), else from
 * its cover up to the page's end. The circles are tried smallest first, each counted only when
 * those before did not hold the page (a LIMIT over VALUES in that order), and each count is
 * written once in the statement, for the circle of the row (the statement's size: SQLite's cursors).
 */
function ringChoice(t: Term, places: Places, list: readonly Circle[], areas: Areas, need: Sql): Sql {
  const text = t.text ?? "";
  const rows = list
    .map((c, j) => sql`(${int(j)}, ${num(c.radiusKm, "km")}, ${inCover(text, c, places.everyPlaced)})`)
    .reverse();
  const column = (name: string) => areaColumn(raw("r.j"), list.length, name);
  const [inside, most, km] = [column("l"), column("u"), raw("r.km")];
  const fts = raw(places.fts);
  const away = areas.away(places.lat, places.lng);
  const unstored = raw("NOT EXISTS (SELECT 1 FROM node)");
  const counted = sql`(SELECT count(*) FROM (SELECT 1 FROM ${fts} f ${places.record(raw("f.rowid"))}
    WHERE ${fts} MATCH r.cover AND ${away} <= ${km} LIMIT ${need}))`;
  const { unplaced } = cellLists(raw("r.j"), list.length);
  const edge = sql`${inside} + (SELECT count(*) FROM (${edgeRecords(t, areas, places, km, unplaced)}) WHERE away <= ${km})`;
  const exact = sql`CASE WHEN ${most} - ${inside} <= 2 * ${need} AND NOT ${unstored} THEN ${edge} ELSE ${counted} END`;
  const holds = sql`r.j = 0 OR ${inside} >= ${need} OR ((${most} >= ${need} OR ${unstored}) AND ${exact} >= ${need})`;
  return sql`ring(j, km, cover) AS (VALUES ${join(rows, ", ")}),
    picked AS MATERIALIZED (SELECT r.j AS j, r.km AS km, r.cover AS cover FROM lower CROSS JOIN ring r WHERE ${holds} LIMIT 1)`;
}

/**
 * The positions of a page of a counted term near a point: nearest first, then by name tier and
 * pos. The page is read from the smallest circle that holds the page's end (ringChoice; else the
 * search's own circle), from the walk's cells that can hold its records (areaCellsText), each
 * measured; the total from the search's circle's inside cells and its edge's records measured.
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
  const list = rings(near, TERM_RINGS, TERM_RING_STEP);
  const areas = circleAreas(list);
  // One bound value for every place that compares with it (D1 binds at most 100).
  const need = num(offset + size, "limit");
  const away = areas.away(places.lat, places.lng);
  const fts = raw(places.fts);
  const radius = num(near.radiusKm, "km");
  const edges = edgeCount(t, areas, places, radius, raw("(SELECT unplaced0 FROM lower)"));
  const total = sql`SELECT (SELECT l0 FROM lower) + e.inside AS n, e.more AS more FROM (${edges}) e`;
  // The chosen circle's records (from the walk's cells), each measured: one search whose text and
  // radius the choice picks, read from a joined row (as a subquery in each record's filter, it
  // measured 1–5 ms slower).
  const text = areaCellsText(t, cellLists(raw("picked.j"), list.length), raw("picked.cover"));
  const chosen = sql`SELECT ${text} AS text, picked.km AS km FROM picked CROSS JOIN lower`;
  const candidates = sql`SELECT f.rowid AS pos, ${away} AS away FROM chosen CROSS JOIN ${fts} f ${places.record(raw("f.rowid"))}
    WHERE ${fts} MATCH chosen.text AND ${away} <= chosen.km`;
  const page = nearPage(places, tiers, offset, size);
  const own = tiers.flatMap((tier) => (classOfKey(tier.key) === OWN && tier.text !== null ? [tier.text] : []));
  const first = own.length === 0 ? raw("SELECT NULL AS own") : firstOwnNear(places, near, anyOf(own));
  const bound = boundCte(places.fts, first);
  return sql`WITH RECURSIVE ${termNodes(t, areas, places)}, ${bound},
    lower AS MATERIALIZED (${insideCounts(
      list.map((c) => num(c.radiusKm, "km")),
      true,
    )}),
    ${ringChoice(t, places, list, areas, need)},
    chosen AS MATERIALIZED (${chosen}),
    candidate AS MATERIALIZED (${candidates}),
    ${pageSpan(tiers, offset, size)},
    ${withTotal(page, total)}`;
}

/**
 * One row of what the cells wholly inside each smaller circle of everyRecordNear() hold, by their
 * ranks (columns l1, l2, …; none where the search's circle is the smallest): summed over venue
 * databases, they tell the circle that one database reads a page from (src/query/merged-area.ts).
 */
export function ringsInside(places: Places, near: Circle): Sql {
  const counts = rings(near, EVERY_RECORD_RINGS, EVERY_RECORD_RING_STEP)
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
  const list = rings(near, EVERY_RECORD_RINGS, EVERY_RECORD_RING_STEP);
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
  const page = numberedPage(
    sql`SELECT pos, away FROM (${rangesRecords(areas, places, raw("(SELECT cells FROM ring)"))}) WHERE away <= (SELECT km FROM ring)`,
    rankOrder({ distance: raw("away"), pos: raw("pos") }),
    { first: offset, size },
    raw("away"),
  );
  return sql`WITH RECURSIVE ${termNodes(EVERY_RECORD, areas, places)},
    picked(j) AS (SELECT ${pick}),
    ring(j, km, cells) AS MATERIALIZED (SELECT j, CASE j ${by((j) => num(list[j]?.radiusKm ?? 0, "km"))} END,
                                        CASE j ${by((j) => sql`${cuts[j]?.all ?? "[]"}`)} END FROM picked),
    ${withTotal(page, totalOf(EVERY_RECORD, areas, places))}`;
}
