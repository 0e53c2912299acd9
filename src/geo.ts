/**
 * Near a point (SPEC §10.2): distances by the haversine formula, and the grid cells that cover a
 * circle (tokens.ts), so a search reads only the records of a few cells and then keeps those
 * within the radius. Pure.
 */
import { raw, sql, type Sql } from "./queries/sql.ts";
import { GEO_LEVELS, geoCell, geoToken } from "./tokens.ts";

/** The mean Earth radius (IUGG), km. */
export const EARTH_RADIUS_KM = 6371.0088;
const KM_PER_DEGREE = (Math.PI * EARTH_RADIUS_KM) / 180;

export interface Circle {
  lat: number;
  lng: number;
  radiusKm: number;
}

const rad = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance in km (the same formula as distanceSql). */
export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const a =
    Math.sin(rad(lat2 - lat1) / 2) ** 2 +
    Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lng2 - lng1) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** The same distance as an SQL expression (SQLite's math functions) from the centre to columns. */
export function distanceSql(c: Circle, lat: Sql, lng: Sql): Sql {
  return sql`2 * ${raw(String(EARTH_RADIUS_KM))} * asin(min(1, sqrt(pow(sin(radians(${lat} - ${c.lat}) / 2), 2) + cos(radians(${c.lat})) * cos(radians(${lat})) * pow(sin(radians(${lng} - ${c.lng}) / 2), 2))))`;
}

/** Longitude intervals (each within [-180, 180]) and the latitude interval a circle lies in. */
export function boundingBox(c: Circle): { minLat: number; maxLat: number; lngRanges: [number, number][] } {
  const dLat = c.radiusKm / KM_PER_DEGREE;
  const minLat = Math.max(-90, c.lat - dLat);
  const maxLat = Math.min(90, c.lat + dLat);
  const angular = c.radiusKm / EARTH_RADIUS_KM;
  const cosLat = Math.cos(rad(c.lat));
  // A circle around a pole, or wider than its parallel, spans every longitude.
  if (maxLat >= 90 || minLat <= -90 || Math.sin(angular) >= cosLat) return { minLat, maxLat, lngRanges: [[-180, 180]] };
  const dLng = (Math.asin(Math.sin(angular) / cosLat) * 180) / Math.PI;
  const west = c.lng - dLng;
  const east = c.lng + dLng;
  if (west < -180)
    return {
      minLat,
      maxLat,
      lngRanges: [
        [west + 360, 180],
        [-180, east],
      ],
    };
  if (east > 180)
    return {
      minLat,
      maxLat,
      lngRanges: [
        [west, 180],
        [-180, east - 360],
      ],
    };
  return { minLat, maxLat, lngRanges: [[west, east]] };
}

/** At most this many cells cover a circle (the finest level that stays within it). */
const MAX_CELLS = 32;

/** The cell tokens of the finest grid level whose cells covering the circle's box are few. */
export function coveringTokens(c: Circle): string[] {
  const box = boundingBox(c);
  let tokens: string[] = [];
  for (const level of [...GEO_LEVELS].reverse()) {
    tokens = [];
    const south = geoCell(level, box.minLat, 0).y;
    const north = geoCell(level, box.maxLat, 0).y;
    for (const [west, east] of box.lngRanges) {
      const x0 = geoCell(level, 0, west).x;
      const x1 = geoCell(level, 0, east).x;
      for (let y = south; y <= north; y++) for (let x = x0; x <= x1; x++) tokens.push(geoToken(level, x, y));
    }
    if (tokens.length <= MAX_CELLS) return tokens;
  }
  return tokens; // the coarsest level, whatever its count (a polar circle of 500 km)
}
