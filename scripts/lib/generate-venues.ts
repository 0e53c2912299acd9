/**
 * The deterministic venue generator. There is no open venue data set, so the default data
 * has generated venues on the real GeoNames cities: same seed and cities, same rows.
 *
 * - Counts follow population (bigger cities get more venues, sub-linearly).
 * - Names come from the city's language patterns (venue-vocabulary.ts); no two alike (after
 *   normalization) in one city.
 * - Ids are 8 hex digits, unique; URLs are setlist.fm-style (slug.ts).
 * - A small share of venues has no city, as festival sites in the open country do.
 */
import { normalize } from "../../src/normalize.ts";
import type { City, Country } from "./geonames.ts";
import { venueUrl } from "./slug.ts";
import type { VenueInput } from "./venue-files.ts";
import { CITYLESS, ENGLISH, vocabularyFor, type Vocabulary } from "./venue-vocabulary.ts";

export interface GeneratorCity {
  id: string;
  name: string;
  countryCode: string;
  countryName: string;
  admin1Code: string | null;
  population: number;
  /** First language of the city's country (GeoNames countryInfo), e.g. `de`. */
  language: string | undefined;
}

/** A generated venue, in the shape of a row read from a venue file. */
export type GeneratedVenue = VenueInput & { url: string };

export interface GeneratorOptions {
  count: number;
  seed: string;
  /** Called now and then with the number of venues made so far. */
  onProgress?: (made: number) => void;
}

/** The generator's view of imported cities: with their country's name and first language. */
export function generatorCities(cities: readonly City[], countries: readonly Country[]): GeneratorCity[] {
  const byCode = new Map(countries.map((c) => [c.code, c]));
  return cities.map((c) => ({
    id: c.id,
    name: c.name,
    countryCode: c.countryCode,
    countryName: byCode.get(c.countryCode)?.name ?? c.countryCode,
    admin1Code: c.admin1Code,
    population: c.population,
    language: byCode.get(c.countryCode)?.languages[0],
  }));
}

/** Share of venues without a city. */
const CITYLESS_SHARE = 0.002;
/** Venue count grows with population to this power: big cities get more, not all. */
const POPULATION_EXPONENT = 0.75;

export function generateVenues(cities: readonly GeneratorCity[], options: GeneratorOptions): GeneratedVenue[] {
  const ordered = [...cities].sort((a, b) => Number(a.id) - Number(b.id));
  const cityless = Math.round(options.count * CITYLESS_SHARE);
  const perCity = allocate(
    ordered.map((c) => c.population),
    options.count - cityless,
  );
  const ids = new Set<string>();
  const venues: GeneratedVenue[] = [];

  ordered.forEach((city, i) => {
    const n = perCity[i] ?? 0;
    if (n === 0) return;
    const rng = random(`${options.seed}:city:${city.id}`);
    const local = vocabularyFor(city.language);
    const names = uniqueNames(rng, n, (r) => {
      const vocabulary = local !== null && r() < local.localShare ? local : ENGLISH;
      return fill(vocabulary, r, city.name);
    });
    for (const name of names) {
      const id = freshId(rng, ids);
      venues.push({ id, name, cityId: city.id, url: venueUrl({ id, name }, city), file: "generator", line: 0 });
      if (venues.length % 50_000 === 0) options.onProgress?.(venues.length);
    }
  });

  const rng = random(`${options.seed}:cityless`);
  for (const name of uniqueNames(rng, cityless, (r) => fill(CITYLESS, r, ""))) {
    const id = freshId(rng, ids);
    venues.push({ id, name, cityId: null, url: venueUrl({ id, name }, null), file: "generator", line: 0 });
  }
  options.onProgress?.(venues.length);
  return venues;
}

/**
 * Splits `total` over cities in proportion to population^EXPONENT (largest remainder, ties
 * to the earlier city), so the counts add up exactly and do not depend on float noise.
 */
export function allocate(populations: readonly number[], total: number): number[] {
  const weights = populations.map((p) => Math.pow(Math.max(p, 0) + 100, POPULATION_EXPONENT));
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (total * w) / sum);
  const counts = exact.map(Math.floor);
  let rest = total - counts.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (rest-- <= 0) break;
    counts[i] = (counts[i] ?? 0) + 1;
  }
  return counts;
}

type Rng = () => number;

/** `n` names from `make`, distinct after normalization; numbered when the patterns run out. */
function uniqueNames(rng: Rng, n: number, make: (rng: Rng) => string): string[] {
  const seen = new Set<string>();
  const names: string[] = [];
  while (names.length < n) {
    let name = make(rng);
    for (let attempt = 0; seen.has(normalize(name)) && attempt < 40; attempt++) name = make(rng);
    for (let k = 2; seen.has(normalize(name)); k++) name = `${make(rng)} ${k}`;
    seen.add(normalize(name));
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

function pick<T>(rng: Rng, list: readonly T[]): T {
  const item = list[Math.floor(rng() * list.length)];
  if (item === undefined) throw new Error("empty vocabulary list");
  return item;
}

function freshId(rng: Rng, taken: Set<string>): string {
  for (;;) {
    const id = Math.floor(rng() * 0x1_0000_0000)
      .toString(16)
      .padStart(8, "0");
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}

/** sfc32 seeded from a string (cyrb128): small, fast and the same on every machine. */
export function random(seed: string): Rng {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < seed.length; i++) {
    const k = seed.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  let a = (h1 ^ h2 ^ h3 ^ h4) >>> 0;
  let b = (h2 ^ h1) >>> 0;
  let c = (h3 ^ h1) >>> 0;
  let d = (h4 ^ h1) >>> 0;
  return () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    const r = (t + d) | 0;
    c = (c + r) | 0;
    return (r >>> 0) / 4294967296;
  };
}
