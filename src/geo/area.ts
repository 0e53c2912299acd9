/**
 * The two areas a search can keep its records in (docs/api.md#near-a-point, #inside-a-box): a circle
 * around a point, or a box of longitudes and latitudes (across the antimeridian when west > east).
 * Their degree ranges, the grid cells that cover them (src/format/grid.ts), and, as SQL, whether a
 * point lies in them.
 */
import { cellToken, cellXY, GRID_LEVELS, morton } from "../format/grid.ts";
import { num, raw, sql, type Sql } from "../sql/sql.ts";
import { distanceSql, EARTH_RADIUS_KM, KM_PER_DEGREE, rad, type Circle } from "./distance.ts";

/** Degrees; west > east when the box crosses the antimeridian. Edges are inside. */
export interface Box {
  west: number;
  south: number;
  east: number;
  north: number;
}

export type Area = Circle | Box;

export const isCircle = (area: Area): area is Circle => "radiusKm" in area;

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

/** The cell tokens of the finest grid level whose cells covering the area's span are few. */
export function coverTokens(area: Area): string[] {
  const span = spanOf(area);
  const levels = [...GRID_LEVELS].reverse();
  for (const [i, level] of levels.entries()) {
    const south = cellXY(level, span.south, 0).y;
    const north = cellXY(level, span.north, 0).y;
    const columns = span.lngRanges.map(([west, east]) => [cellXY(level, 0, west).x, cellXY(level, 0, east).x] as const);
    const count = (north - south + 1) * columns.reduce((sum, [x0, x1]) => sum + x1 - x0 + 1, 0);
    // The coarsest level, whatever its count (a polar circle of 500 km).
    if (count > MAX_COVER_CELLS && i < levels.length - 1) continue;
    const tokens: string[] = [];
    for (const [x0, x1] of columns) {
      for (let y = south; y <= north; y++)
        for (let x = x0; x <= x1; x++) tokens.push(cellToken(level, morton(x, y, level)));
    }
    return tokens;
  }
  return [];
}

/** Whether a longitude (an SQL expression) lies in a box's longitudes. */
function lngInBox(b: Box, lng: Sql): Sql {
  return b.west <= b.east
    ? sql`${lng} BETWEEN ${num(b.west)} AND ${num(b.east)}`
    : sql`(${lng} >= ${num(b.west)} OR ${lng} <= ${num(b.east)})`;
}

/** Whether a point (SQL expressions) lies in an area: the circle's radius, or the box's edges, inclusive. */
export function inAreaSql(area: Area, lat: Sql, lng: Sql): Sql {
  if (isCircle(area)) return sql`${distanceSql(area, lat, lng)} <= ${num(area.radiusKm)}`;
  return sql`(${lat} BETWEEN ${num(area.south)} AND ${num(area.north)} AND ${lngInBox(area, lng)})`;
}

/**
 * Whether a box of records (columns south, north, west, east of cell_counts, never across the
 * antimeridian) lies wholly inside a box, or wholly outside it.
 */
export function boxInsideBox(b: Box): Sql {
  const lng =
    b.west <= b.east
      ? sql`west >= ${num(b.west)} AND east <= ${num(b.east)}`
      : sql`(west >= ${num(b.west)} OR east <= ${num(b.east)})`;
  return sql`(south >= ${num(b.south)} AND north <= ${num(b.north)} AND ${lng})`;
}

export function boxOutsideBox(b: Box): Sql {
  const lng =
    b.west <= b.east
      ? sql`(east < ${num(b.west)} OR west > ${num(b.east)})`
      : sql`(west > ${num(b.east)} AND east < ${num(b.west)})`;
  return sql`(north < ${num(b.south)} OR south > ${num(b.north)} OR ${lng})`;
}

/** Kilometres from a circle's centre to the centre of a box of records (columns of cell_counts). */
export const boxCentreDistance = (c: Circle): Sql =>
  distanceSql(c, raw("((south + north) / 2)"), raw("((west + east) / 2)"));
