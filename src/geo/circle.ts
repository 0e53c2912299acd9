/**
 * A circle around a point as grid cells (src/format/tokens.ts): as a few cell tokens that cover it
 * (FTS5 intersects them with a name or filters), or as ranges of the Z-order curve, those wholly
 * inside it (counted from stored running totals, without reading their cities) apart from those on
 * its edge (whose cities are measured). Pure.
 */
import { GEO_LEVELS, geoCell, geoToken, Z_LEVEL, zRange } from "../format/tokens.ts";
import { EARTH_RADIUS_KM, haversineKm, KM_PER_DEGREE, rad, type Circle } from "./distance.ts";

/** Longitude intervals (each within [-180, 180]) and the latitude interval a circle lies in. */
function boundingBox(c: Circle): { minLat: number; maxLat: number; lngRanges: [number, number][] } {
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
export function circleTokens(c: Circle): string[] {
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

/** Ranges [lo, hi) of the Z-order curve (tokens.ts zCode): cells wholly inside a circle, and cells on its edge. */
export interface CircleCells {
  inside: [number, number][];
  edge: [number, number][];
}

/** The level the decomposition starts from (cells of 45° × 22.5°). */
const START_LEVEL = 3;
/** Cells on the edge are about radius ÷ EDGE_DIVISIONS high: finer means more ranges, fewer cities measured. */
const EDGE_DIVISIONS = 8;
/** Lengths are compared with this much room, so that rounding cannot put a cell on the wrong side. */
const SLACK_KM = 1e-6;

/** The level of the edge cells of a circle of `radiusKm`. */
function edgeLevel(radiusKm: number): number {
  const wanted = Math.ceil(Math.log2((EDGE_DIVISIONS * Math.PI * EARTH_RADIUS_KM) / Math.max(radiusKm, 1e-3)));
  return Math.min(Z_LEVEL, Math.max(START_LEVEL + 1, wanted));
}

/**
 * A circle as Z-order ranges: quadtree cells from START_LEVEL down, each wholly inside (kept),
 * wholly outside (dropped), or on the edge (divided, down to edgeLevel()). A cell is judged by the
 * distance from the circle's centre to the cell's centre, give or take the distance from the
 * cell's centre to its farthest corner (no point of a lat/long cell of at most 22.5° is farther).
 */
export function circleCells(c: Circle, finest = edgeLevel(c.radiusKm)): CircleCells {
  const inside: [number, number][] = [];
  const edge: [number, number][] = [];
  const visit = (level: number, x: number, y: number): void => {
    const n = 2 ** level;
    const west = (x / n) * 360 - 180;
    const east = ((x + 1) / n) * 360 - 180;
    const south = (y / n) * 180 - 90;
    const north = ((y + 1) / n) * 180 - 90;
    const midLat = (south + north) / 2;
    const midLng = (west + east) / 2;
    const reach = Math.max(
      haversineKm(midLat, midLng, south, west),
      haversineKm(midLat, midLng, south, east),
      haversineKm(midLat, midLng, north, west),
      haversineKm(midLat, midLng, north, east),
    );
    const d = haversineKm(c.lat, c.lng, midLat, midLng);
    if (d - reach > c.radiusKm + SLACK_KM) return;
    if (d + reach < c.radiusKm - SLACK_KM) {
      inside.push(zRange(level, x, y));
      return;
    }
    if (level >= finest) {
      edge.push(zRange(level, x, y));
      return;
    }
    for (const [dx, dy] of [
      [0, 0],
      [1, 0],
      [0, 1],
      [1, 1],
    ] as const) {
      visit(level + 1, 2 * x + dx, 2 * y + dy);
    }
  };
  const box = boundingBox(c);
  const south = geoCell(START_LEVEL, box.minLat, 0).y;
  const north = geoCell(START_LEVEL, box.maxLat, 0).y;
  for (const [west, east] of box.lngRanges) {
    const x0 = geoCell(START_LEVEL, 0, west).x;
    const x1 = geoCell(START_LEVEL, 0, east).x;
    for (let y = south; y <= north; y++) for (let x = x0; x <= x1; x++) visit(START_LEVEL, x, y);
  }
  return { inside: merged(inside), edge: merged(edge) };
}

/** Ranges sorted, neighbours joined. */
function merged(ranges: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const [lo, hi] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1];
    if (last !== undefined && last[1] === lo) last[1] = hi;
    else out.push([lo, hi]);
  }
  return out;
}
