/**
 * Counting the records of a term inside areas from the stored cell counts (migrations/0008,
 * docs/architecture.md#places-on-a-grid), without reading the records of cells that lie wholly
 * inside or outside:
 *
 * 1. `node`: from the world's count down, the stored cells of the term that an area's edge
 *    crosses are opened into their stored kids (a range of 16 Morton codes), so only cells along
 *    the edges are visited; a cell wholly inside an area counts as its stored number.
 * 2. `measured`: the records the stored cells do not place exactly — those of the unstored kids of
 *    cells on an edge (fewer than the import's minimum each), and of the finest cells on an edge —
 *    are read from the search index by their cell tokens and measured one by one.
 * 3. `counts`: per area, the cells wholly inside it that are not inside a bigger such cell, plus
 *    the measured records inside it.
 *
 * The areas are nested (circles of one centre, largest first, or one box), so a cell inside area
 * j is inside every area before it. Each area has a limit, and two numbers place a cell: `near` and
 * `far`, the least and the most any of its records can be "away": for circles kilometres from the
 * centre (the cell's box centre's distance, less and plus its reach), and for a box 0 or 1 (limit
 * 0: far is 0 inside the box, near 1 outside it). A cell is inside area j when far ≤ limit, outside
 * when near > limit, on its edge otherwise; a measured record is inside when its own `away` ≤ limit.
 */
import { COUNT_LEVELS, FINEST_LEVEL, KID_STEP } from "../format/grid.ts";
import { int, join, num, raw, sql, type Sql } from "../sql/sql.ts";
import {
  boxCentreDistance,
  boxInsideBox,
  boxOutsideBox,
  coverTokens,
  inAreaSql,
  isCircle,
  spanOf,
  type Area,
  type Span,
} from "./area.ts";
import { distanceSql } from "./distance.ts";

/** What is counted: a term of cell_counts, and the same records as FTS5 text (null: every record). */
export interface Term {
  kind: "venue" | "city";
  term: string;
  text: string | null;
}

/**
 * Where a resource's records and their points are: its search index, the join to a record by pos
 * or to the records of a range of finest cells (column cell), whose `pos` and point `lat`, `lng`
 * then read.
 */
export interface Places {
  fts: "venues_fts" | "cities_fts";
  record(pos: Sql): Sql;
  inCells(lo: Sql, hi: Sql): Sql;
  pos: Sql;
  lat: Sql;
  lng: Sql;
}

/** Nested areas, largest first, with their limits and how their cells and records are placed. */
export interface Areas {
  list: readonly Area[];
  limits: readonly number[];
  /** `near` and `far` of a cell_counts row (its columns unqualified). */
  cellColumns: Sql;
  /** How far away a record's point is (compared with the limits). */
  away(lat: Sql, lng: Sql): Sql;
}

/** Circles of one centre, largest first. */
export function circleAreas(list: readonly Area[]): Areas {
  const first = list[0];
  if (first === undefined || !list.every(isCircle) || !isCircle(first)) throw new Error("circles expected");
  const d = boxCentreDistance(first);
  return {
    list,
    limits: list.map((c) => (isCircle(c) ? c.radiusKm : 0)),
    cellColumns: sql`${d} - reach AS near, ${d} + reach AS far`,
    away: (lat, lng) => distanceSql(first, lat, lng),
  };
}

/** One box. */
export function boxAreas(box: Area): Areas {
  if (isCircle(box)) throw new Error("a box expected");
  return {
    list: [box],
    limits: [0],
    cellColumns: sql`CASE WHEN ${boxOutsideBox(box)} THEN 1 ELSE 0 END AS near, CASE WHEN ${boxInsideBox(box)} THEN 0 ELSE 1 END AS far`,
    away: (lat, lng) => sql`CASE WHEN ${inAreaSql(box, lat, lng)} THEN 0 ELSE 1 END`,
  };
}

const KIDS = 4 ** KID_STEP;
const WORLD = { west: -180, east: 180, south: -90, north: 90 };
const ROOT_LEVEL = COUNT_LEVELS[0];

/** Whether a cell (columns near, far of alias `a`) lies on the edge of some area. */
function onSomeEdge(areas: Areas, a: string): Sql {
  const terms = areas.limits.map((limit) => sql`(${raw(a)}.near <= ${num(limit)} AND ${raw(a)}.far > ${num(limit)})`);
  return sql`(${join(terms, " OR ")})`;
}

/** How many of the areas, from the first, wholly hold a cell (column far). */
function insideCount(areas: Areas): Sql {
  return sql`(${join(
    areas.limits.map((limit) => sql`(far <= ${num(limit)})`),
    " + ",
  )})`;
}

/** The cells of the term on the areas' edges and inside them (CTE `node`). */
function nodes(t: Term, areas: Areas): Sql {
  const key = sql`kind = ${t.kind} AND term = ${t.term}`;
  // A kid's column and row from its parent's and its place among the 16 (Morton: x0 y0 x1 y1 from bit 0).
  const kid = raw("(k.cell % 16)");
  return sql`node(level, cell, x, y, n, rest, rest_kids, near, far, pfar, pcell) AS MATERIALIZED (
    SELECT level, cell, 0, 0, n, rest, rest_kids, ${areas.cellColumns}, NULL, NULL FROM cell_counts
    WHERE ${key} AND level = ${int(ROOT_LEVEL ?? 0)} AND cell = 0
    UNION ALL
    SELECT k.level, k.cell, p.x * 4 + (${kid} & 1) + ((${kid} >> 1) & 2), p.y * 4 + ((${kid} >> 1) & 1) + ((${kid} >> 2) & 2),
           k.n, k.rest, k.rest_kids, k.near, k.far, p.far, p.cell FROM node p CROSS JOIN (
      SELECT level, cell, n, rest, rest_kids, ${areas.cellColumns} FROM cell_counts WHERE ${key}) k
      ON k.level = p.level + ${int(KID_STEP)} AND k.cell >= p.cell * ${int(KIDS)} AND k.cell < (p.cell + 1) * ${int(KIDS)}
    WHERE p.level < ${int(FINEST_LEVEL)} AND ${onSomeEdge(areas, "p")})`;
}

/**
 * Whether kid k of a cell (columns level, x, y) touches a span: its latitudes and longitudes (in
 * degrees from its column and row at level + KID_STEP) overlap the span's.
 */
function kidTouches(k: number, span: Span): Sql {
  const size = raw(`(1 << (level + ${KID_STEP}))`);
  const x = raw(`(x * 4 + ${(k & 1) + ((k >> 1) & 2)})`);
  const y = raw(`(y * 4 + ${((k >> 1) & 1) + ((k >> 2) & 2)})`);
  const lat = sql`${y} * 180.0 / ${size} - 90 <= ${num(span.north)} AND (${y} + 1) * 180.0 / ${size} - 90 >= ${num(span.south)}`;
  const lngs = span.lngRanges.map(
    ([west, east]) =>
      sql`(${x} * 360.0 / ${size} - 180 <= ${num(east)} AND (${x} + 1) * 360.0 / ${size} - 180 >= ${num(west)})`,
  );
  return sql`(${lat} AND (${join(lngs, " OR ")}))`;
}

/**
 * The FTS5 text of the records a cell on an edge does not place: its unstored kids that touch the
 * areas' span, or itself at the finest level.
 */
function unplacedText(span: Span): Sql {
  const kid = (k: number) =>
    sql`CASE WHEN rest_kids & ${int(1 << k)} AND ${kidTouches(k, span)}
          THEN ' OR "__g' || (level + ${int(KID_STEP)}) || '_' || (cell * ${int(KIDS)} + ${int(k)}) || '"' ELSE '' END`;
  const kids = join(
    Array.from({ length: KIDS }, (_, k) => kid(k)),
    " || ",
  );
  return sql`CASE WHEN level = ${int(FINEST_LEVEL)} THEN ' OR "__g' || level || '_' || cell || '"' ELSE ${kids} END`;
}

/** The finest cells of a cell (columns level and cell of alias `a`): from `cell × span` on, `span` of them. */
export function finestCells(a: string): { lo: Sql; hi: Sql } {
  const span = raw(`(1 << (2 * (${FINEST_LEVEL} - ${a}.level)))`);
  return { lo: sql`${raw(a)}.cell * ${span}`, hi: sql`(${raw(a)}.cell + 1) * ${span}` };
}

/**
 * The records a cell on an edge does not place, for every record (no term): the ranges of finest
 * cells between its stored kids (each range one seek in the cells' index).
 */
function measuredByRanges(areas: Areas, places: Places): Sql {
  const kids = raw(`node k ON k.pcell = e.cell AND k.level = e.level + ${KID_STEP}`);
  const { lo, hi } = finestCells("node");
  const kid = finestCells("k");
  return sql`edges(t, level, cell, lo, hi) AS MATERIALIZED (
      SELECT ${insideCount(areas)}, level, cell, ${lo}, ${hi} FROM node
      WHERE ${onSomeEdge(areas, "node")} AND (rest > 0 OR level = ${int(FINEST_LEVEL)})),
    gaps(t, lo, hi) AS MATERIALIZED (
      SELECT t, lag(khi, 1, lo) OVER (PARTITION BY level, cell ORDER BY klo), klo FROM (
        SELECT e.t, e.level, e.cell, e.lo, ${kid.lo} AS klo, ${kid.hi} AS khi FROM edges e JOIN ${kids})
      UNION ALL
      SELECT e.t, coalesce((SELECT max(${kid.hi}) FROM ${raw(`node k WHERE k.pcell = e.cell AND k.level = e.level + ${KID_STEP}`)}), e.lo),
             e.hi FROM edges e
      UNION ALL SELECT 0, 0, ${int(4 ** FINEST_LEVEL)} WHERE NOT EXISTS (SELECT 1 FROM node)),
    measured(pos, t, away) AS MATERIALIZED (
      SELECT ${places.pos}, g.t, ${areas.away(places.lat, places.lng)} FROM gaps g
      CROSS JOIN ${places.inCells(raw("g.lo"), raw("g.hi"))} WHERE g.lo < g.hi)`;
}

/** The same for the records of a term: its records in the unstored kids that touch the areas, from the search index. */
function measuredByIndex(t: Term, text: string, areas: Areas, places: Places): Sql {
  const fts = raw(places.fts);
  const root = sql`SELECT 1 FROM cell_counts WHERE kind = ${t.kind} AND term = ${t.term} AND level = ${int(ROOT_LEVEL ?? 0)} AND cell = 0`;
  // Without a stored count for the world, the term has few records: all of them in the cover are measured.
  const cover = `(${coverTokens(areas.list[0] ?? WORLD)
    .map((c) => `"${c}"`)
    .join(" OR ")})`;
  return sql`groups(t, text) AS MATERIALIZED (
      SELECT t, '(' || substr(group_concat(kids, ''), 5) || ')' FROM (
        SELECT ${insideCount(areas)} AS t, ${unplacedText(spanOf(areas.list[0] ?? WORLD))} AS kids FROM node
        WHERE ${onSomeEdge(areas, "node")} AND (rest > 0 OR level = ${int(FINEST_LEVEL)})) WHERE kids <> '' GROUP BY t
      UNION ALL SELECT 0, ${cover} WHERE NOT EXISTS (${root})),
    measured(pos, t, away) AS MATERIALIZED (
      SELECT f.rowid, g.t, ${areas.away(places.lat, places.lng)} FROM groups g
      CROSS JOIN ${fts} f ON ${fts} MATCH ${`(${text}) AND `} || g.text ${places.record(raw("f.rowid"))})`;
}

/**
 * The CTEs node, measured and counts (columns c0 … c<n-1>: the term's records inside each area).
 * Measured records come in groups by how many areas wholly hold their cell (t): a record of a cell
 * inside area j is counted with that cell, not again.
 */
export function countedCtes(t: Term, areas: Areas, places: Places): Sql {
  // One pass over the cells and one over the measured records give every area's count.
  const insideSums = areas.limits.map(
    (limit, j) =>
      sql`coalesce(sum(CASE WHEN far <= ${num(limit)} AND (pfar IS NULL OR pfar > ${num(limit)}) THEN n END), 0) AS ${raw(`i${j}`)}`,
  );
  const measuredSums = areas.limits.map(
    (limit, j) => sql`coalesce(sum(t <= ${int(j)} AND away <= ${num(limit)}), 0) AS ${raw(`m${j}`)}`,
  );
  const counts = areas.limits.map((_, j) => raw(`i${j} + m${j} AS c${j}`));
  const measured = t.text === null ? measuredByRanges(areas, places) : measuredByIndex(t, t.text, areas, places);
  return sql`${nodes(t, areas)},
    ${measured},
    counts AS MATERIALIZED (SELECT ${join(counts, ", ")} FROM (SELECT ${join(insideSums, ", ")} FROM node),
                                                (SELECT ${join(measuredSums, ", ")} FROM measured))`;
}
