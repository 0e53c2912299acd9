/**
 * Boxes for Overpass: a place's box, and an area too large for the server cut into quarters, each
 * fetched on its own (and cut again while the server refuses it). Pure.
 */
import { KM_PER_DEGREE } from "../../../src/data-contract/distance.ts";
import { lngSpan } from "../../import/phases/place-tiles.ts";
import type { Box } from "./query.ts";

/** Degrees of longitude from west to east, crossing the antimeridian when west > east. */
export const boxWidth = (b: Box): number => (b.east >= b.west ? b.east - b.west : b.east + 360 - b.west);

const wrap = (lng: number) => (lng > 180 ? lng - 360 : lng);

/** The four quarters of a box (south-west, south-east, north-west, north-east). */
export function quarters(b: Box): Box[] {
  const midLat = (b.south + b.north) / 2;
  const midLng = wrap(b.west + boxWidth(b) / 2);
  return [
    { south: b.south, west: b.west, north: midLat, east: midLng },
    { south: b.south, west: midLng, north: midLat, east: b.east },
    { south: midLat, west: b.west, north: b.north, east: midLng },
    { south: midLat, west: midLng, north: b.north, east: b.east },
  ];
}

/** The box within `km` of a point (clamped at the poles; the whole width near them). */
export function boxAround(lat: number, lng: number, km: number): Box {
  const dLat = km / KM_PER_DEGREE;
  const dLng = lngSpan(lat, km);
  if (dLng >= 180) return { south: Math.max(-90, lat - dLat), west: -180, north: Math.min(90, lat + dLat), east: 180 };
  const west = lng - dLng;
  return {
    south: Math.max(-90, lat - dLat),
    west: west < -180 ? west + 360 : west,
    north: Math.min(90, lat + dLat),
    east: wrap(lng + dLng),
  };
}

/** Whether a point lies in a box (edges inside). */
export function inBox(b: Box, lat: number, lng: number): boolean {
  if (lat < b.south || lat > b.north) return false;
  return b.east >= b.west ? lng >= b.west && lng <= b.east : lng >= b.west || lng <= b.east;
}
