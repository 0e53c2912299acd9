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

/**
 * How the rule reads a place `R`: the fields of an object (PLACE_FIELDS), or a sweep's columns by
 * a place's number (place-sweep.ts), which holds millions of places without an object for each.
 */
export interface PlaceReader<R> {
  lat(place: R): number;
  lng(place: R): number;
  population(place: R): number;
  section(place: R): boolean;
}

const PLACE_FIELDS: PlaceReader<Place> = {
  lat: (p) => p.lat,
  lng: (p) => p.lng,
  population: (p) => p.population,
  section: (p) => p.section,
};

/** Whether a place is peopled (not a section, population above 0): what may have a reach. */
export const isPeopled = <R>(place: R, read: PlaceReader<R>): boolean =>
  !read.section(place) && read.population(place) > 0;

export const peopled = (p: Place): boolean => isPeopled(p, PLACE_FIELDS);

/**
 * The largest peopled place within REACH_KM whose reach covers the point (the nearer of two as
 * large). Places that do not count may be among `places`. One pass and no arrays: the generator
 * asks this for each of millions of venues.
 */
export function largestCovering<R>(
  places: readonly R[],
  read: PlaceReader<R>,
  lat: number,
  lng: number,
): R | undefined {
  let best: R | undefined;
  let bestKm = Infinity;
  let bestPopulation = -1;
  for (const p of places) {
    if (!isPeopled(p, read)) continue;
    const population = read.population(p);
    const km = haversineKm(lat, lng, read.lat(p), read.lng(p));
    if (km > REACH_KM || km > reachKm(population)) continue;
    if (best === undefined || population > bestPopulation || (population === bestPopulation && km < bestKm)) {
      best = p;
      bestKm = km;
      bestPopulation = population;
    }
  }
  return best;
}

/** The nearest place within REACH_KM that is not a section (the larger of two as near: a peopled one first). */
export function nearestPlace<R>(places: readonly R[], read: PlaceReader<R>, lat: number, lng: number): R | undefined {
  let best: R | undefined;
  let bestKm = Infinity;
  let bestPopulation = -1;
  for (const p of places) {
    if (read.section(p)) continue;
    const km = haversineKm(lat, lng, read.lat(p), read.lng(p));
    if (km > REACH_KM || km > bestKm) continue;
    const population = read.population(p);
    if (best !== undefined && km === bestKm && bestPopulation >= population) continue;
    best = p;
    bestKm = km;
    bestPopulation = population;
  }
  return best;
}

/** Rule 2: the city of a point among `places` (every place within REACH_KM of it, and maybe more). */
export const placeOfPoint = <P extends Place>(places: readonly P[], lat: number, lng: number): P | undefined =>
  largestCovering<P>(places, PLACE_FIELDS, lat, lng) ?? nearestPlace<P>(places, PLACE_FIELDS, lat, lng);
