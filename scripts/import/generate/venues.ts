/**
 * The deterministic venue generator. There is no open venue data set, so the default data
 * has generated venues on the real GeoNames cities: same seed and cities, same rows.
 *
 * - Counts follow population (bigger cities get more venues, sub-linearly). A section of a city
 *   (GeoNames PPLX: Kreuzberg, Köpenick) gets none of its own: its people are counted in its
 *   city's population already (Berlin's 3.4 million are the whole state's).
 * - Names come from the city's language patterns (venue-vocabulary.ts); no two alike (after
 *   normalization) in one city.
 * - Ids are 8 hex digits, unique (a keyed permutation of the venue's number); URLs are
 *   setlist.fm-style (slug.ts).
 * - Each venue has a point of its own near its city's, within the city's reach, so that searches
 *   near a point and on a map see venues spread over a city, not piled on its centre; and the city
 *   it is in is the one a person would name for that point, by the rule that places real venues
 *   (phases/place-rule.ts): a town's venues within a bigger city's reach are that city's. A small
 *   share of venues has no city (and no point), as festival sites in the open country do.
 */
import { normalize } from "../../../src/data-contract/normalize.ts";
import { pick, random, type Rng } from "../../tools/random.ts";
import type { Country } from "../sources/geonames.ts";
import { venueUrl } from "./slug.ts";
import { VenueIds } from "./ids.ts";
import { romanized } from "./romanize.ts";
import { venueNames } from "../sources/venue-names.ts";
import { kindFromName, type VenueInput } from "../sources/venue-input.ts";
import { CITYLESS, ENGLISH, vocabularyFor } from "./vocabulary.ts";
import type { Vocabulary } from "./vocabulary-languages.ts";
import { KM_PER_DEGREE } from "../../../src/data-contract/distance.ts";
import { placeOfPoint, reachKm } from "../phases/place-rule.ts";
import { venueCounts } from "./counts.ts";

export interface GeneratorCity {
  id: string;
  name: string;
  countryCode: string;
  countryName: string;
  admin1Code: string | null;
  population: number;
  /** First language of the city's country (GeoNames countryInfo), e.g. `de`. */
  language: string | undefined;
  lat: number;
  lng: number;
  /** A section of a city (GeoNames PPLX): no venues of its own, and never a venue's city. */
  section: boolean;
}

/** Where the generator puts a point: the city a person would name there, or null (none near). */
export type CityAt = (lat: number, lng: number) => GeneratorCity | null;

/** A generated venue, in the shape of a row read from a venue file. */
export type GeneratedVenue = VenueInput & { url: string };

/**
 * A generated venue: a name in Cyrillic or Japanese script also in Latin letters, as real sources
 * give them, shown by the same rule as a real venue's (sources/venue-names.ts).
 */
function generatedVenue(id: string, local: string, cityId: string | null, point: Point | null) {
  const latin = romanized(local);
  const names = venueNames({
    name: local,
    byLanguage: new Map(),
    international: latin === null ? [] : [latin],
    others: [],
  });
  return {
    id,
    ...names,
    cityId,
    lat: point?.lat ?? null,
    lng: point?.lng ?? null,
    kind: kindFromName(local),
    cityHints: [],
    countryHint: null,
    source: "generated" as const,
    file: "generator",
    at: 0,
  };
}

export interface GeneratorOptions {
  count: number;
  seed: string;
}

/** The generator's view of a city: with its country's name and first language. */
export function generatorCity(
  city: {
    id: string;
    name: string;
    countryCode: string;
    admin1Code: string | null;
    population: number;
    lat: number;
    lng: number;
    section: boolean;
  },
  countries: ReadonlyMap<string, Country>,
): GeneratorCity {
  const country = countries.get(city.countryCode);
  return {
    id: city.id,
    name: city.name,
    countryCode: city.countryCode,
    countryName: country?.name ?? city.countryCode,
    admin1Code: city.admin1Code,
    population: city.population,
    language: country?.languages[0],
    lat: city.lat,
    lng: city.lng,
    section: city.section,
  };
}

/** Share of venues without a city. */
const CITYLESS_SHARE = 0.002;
/** Venue count grows with population to this power: big cities get more, not all. */
const POPULATION_EXPONENT = 0.75;

/** How many of `total` venues have no city. */
export function citylessCount(total: number): number {
  return Math.round(total * CITYLESS_SHARE);
}

/** The generated venues, in memory (tests; the import streams the same ones: phases/venue-rows.ts). */
export function generateVenues(cities: readonly GeneratorCity[], options: GeneratorOptions): GeneratedVenue[] {
  const ordered = [...cities].sort((a, b) => Number(a.id) - Number(b.id));
  const ids = new VenueIds(options.seed);
  const counts = venueCounts(ordered.map(venueWeight), options.count - citylessCount(options.count));
  // Every city is a candidate of every point: a scan, fine for the few cities of a test.
  const cityAt: CityAt = (lat, lng) => placeOfPoint(ordered, lat, lng) ?? null;
  const venues: GeneratedVenue[] = [];
  let first = 0;
  ordered.forEach((city, i) => {
    venues.push(...cityVenues(city, counts[i] ?? 0, { seed: options.seed, ids, first, cityAt }));
    first += counts[i] ?? 0;
  });
  venues.push(...citylessVenues(citylessCount(options.count), { seed: options.seed, ids, first }));
  return venues;
}

/** A city's share of the venues: population^EXPONENT; none for a section of a city. */
export const venueWeight = (city: { population: number; section: boolean }): number =>
  city.section ? 0 : Math.pow(Math.max(city.population, 0) + 100, POPULATION_EXPONENT);

/** Where a city's venues take their ids: numbers `first` (the venues of the cities before it, by geonameid) on. */
export interface Numbering {
  seed: string;
  ids: VenueIds;
  first: number;
}

/**
 * A city's `count` venues: names from its language's patterns, distinct within the city; each at a
 * point within its reach, in the city `cityAt` finds there (this one, or a bigger one around it).
 */
export function* cityVenues(
  city: GeneratorCity,
  count: number,
  { seed, ids, first, cityAt }: Numbering & { cityAt: CityAt },
): Generator<GeneratedVenue> {
  const points = venuePoints(city, count, seed);
  for (const [i, name] of cityVenueNames(city, count, seed).entries()) {
    const point = points[i] ?? { lat: city.lat, lng: city.lng };
    yield placedVenue(ids.at(first + i), name, point, cityAt(point.lat, point.lng));
  }
}

/** A city's `count` venue names: from its language's patterns, distinct within the city. */
export function cityVenueNames(city: GeneratorCity, count: number, seed: string): string[] {
  const rng = random(`${seed}:city:${city.id}`);
  const local = vocabularyFor(city.language);
  return uniqueNames(rng, count, (r) => fill(local !== null && r() < local.localShare ? local : ENGLISH, r, city.name));
}

/** The points of a city's venues, from a stream of their own (the names stay what they were before venues had points). */
export function venuePoints(city: GeneratorCity, count: number, seed: string): Point[] {
  const placeRng = random(`${seed}:place:${city.id}`);
  return Array.from({ length: count }, () => pointNear(city, placeRng));
}

/** A generated venue at its point, in the city it was placed in (null: none), with its URL. */
export function placedVenue(id: string, name: string, point: Point, placed: GeneratorCity | null): GeneratedVenue {
  const venue = generatedVenue(id, name, placed?.id ?? null, point);
  return { ...venue, url: venueUrl({ id, name: venue.name }, placed) };
}

export interface Point {
  lat: number;
  lng: number;
}

/** How far from its city's centre a generated venue may be: a little less than the city's reach, km. */
export const spreadKm = (population: number): number => 0.7 * reachKm(population);

/** A point spread evenly over a disc of spreadKm around the city; 5 decimals (1 m). */
function pointNear(city: GeneratorCity, rng: Rng): Point {
  const km = spreadKm(city.population) * Math.sqrt(rng());
  const angle = 2 * Math.PI * rng();
  const lat = Math.max(-90, Math.min(90, city.lat + (km * Math.cos(angle)) / KM_PER_DEGREE));
  const cos = Math.max(Math.cos((city.lat * Math.PI) / 180), 0.01);
  let lng = city.lng + (km * Math.sin(angle)) / (KM_PER_DEGREE * cos);
  if (lng > 180) lng -= 360;
  if (lng < -180) lng += 360;
  const round = (x: number) => Math.round(x * 1e5) / 1e5 + 0;
  return { lat: round(lat), lng: round(lng) };
}

/** Venues without a city (festival sites in the open country). */
export function* citylessVenues(count: number, { seed, ids, first }: Numbering): Generator<GeneratedVenue> {
  const rng = random(`${seed}:cityless`);
  for (const [i, name] of uniqueNames(rng, count, (r) => fill(CITYLESS, r, "")).entries()) {
    const id = ids.at(first + i);
    const venue = generatedVenue(id, name, null, null);
    yield { ...venue, url: venueUrl({ id, name: venue.name }, null) };
  }
}

/** `n` names from `make`, distinct after normalization; numbered when the patterns run out. */
function uniqueNames(rng: Rng, n: number, make: (rng: Rng) => string): string[] {
  const seen = new Set<string>();
  const names: string[] = [];
  while (names.length < n) {
    let name = make(rng);
    let key = normalize(name);
    for (let attempt = 0; seen.has(key) && attempt < 40; attempt++) key = normalize((name = make(rng)));
    for (let k = 2; seen.has(key); k++) key = normalize((name = `${make(rng)} ${k}`));
    seen.add(key);
    names.push(name);
  }
  return names;
}

function fill(vocabulary: Vocabulary, rng: Rng, city: string): string {
  const pattern = pick(rng, vocabulary.patterns);
  const used = new Set<string>();
  return pattern.replace(/\{(\w+)\}/g, (_, key: string) => {
    if (key === "city") return city;
    const list = vocabulary.lists[key] ?? ENGLISH.lists[key] ?? [];
    let word = pick(rng, list);
    if (used.has(word)) word = pick(rng, list); // "The Fox & Fox" only rarely
    used.add(word);
    return word;
  });
}
