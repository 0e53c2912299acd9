/**
 * The deterministic venue generator. There is no open venue data set, so the default data
 * has generated venues on the real GeoNames cities: same seed and cities, same rows.
 *
 * - Counts follow population (bigger cities get more venues, sub-linearly).
 * - Names come from the city's language patterns (venue-vocabulary.ts); no two alike (after
 *   normalization) in one city.
 * - Ids are 8 hex digits, unique (a keyed permutation of the venue's number); URLs are
 *   setlist.fm-style (slug.ts).
 * - A small share of venues has no city, as festival sites in the open country do.
 */
import { normalize } from "../../../src/format/normalize.ts";
import { pick, random, type Rng } from "../../tools/random.ts";
import type { Country } from "../sources/geonames.ts";
import { venueUrl } from "./slug.ts";
import { kindFromName, type VenueInput } from "../sources/venue-input.ts";
import { CITYLESS, ENGLISH, vocabularyFor, type Vocabulary } from "./vocabulary.ts";

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

const generatedVenue = (id: string, name: string, cityId: string | null) => ({
  id,
  name,
  cityId,
  lat: null,
  lng: null,
  kind: kindFromName(name),
  cityHints: [],
  countryHint: null,
  source: "generated" as const,
  file: "generator",
  at: 0,
});

export interface GeneratorOptions {
  count: number;
  seed: string;
}

/** The generator's view of a city: with its country's name and first language. */
export function generatorCity(
  city: { id: string; name: string; countryCode: string; admin1Code: string | null; population: number },
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

/**
 * The generated venues, in memory (tests and small sets; the import streams the same venues
 * city by city with venueCounts, cityVenues and citylessVenues).
 */
export function generateVenues(cities: readonly GeneratorCity[], options: GeneratorOptions): GeneratedVenue[] {
  const ordered = [...cities].sort((a, b) => Number(a.id) - Number(b.id));
  const ids = new VenueIds(options.seed);
  const counts = venueCounts(
    ordered.map((c) => c.population),
    options.count - citylessCount(options.count),
  );
  const venues: GeneratedVenue[] = [];
  ordered.forEach((city, i) => venues.push(...cityVenues(city, counts[i] ?? 0, options.seed, ids)));
  venues.push(...citylessVenues(citylessCount(options.count), options.seed, ids));
  return venues;
}

/**
 * Splits `total` over cities (given in geonameid order) in proportion to population^EXPONENT
 * (largest remainder, ties to the earlier city), so the counts add up exactly. Two typed arrays of
 * the cities and no sort: the remainders that get one more venue are found by bisecting on their
 * value, so 5 million cities take 60 MB.
 */
export function venueCounts(populations: ArrayLike<number>, total: number): Uint32Array {
  const n = populations.length;
  const remainders = new Float64Array(n); // the weights first, then what each count left over
  let sum = 0;
  for (let i = 0; i < n; i++) {
    sum += remainders[i] = Math.pow(Math.max(populations[i] ?? 0, 0) + 100, POPULATION_EXPONENT);
  }
  const counts = new Uint32Array(n);
  let given = 0;
  for (let i = 0; i < n; i++) {
    const exact = (total * (remainders[i] ?? 0)) / sum;
    counts[i] = Math.floor(exact);
    remainders[i] = exact - Math.floor(exact);
    given += counts[i] ?? 0;
  }
  const extra = Math.min(total - given, n);
  if (extra > 0) giveExtra(counts, remainders, extra);
  return counts;
}

/** One more to each of the `extra` largest remainders (ties to the earlier city). */
function giveExtra(counts: Uint32Array, remainders: Float64Array, extra: number): void {
  const n = remainders.length;
  const { lo, hi } = remainderThreshold(remainders, extra);
  let left = extra;
  for (let i = 0; i < n; i++) {
    if ((remainders[i] ?? 0) > hi) {
      counts[i] = (counts[i] ?? 0) + 1;
      left--;
    }
  }
  // The rest to the remainders just at the threshold, the earlier cities first.
  for (let i = 0; i < n && left > 0; i++) {
    const r = remainders[i] ?? 0;
    if (r > lo && r <= hi) {
      counts[i] = (counts[i] ?? 0) + 1;
      left--;
    }
  }
}

/** Bisects for lo < hi: more than `extra` remainders lie above lo, at most `extra` above hi. */
function remainderThreshold(remainders: Float64Array, extra: number): { lo: number; hi: number } {
  const above = (t: number) => {
    let c = 0;
    for (const r of remainders) if (r > t) c++;
    return c;
  };
  let lo = -1;
  let hi = 1;
  for (let step = 0; step < 64 && hi - lo > 0; step++) {
    const mid = (lo + hi) / 2;
    if (mid <= lo || mid >= hi) break;
    if (above(mid) > extra) lo = mid;
    else hi = mid;
  }
  return { lo, hi };
}

/**
 * Venue ids: 8 hex digits, unique without remembering them — the n-th id is a bijection of n
 * (a Feistel network on 32 bits keyed by the seed), so no two venues share one.
 */
export class VenueIds {
  private readonly keys: number[];
  private next = 0;
  constructor(seed: string) {
    const rng = random(`${seed}:ids`);
    this.keys = [0, 1, 2, 3].map(() => Math.floor(rng() * 0x10000));
  }
  take(): string {
    const i = this.next++;
    let left = (i >>> 16) & 0xffff;
    let right = i & 0xffff;
    for (const key of this.keys) {
      const f = (Math.imul((right ^ key) + 0x7f4a, 0x9e3779b1) >>> 13) & 0xffff;
      [left, right] = [right, left ^ f];
    }
    return (((left << 16) | right) >>> 0).toString(16).padStart(8, "0");
  }
}

/** A city's `count` venues: names from its language's patterns, distinct within the city. */
export function* cityVenues(
  city: GeneratorCity,
  count: number,
  seed: string,
  ids: VenueIds,
): Generator<GeneratedVenue> {
  if (count === 0) return;
  const rng = random(`${seed}:city:${city.id}`);
  const local = vocabularyFor(city.language);
  const names = uniqueNames(rng, count, (r) => {
    const vocabulary = local !== null && r() < local.localShare ? local : ENGLISH;
    return fill(vocabulary, r, city.name);
  });
  for (const name of names) {
    const id = ids.take();
    yield { ...generatedVenue(id, name, city.id), url: venueUrl({ id, name }, city) };
  }
}

/** Venues without a city (festival sites in the open country). */
export function* citylessVenues(count: number, seed: string, ids: VenueIds): Generator<GeneratedVenue> {
  const rng = random(`${seed}:cityless`);
  for (const name of uniqueNames(rng, count, (r) => fill(CITYLESS, r, ""))) {
    const id = ids.take();
    yield { ...generatedVenue(id, name, null), url: venueUrl({ id, name }, null) };
  }
}

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
