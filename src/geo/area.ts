/**
 * The two areas a search can keep its records in (docs/api.md#near-a-point, #inside-a-box): a circle
 * around a point, or a box of longitudes and latitudes (across the antimeridian when west > east).
 * Their degree ranges, the grid cells that cover them (src/data-contract/grid.ts), and, as SQL, whether a
 * point lies in them.
 */
import { cellToken, cellXY, GRID_LEVELS, morton } from "../data-contract/grid.ts";
import { phrase } from "../match/fts.ts";
import { int, num, raw, sql, type Sql } from "../sql/sql.ts";
import {
  CORNER_REACH_DEGREES,
  distanceSql,
  EARTH_RADIUS_KM,
  HALF_EARTH_KM,
  haversineSql,
  isCircle,
  KM_PER_DEGREE,
  rad,
  type Area,
  type Box,
  type Circle,
} from "../data-contract/distance.ts";

/** The latitudes an area spans, and its longitudes as ranges that do not cross the antimeridian. */
export interface Span {
  south: number;
  north: number;
  lngRanges: [number, number][];
}

/** A box's span: one longitude range, or two across the antimeridian. */
function boxSpan(b: Box): Span {
  const lngRanges: [number, number][] =
    b.west <= b.east
      ? [[b.west, b.east]]
      : [
          [b.west, 180],
          [-180, b.east],
        ];
  return { south: b.south, north: b.north, lngRanges };
}

/** The span of a circle's bounding box, split at the antimeridian; every longitude around a pole. */
function circleSpan(c: Circle): Span {
  const dLat = c.radiusKm / KM_PER_DEGREE;
  const south = Math.max(-90, c.lat - dLat);
  const north = Math.min(90, c.lat + dLat);
  const angular = c.radiusKm / EARTH_RADIUS_KM;
  const cosLat = Math.cos(rad(c.lat));
  if (north >= 90 || south <= -90 || Math.sin(angular) >= cosLat) return { south, north, lngRanges: [[-180, 180]] };
  const dLng = (Math.asin(Math.sin(angular) / cosLat) * 180) / Math.PI;
  const west = c.lng - dLng;
  const east = c.lng + dLng;
  if (west < -180) return boxSpan({ south, north, west: west + 360, east });
  if (east > 180) return boxSpan({ south, north, west, east: east - 360 });
  return { south, north, lngRanges: [[west, east]] };
}

export const spanOf = (area: Area): Span => (isCircle(area) ? circleSpan(area) : boxSpan(area));

/** At most this many cells cover an area (the finest level that keeps to it). */
const MAX_COVER_CELLS = 32;
/**
 * The same for a cover read alone (no text: every record of an area, or its filters' records),
 * whose candidates are every record of its cells: finer cells hold fewer outside the area, and
 * FTS5 merges their lists alone as fast (with a text it merged them with the text's slower:
 * docs/benchmarks.md#rows-read-by-a-box).
 */
const COVER_ALONE_CELLS = 128;

/** The cells of the finest grid level whose cells covering the area's span are at most `most` (the coarsest, whatever their count, else). */
function coverCells(area: Area, most = MAX_COVER_CELLS): { level: number; cells: { x: number; y: number }[] } {
  const span = spanOf(area);
  const levels = [...GRID_LEVELS].reverse();
  for (const [i, level] of levels.entries()) {
    const south = cellXY(level, span.south, 0).y;
    const north = cellXY(level, span.north, 0).y;
    const columns = span.lngRanges.map(([west, east]) => [cellXY(level, 0, west).x, cellXY(level, 0, east).x] as const);
    const count = (north - south + 1) * columns.reduce((sum, [x0, x1]) => sum + x1 - x0 + 1, 0);
    if (count > most && i < levels.length - 1) continue;
    const cells: { x: number; y: number }[] = [];
    for (const [x0, x1] of columns)
      for (let y = south; y <= north; y++) for (let x = x0; x <= x1; x++) cells.push({ x, y });
    return { level, cells };
  }
  return { level: 0, cells: [{ x: 0, y: 0 }] };
}

/**
 * An area this many times smaller than the MAX_COVER_CELLS cells that cover it (a thin strip, whose
 * width alone sets the level) is covered by finer cells, up to THIN_COVER_CELLS: those hold few
 * records each, so FTS5 merges their lists as fast, and the candidates outside the area, which each
 * read a row, go. A strip round the equator: 1,138 candidates of `"_a"*` in 16 cells of level 4, 20
 * in 256 of level 8 (docs/benchmarks.md#thin-strips).
 */
const THIN_RATIO = 8;
const THIN_COVER_CELLS = 256;

/** Square degrees of a span. */
const degreesOf = (span: Span): number =>
  (span.north - span.south) * span.lngRanges.reduce((sum, [west, east]) => sum + east - west, 0);

/** Square degrees of `count` cells of a grid level (2^level × 2^level cells over 360° × 180°). */
const cellsDegrees = (level: number, count: number): number => (count * 360 * 180) / 4 ** level;

/** The cells that cover an area, at most `most` (finer ones, up to THIN_COVER_CELLS, for a thin area). */
function coverOf(area: Area, most: number): { level: number; cells: { x: number; y: number }[] } {
  const cover = coverCells(area, most);
  if (most !== MAX_COVER_CELLS) return cover;
  const thin = cellsDegrees(cover.level, cover.cells.length) > THIN_RATIO * degreesOf(spanOf(area));
  return thin ? coverCells(area, THIN_COVER_CELLS) : cover;
}

/** The tokens of those cells. */
export function coverTokens(area: Area, most = MAX_COVER_CELLS): string[] {
  const { level, cells } = coverOf(area, most);
  return cells.map(({ x, y }) => cellToken(level, morton(x, y, level)));
}

/**
 * Each area's cover texts by their most cells, and whether it covers every cell: a request asks them
 * of its one area for each reading and tier of its text (a suggestion's typo fallback, hundreds of
 * times). Areas are never changed once made.
 */
const covers = new WeakMap<Area, { texts: Map<number, string>; everyCell?: boolean }>();

const coverMemo = (area: Area) => {
  let memo = covers.get(area);
  if (memo === undefined) covers.set(area, (memo = { texts: new Map() }));
  return memo;
};

/** FTS5 text that matches the records in the cells that cover an area: any of their tokens. */
export function coverText(area: Area, most = MAX_COVER_CELLS): string {
  const { texts } = coverMemo(area);
  let text = texts.get(most);
  if (text === undefined) texts.set(most, (text = `(${coverTokens(area, most).map(phrase).join(" OR ")})`));
  return text;
}

/** Whether the cells that cover an area are every cell of the grid: the world's. */
function coversEveryCell(area: Area): boolean {
  const memo = coverMemo(area);
  if (memo.everyCell === undefined) {
    const { level, cells } = coverCells(area);
    memo.everyCell = new Set(cells.map(({ x, y }) => morton(x, y, level))).size === 4 ** level;
  }
  return memo.everyCell;
}

/**
 * coverText where it narrows the records; null where it keeps every one: its cells are every cell
 * of the grid and every record has a place, so that its document holds one of them (`everyPlaced`:
 * every city; not the venues, some of which have none). FTS5 then does not merge the lists of the
 * grid's 16 cells with the text's, each as long as the index (docs/benchmarks.md#the-worlds-box).
 */
export function narrowingCover(area: Area, everyPlaced: boolean): string | null {
  return everyPlaced && coversEveryCell(area) ? null : coverText(area);
}

/** FTS5 text of `text`'s records in the cells that cover an area (every record's for null). */
export function inCover(text: string | null, area: Area, everyPlaced: boolean): string {
  if (text === null) return coverText(area, COVER_ALONE_CELLS);
  const cover = narrowingCover(area, everyPlaced);
  return cover === null ? `(${text})` : `(${text}) AND ${cover}`;
}

/** inCover within filters (an SQL expression of FTS5 text, or null), as one SQL expression. */
export function inCoverSql(text: string | null, area: Area, everyPlaced: boolean, filters: Sql | null): Sql {
  const own = inCover(text, area, everyPlaced);
  return filters === null ? sql`${own}` : sql`${`${own} AND (`} || ${filters} || ')'`;
}

/** Whether a longitude (an SQL expression) lies in a box's longitudes. */
function lngInBox(b: Box, lng: Sql): Sql {
  return b.west <= b.east
    ? sql`${lng} BETWEEN ${num(b.west, "west")} AND ${num(b.east, "east")}`
    : sql`(${lng} >= ${num(b.west, "west")} OR ${lng} <= ${num(b.east, "east")})`;
}

/** Whether a point (SQL expressions) lies in an area: the circle's radius, or the box's edges, inclusive. */
export function inAreaSql(area: Area, lat: Sql, lng: Sql): Sql {
  if (isCircle(area)) return sql`${distanceSql(area, lat, lng)} <= ${num(area.radiusKm, "km")}`;
  return sql`(${lat} BETWEEN ${num(area.south, "south")} AND ${num(area.north, "north")} AND ${lngInBox(area, lng)})`;
}

/**
 * A box of degrees as SQL expressions (never across the antimeridian): a cell, or the records of
 * one. A grid cell (`cell`) holds the points of [west, east) × [south, north) (grid.ts cellXY; its
 * last column's and row's points at 180° and 90° too), so one whose east side is a box's west side,
 * or whose north side is its south side, holds none of the box's points; the records' own box
 * (`cell_counts`) holds points on its sides.
 */
export interface SqlBox {
  south: Sql;
  north: Sql;
  west: Sql;
  east: Sql;
  cell?: true;
}

/** The degrees of the grid cell at column x, row y of a level (SQL expressions; src/data-contract/grid.ts). */
export function cellBoxSql(level: Sql, x: Sql, y: Sql): SqlBox {
  const n = sql`(1 << ${level})`;
  return {
    west: sql`(${x} * 360.0 / ${n} - 180)`,
    east: sql`((${x} + 1) * 360.0 / ${n} - 180)`,
    south: sql`(${y} * 180.0 / ${n} - 90)`,
    north: sql`((${y} + 1) * 180.0 / ${n} - 90)`,
    cell: true,
  };
}

/** Whether such a box lies wholly inside a box. */
export function boxInsideBox(inner: SqlBox, b: Box): Sql {
  const lng =
    b.west <= b.east
      ? sql`${inner.west} >= ${num(b.west, "west")} AND ${inner.east} <= ${num(b.east, "east")}`
      : sql`(${inner.west} >= ${num(b.west, "west")} OR ${inner.east} <= ${num(b.east, "east")})`;
  return sql`(${inner.south} >= ${num(b.south, "south")} AND ${inner.north} <= ${num(b.north, "north")} AND ${lng})`;
}

/** Whether such a box lies wholly outside a box (SqlBox: a cell touching its west or south side does). */
export function boxOutsideBox(inner: SqlBox, b: Box): Sql {
  const [west, south] = [num(b.west, "west"), num(b.south, "south")];
  const beforeWest =
    inner.cell === true ? sql`(${inner.east} <= ${west} AND ${inner.east} < 180)` : sql`${inner.east} < ${west}`;
  const belowSouth =
    inner.cell === true ? sql`(${inner.north} <= ${south} AND ${inner.north} < 90)` : sql`${inner.north} < ${south}`;
  const lng =
    b.west <= b.east
      ? sql`(${beforeWest} OR ${inner.west} > ${num(b.east, "east")})`
      : sql`(${inner.west} > ${num(b.east, "east")} AND ${beforeWest})`;
  return sql`(${belowSouth} OR ${inner.south} > ${num(b.north, "north")} OR ${lng})`;
}

/** Kilometres from a circle's centre to the centre of such a box. */
export const boxCentreDistance = (c: Circle, b: SqlBox): Sql =>
  distanceSql(c, sql`((${b.south} + ${b.north}) / 2)`, sql`((${b.west} + ${b.east}) / 2)`);

/**
 * Kilometres from the centre of such a box to its farthest point (boxReachKm): a corner on the side
 * nearer the equator (the south side when the centre is north of it or on it), since the two
 * corners' distances differ only in the cosine of their latitudes — one distance, not the greater
 * of two; half the globe for a box wider than CORNER_REACH_DEGREES.
 */
export function boxReachSql(b: SqlBox): Sql {
  const lat = sql`((${b.south} + ${b.north}) / 2)`;
  const lng = sql`((${b.west} + ${b.east}) / 2)`;
  return sql`CASE WHEN ${b.east} - ${b.west} > ${int(CORNER_REACH_DEGREES)} THEN ${raw(String(HALF_EARTH_KM))}
    WHEN ${b.south} + ${b.north} >= 0 THEN ${haversineSql(lat, lng, b.south, b.west)} ELSE ${haversineSql(lat, lng, b.north, b.west)} END`;
}
