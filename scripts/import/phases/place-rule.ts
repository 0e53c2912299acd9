/**
 * Rule 2 of placing a venue (docs/import.md#real-venues), by its point alone: the city a person
 * would name for a point is the largest peopled place whose reach covers it — so the Royal Albert
 * Hall is in London, not Kensington, and Berghain in Berlin, not Friedrichshain — else the nearest
 * place that is not a section of a city. Pure: real venues (place-venues.ts) and generated ones
 * (generate/venues.ts) are placed by these same functions.
 */
import { haversineKm } from "../../../src/data-contract/distance.ts";

/** Places farther than this from a venue's point are never its city. */
export const REACH_KM = 30;

/** How far from its centre a place of this population is still "in" it, km. */
export const reachKm = (population: number): number => 1 + 7 * Math.sqrt(population / 1e6);

/** A place a venue may be in: what the rule weighs. */
export interface Place {
  lat: number;
  lng: number;
  population: number;
  /** A section of a city (GeoNames PPLX): never a venue's city by its point. */
  section: boolean;
}

export const peopled = (p: Place): boolean => !p.section && p.population > 0;

/**
 * The largest peopled place within REACH_KM whose reach covers the point (the nearer of two as
 * large). Places that do not count may be among `places`. One pass and no arrays: the generator
 * asks this for each of millions of venues.
 */
export function largestCovering<P extends Place>(places: readonly P[], lat: number, lng: number): P | undefined {
  let best: P | undefined;
  let bestKm = Infinity;
  for (const p of places) {
    if (!peopled(p)) continue;
    const km = haversineKm(lat, lng, p.lat, p.lng);
    if (km > REACH_KM || km > reachKm(p.population)) continue;
    if (best === undefined || p.population > best.population || (p.population === best.population && km < bestKm)) {
      best = p;
      bestKm = km;
    }
  }
  return best;
}

/** The nearest place within REACH_KM that is not a section (the larger of two as near: a peopled one first). */
export function nearestPlace<P extends Place>(places: readonly P[], lat: number, lng: number): P | undefined {
  let best: P | undefined;
  let bestKm = Infinity;
  for (const p of places) {
    if (p.section) continue;
    const km = haversineKm(lat, lng, p.lat, p.lng);
    if (km > REACH_KM || km > bestKm) continue;
    if (best !== undefined && km === bestKm && best.population >= p.population) continue;
    best = p;
    bestKm = km;
  }
  return best;
}

/** Rule 2: the city of a point among `places` (every place within REACH_KM of it, and maybe more). */
export const placeOfPoint = <P extends Place>(places: readonly P[], lat: number, lng: number): P | undefined =>
  largestCovering(places, lat, lng) ?? nearestPlace(places, lat, lng);
