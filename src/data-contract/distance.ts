/**
 * Areas and distances on the sphere (docs/api.md#near-a-point, #inside-a-box): circles and boxes, the
 * haversine formula in JS and, the same formula, as an SQL expression over columns. Pure; the import
 * stores reaches computed with it.
 */
import { num, raw, sql, type Sql } from "../sql/sql.ts";

/** The mean Earth radius (IUGG), km. */
export const EARTH_RADIUS_KM = 6371.0088;
export const KM_PER_DEGREE = (Math.PI * EARTH_RADIUS_KM) / 180;

export interface Circle {
  lat: number;
  lng: number;
  radiusKm: number;
}

/** Degrees; west > east when the box crosses the antimeridian. Edges are inside. */
export interface Box {
  west: number;
  south: number;
  east: number;
  north: number;
}

/** The two areas a search can keep its records in (docs/api.md#near-a-point, #inside-a-box). */
export type Area = Circle | Box;

export const isCircle = (area: Area): area is Circle => "radiusKm" in area;

export const rad = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance in km (the same formula as distanceSql). */
export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const a =
    Math.sin(rad(lat2 - lat1) / 2) ** 2 +
    Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lng2 - lng1) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Half the globe's circumference: no two points lie further apart. */
export const HALF_EARTH_KM = Math.PI * EARTH_RADIUS_KM;

/**
 * Longitudes a box may span for its farthest point from its centre to be a corner (area.ts
 * boxReachSql in SQL): along a meridian less than 90° from the centre's the distance has no
 * maximum between the ends, and along a parallel it grows with the longitudes between. A wider box
 * (the records of the whole world) holds points near its centre's antipode: it reaches
 * HALF_EARTH_KM.
 */
export const CORNER_REACH_DEGREES = 180;

/** km from the centre of a box of degrees to its farthest point. */
export function boxReachKm(b: { south: number; north: number; west: number; east: number }): number {
  if (b.east - b.west > CORNER_REACH_DEGREES) return HALF_EARTH_KM;
  const lat = (b.south + b.north) / 2;
  const lng = (b.west + b.east) / 2;
  return Math.max(haversineKm(lat, lng, b.south, b.west), haversineKm(lat, lng, b.north, b.west));
}

/** The same distance as an SQL expression (SQLite's math functions) between two points (SQL expressions). */
export function haversineSql(lat1: Sql, lng1: Sql, lat2: Sql, lng2: Sql): Sql {
  return sql`2 * ${raw(String(EARTH_RADIUS_KM))} * asin(min(1, sqrt(pow(sin(radians(${lat2} - ${lat1}) / 2), 2) + cos(radians(${lat1})) * cos(radians(${lat2})) * pow(sin(radians(${lng2} - ${lng1}) / 2), 2))))`;
}

/** The distance from a circle's centre to a point (SQL expressions). */
export const distanceSql = (c: Circle, lat: Sql, lng: Sql): Sql =>
  haversineSql(num(c.lat, "lat"), num(c.lng, "lng"), lat, lng);
