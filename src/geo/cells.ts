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
  coverText,
  inAreaSql,
  isCircle,
  spanOf,
  type Area,
  type Span,
  type SqlBox,
} from "./area.ts";
import { NOTHING } from "../query/fts.ts";
import { distanceSql } from "./distance.ts";
import { cut, everyRecordNodes, rangesTotal } from "./ranks.ts";

/** What is counted: a term of cell_counts and the same records as FTS5 text, or every record (text null). */
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
  /** The table of the records in finest cells [lo, hi) and its join condition (after CROSS JOIN). */
  inCells(lo: Sql, hi: Sql): Sql;
  /** The number (cell_rank) of the last record in a finest cell before `cell`, 0 without one. */
  rankBefore(cell: Sql): Sql;
  pos: Sql;
  lat: Sql;
  lng: Sql;
}

/**
 * The places of a table of records (cities or venues) on the grid: `alias` is the table's alias in
 * the SQL that the geo modules write, `lat` and `lng` its records' points.
 */
export function placesOf(table: "cities" | "venues", alias: string, lat: string, lng: string): Places {
  const a = raw(alias);
  return {
    fts: `${table}_fts`,
    record: (pos) => sql`JOIN ${raw(table)} ${a} ON ${a}.pos = ${pos}`,
    inCells: (lo, hi) => sql`${raw(table)} ${a} ON ${a}.cell >= ${lo} AND ${a}.cell < ${hi}`,
    rankBefore: (cell) =>
      sql`coalesce((SELECT cell_rank FROM ${raw(table)} WHERE cell < ${cell} ORDER BY cell DESC, cell_rank DESC LIMIT 1), 0)`,
    pos: raw(`${alias}.pos`),
    lat: raw(lat),
    lng: raw(lng),
  };
}

/** Nested areas, largest first, with their limits and how their cells and records are placed. */
export interface Areas {
  list: readonly Area[];
  limits: readonly number[];
  /** `near` and `far` (columns) of a box of records that is `reach` km across from its centre. */
  place(box: SqlBox, reach: Sql): Sql;
  /** How far away a record's point is (compared with the limits). */
  away(lat: Sql, lng: Sql): Sql;
}

/** Circles of one centre, largest first. */
export function circleAreas(list: readonly Area[]): Areas {
  const first = list[0];
  if (first === undefined || !list.every(isCircle) || !isCircle(first)) throw new Error("circles expected");
  return {
    list,
    limits: list.map((c) => (isCircle(c) ? c.radiusKm : 0)),
    place: (box, reach) => {
      const d = boxCentreDistance(first, box);
      return sql`${d} - ${reach} AS near, ${d} + ${reach} AS far`;
    },
    away: (lat, lng) => distanceSql(first, lat, lng),
  };
}

/** One box. */
export function boxAreas(box: Area): Areas {
  if (isCircle(box)) throw new Error("a box expected");
  return {
    list: [box],
    limits: [0],
    place: (cells) =>
      sql`CASE WHEN ${boxOutsideBox(cells, box)} THEN 1 ELSE 0 END AS near, CASE WHEN ${boxInsideBox(cells, box)} THEN 0 ELSE 1 END AS far`,
    away: (lat, lng) => sql`CASE WHEN ${inAreaSql(box, lat, lng)} THEN 0 ELSE 1 END`,
  };
}

const KIDS = 4 ** KID_STEP;
/** The box of a cell_counts row's records: its columns. */
const STORED_BOX: SqlBox = { south: raw("south"), north: raw("north"), west: raw("west"), east: raw("east") };
const WORLD = { west: -180, east: 180, south: -90, north: 90 };
const ROOT_LEVEL = COUNT_LEVELS[0];

/** Whether a cell (columns near, far of alias `a`) lies on the edge of some area (the walk opens it). */
function onSomeEdge(areas: Areas, a: string): Sql {
  const terms = areas.limits.map((limit) => sql`(${raw(a)}.near <= ${num(limit)} AND ${raw(a)}.far > ${num(limit)})`);
  return sql`(${join(terms, " OR ")})`;
}

/**
 * The CTE node: the stored cells of the term from the world down, each opened into its stored
 * kids while an area's edge crosses it (columns level, cell, x, y, n, rest, rest_kids, near, far,
 * and the parent's far and cell).
 */
function nodeCte(t: Term, areas: Areas): Sql {
  const key = sql`kind = ${t.kind} AND term = ${t.term}`;
  // A kid's column and row from its parent's and its place among the 16 (Morton: x0 y0 x1 y1 from bit 0).
  const kid = raw("(k.cell % 16)");
  return sql`node(level, cell, x, y, n, rest, rest_kids, near, far, pfar, pcell) AS MATERIALIZED (
    SELECT level, cell, 0, 0, n, rest, rest_kids, ${areas.place(STORED_BOX, raw("reach"))}, NULL, NULL FROM cell_counts
    WHERE ${key} AND level = ${int(ROOT_LEVEL ?? 0)} AND cell = 0
    UNION ALL
    SELECT k.level, k.cell, p.x * 4 + (${kid} & 1) + ((${kid} >> 1) & 2), p.y * 4 + ((${kid} >> 1) & 1) + ((${kid} >> 2) & 2),
           k.n, k.rest, k.rest_kids, k.near, k.far, p.far, p.cell FROM node p CROSS JOIN (
      SELECT level, cell, n, rest, rest_kids, ${areas.place(STORED_BOX, raw("reach"))} FROM cell_counts WHERE ${key}) k
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

/** The kids of a cell of node to read (those with unstored records, touching the span), each one piece of text. */
function kidPieces(span: Span, piece: (k: number) => string): Sql {
  const kid = (k: number) =>
    sql`CASE WHEN rest_kids & ${int(1 << k)} AND ${kidTouches(k, span)} THEN ${raw(piece(k))} ELSE '' END`;
  return join(
    Array.from({ length: KIDS }, (_, k) => kid(k)),
    " || ",
  );
}

/**
 * The FTS5 text of the records a cell on an edge does not place: its unstored kids that touch the
 * areas' span, or itself at the finest level.
 */
function unplacedText(span: Span): Sql {
  const token = (k: number) => `' OR "__g' || (level + ${KID_STEP}) || '_' || (cell * ${KIDS} + ${k}) || '"'`;
  return sql`CASE WHEN level = ${int(FINEST_LEVEL)} THEN ' OR "__g' || level || '_' || cell || '"' ELSE ${kidPieces(span, token)} END`;
}

/** The finest cells of a cell (columns level and cell of alias `a`): from `cell × span` on, `span` of them. */
function finestCells(a: string): { lo: Sql; hi: Sql } {
  const span = raw(`(1 << (2 * (${FINEST_LEVEL} - ${a}.level)))`);
  return { lo: sql`${raw(a)}.cell * ${span}`, hi: sql`(${raw(a)}.cell + 1) * ${span}` };
}

/** Whether a cell (columns near, far of node) lies on the edge of the area whose limit `limit` is (an SQL value). */
const onEdgeOf = (limit: Sql): Sql => sql`(near <= ${limit} AND far > ${limit})`;

/** The sum of the cells wholly inside the area of limit `limit` (an SQL value), not inside a bigger such cell. */
export const insideSum = (limit: Sql): Sql =>
  sql`coalesce(sum(CASE WHEN far <= ${limit} AND (pfar IS NULL OR pfar > ${limit}) THEN n END), 0)`;

/**
 * A SELECT of (pos, away): the records that the cells of node on the edge of the area of limit
 * `limit` (an SQL value) do not place. For every record (ranks.ts), the small cells on the edge,
 * each a range of the cells' index; for a term, its records in the unstored kids of the stored
 * cells on the edge (and in finest cells on it), from the search index with the term; when the
 * term has no stored count at all (few records), all of them in the cover.
 */
export function edgeRecords(t: Term, areas: Areas, places: Places, limit: Sql): Sql {
  const away = areas.away(places.lat, places.lng);
  const edge = sql`${onEdgeOf(limit)} AND (rest > 0 OR level = ${int(FINEST_LEVEL)})`;
  if (t.text === null) {
    const cells = finestCells("n");
    return sql`SELECT ${places.pos} AS pos, ${away} AS away FROM (SELECT * FROM node WHERE ${edge}) n
               CROSS JOIN ${places.inCells(cells.lo, cells.hi)}`;
  }
  const fts = raw(places.fts);
  const root = sql`SELECT 1 FROM cell_counts WHERE kind = ${t.kind} AND term = ${t.term} AND level = ${int(ROOT_LEVEL ?? 0)} AND cell = 0`;
  const cover = coverText(areas.list[0] ?? WORLD);
  const kids = sql`SELECT '(' || substr(group_concat(kids, ''), 5) || ')' FROM (
      SELECT ${unplacedText(spanOf(areas.list[0] ?? WORLD))} AS kids FROM node WHERE ${edge}) WHERE kids <> ''`;
  const cells = sql`CASE WHEN EXISTS (${root}) THEN coalesce((${kids}), ${NOTHING}) ELSE ${cover} END`;
  return sql`SELECT f.rowid AS pos, ${away} AS away FROM ${fts} f ${places.record(raw("f.rowid"))}
             WHERE ${fts} MATCH ${`(${t.text}) AND `} || ${cells}`;
}

/** The CTE node of a term: from its stored cell counts, or, for every record, from the records' ranks (ranks.ts). */
export const termNodes = (t: Term, areas: Areas, places: Places): Sql =>
  t.text === null ? everyRecordNodes(areas, places, cut(areas.list[0] ?? WORLD).edge) : nodeCte(t, areas);

/** A one-row SELECT of n: the term's records inside the first area (the cells wholly inside, and the edge measured). */
export function totalOf(t: Term, areas: Areas, places: Places): Sql {
  const limit = num(areas.limits[0] ?? 0);
  // Every record: the ranges wholly inside are counted by their ranks; node holds only the edge.
  const ranges = t.text === null ? sql`${rangesTotal(places, sql`${cut(areas.list[0] ?? WORLD).inside}`)} + ` : raw("");
  return sql`SELECT ${ranges}(SELECT ${insideSum(limit)} FROM node)
    + (SELECT count(*) FROM (${edgeRecords(t, areas, places, limit)}) WHERE away <= ${limit}) AS n`;
}
