/**
 * Turns validated source rows into the rows of the database (migrations/): normalized names,
 * each row's `pos` in the contract's default order and its rank within its country, state and
 * city, city name lists for the search index, venues joined to their cities, and the stored
 * totals (per region, per city, per broad name prefix). Pure: no I/O.
 */
import { compareCodePoints, normalize, words } from "../../src/normalize.ts";
import type { Admin1, City, Country } from "./geonames.ts";
import type { LocalizedName } from "./localized-names.ts";
import type { Problems } from "./problems.ts";
import type { VenueInput } from "./venue-files.ts";

/** A city name id is pos * NAMES_PER_CITY + ordinal (see city_names in the schema). */
export const NAMES_PER_CITY = 1024;

/** Name prefixes that match at least this many rows get a stored total. */
export const PREFIX_COUNT_MIN = 1000;
/** Longest prefix (in characters) that gets a stored total. */
const PREFIX_COUNT_MAX_LENGTH = 24;

export interface Dataset {
  countries: { code: string; name: string; nameNorm: string }[];
  admin1: { countryCode: string; code: string; name: string; nameNorm: string }[];
  cities: CityRow[];
  venues: VenueRow[];
  /** Names of cities, states and countries in the translated languages. */
  localizedNames: { lang: string; kind: "city" | "admin1" | "country"; key: string; name: string }[];
  /** Cities and venues per country (admin1Code "") and per state. */
  regionCounts: { countryCode: string; admin1Code: string; cities: number; venues: number }[];
  /**
   * Rows matched by one-word name queries, in all (scope "") or in one country ("c:US") or
   * state ("s:US:CA"), where they match at least PREFIX_COUNT_MIN rows.
   */
  prefixCounts: { kind: "venue" | "city"; scope: string; prefix: string; n: number }[];
  /** Alternate names beyond NAMES_PER_CITY that could not be indexed. */
  droppedNames: number;
  /** Venue rows that repeated an earlier row exactly (overlapping saved pages). */
  duplicateVenues: number;
}

export interface CityRow {
  pos: number;
  id: string;
  name: string;
  asciiName: string;
  nameNorm: string;
  asciiNorm: string;
  admin1Code: string | null;
  countryCode: string;
  lat: number;
  lng: number;
  population: number;
  alternateNames: string;
  /** Distinct normalized names (name, ASCII name, alternates); index k has id pos*1024+k. */
  names: string[];
  countryRank: number;
  stateRank: number | null;
  venueCount: number;
}

export interface VenueRow {
  pos: number;
  id: string;
  name: string;
  nameNorm: string;
  cityPos: number | null;
  countryCode: string | null;
  admin1Code: string | null;
  url: string | null;
  countryRank: number | null;
  stateRank: number | null;
  cityRank: number | null;
}

export function buildDataset(
  sources: {
    countries: Country[];
    admin1: Admin1[];
    cities: City[];
    venues: VenueInput[];
    /** Cities (by geonameid) and states (COUNTRY.ADMIN1) from the localized names file. */
    localized?: LocalizedName[];
    /** Countries, by code. */
    localizedCountries?: LocalizedName[];
  },
  problems: Problems,
  options: { prefixCountMin?: number } = {},
): Dataset {
  const prefixCountMin = options.prefixCountMin ?? PREFIX_COUNT_MIN;
  const countries = sources.countries
    .map((c) => ({ code: c.code, name: c.name, nameNorm: normalize(c.name) }))
    .sort((a, b) => compareCodePoints(a.code, b.code));
  const admin1 = sources.admin1
    .map((a) => ({ countryCode: a.countryCode, code: a.code, name: a.name, nameNorm: normalize(a.name) }))
    .sort((a, b) => compareCodePoints(a.countryCode, b.countryCode) || compareCodePoints(a.code, b.code));

  // Localized city names are names of the city too: `Wiedeń` finds Vienna whatever the language.
  const localizedByCity = new Map<string, string[]>();
  for (const l of sources.localized ?? []) {
    if (l.key.includes(".")) continue;
    const list = localizedByCity.get(l.key) ?? [];
    list.push(l.name);
    localizedByCity.set(l.key, list);
  }

  let droppedNames = 0;
  const cities: CityRow[] = [...sources.cities]
    .sort((a, b) => b.population - a.population || Number(a.id) - Number(b.id))
    .map((c, i) => {
      const all = [c.name, c.asciiName, ...c.alternateNames, ...(localizedByCity.get(c.id) ?? [])];
      const names = [...new Set(all.map(normalize))].filter(Boolean);
      if (names.length > NAMES_PER_CITY) {
        droppedNames += names.length - NAMES_PER_CITY;
        names.length = NAMES_PER_CITY;
      }
      return {
        pos: i + 1,
        id: c.id,
        name: c.name,
        asciiName: c.asciiName,
        nameNorm: normalize(c.name),
        asciiNorm: normalize(c.asciiName),
        admin1Code: c.admin1Code,
        countryCode: c.countryCode,
        lat: c.lat,
        lng: c.lng,
        population: c.population,
        alternateNames: c.alternateNames.join(","),
        names,
        countryRank: 0,
        stateRank: null as number | null,
        venueCount: 0,
      };
    });
  const cityRanks = new Ranks();
  for (const c of cities) {
    c.countryRank = cityRanks.next(c.countryCode);
    c.stateRank = c.admin1Code === null ? null : cityRanks.next(`${c.countryCode}.${c.admin1Code}`);
  }

  const cityById = new Map(cities.map((c) => [c.id, c]));
  const seen = new Map<string, VenueInput>();
  let duplicateVenues = 0;
  const venues: VenueRow[] = [];
  for (const v of sources.venues) {
    const earlier = seen.get(v.id);
    if (earlier) {
      if (earlier.name === v.name && earlier.cityId === v.cityId && earlier.url === v.url) duplicateVenues++;
      else problems.add(v.file, v.line, `venue id ${v.id} was already used (${earlier.file}:${earlier.line})`);
      continue;
    }
    const city = v.cityId === null ? null : cityById.get(v.cityId);
    if (city === undefined) {
      problems.add(v.file, v.line, `venue ${v.id}: city ${v.cityId} is not among the imported cities`);
      continue;
    }
    seen.set(v.id, v);
    venues.push({
      pos: 0,
      id: v.id,
      name: v.name,
      nameNorm: normalize(v.name),
      cityPos: city?.pos ?? null,
      countryCode: city?.countryCode ?? null,
      admin1Code: city?.admin1Code ?? null,
      url: v.url,
      countryRank: null,
      stateRank: null,
      cityRank: null,
    });
    if (city) city.venueCount++;
  }
  seen.clear();
  venues.sort((a, b) => compareCodePoints(a.nameNorm, b.nameNorm) || compareCodePoints(a.id, b.id));
  const venueRanks = new Ranks();
  venues.forEach((v, i) => {
    v.pos = i + 1;
    if (v.countryCode === null) return;
    v.countryRank = venueRanks.next(v.countryCode);
    if (v.admin1Code !== null) v.stateRank = venueRanks.next(`${v.countryCode}.${v.admin1Code}`);
    if (v.cityPos !== null) v.cityRank = venueRanks.next(`city ${v.cityPos}`);
  });

  const cityIds = new Set(cities.map((c) => c.id));
  const admin1Keys = new Set(admin1.map((a) => `${a.countryCode}.${a.code}`));
  const countryCodes = new Set(countries.map((c) => c.code));
  const localizedNames: Dataset["localizedNames"] = [
    ...(sources.localized ?? []).flatMap((l) => {
      const kind = l.key.includes(".") ? ("admin1" as const) : ("city" as const);
      return (kind === "city" ? cityIds : admin1Keys).has(l.key) ? [{ ...l, kind }] : [];
    }),
    ...(sources.localizedCountries ?? [])
      .filter((l) => countryCodes.has(l.key))
      .map((l) => ({ ...l, kind: "country" as const })),
  ].sort(
    (a, b) => compareCodePoints(a.lang, b.lang) || compareCodePoints(a.kind, b.kind) || compareCodePoints(a.key, b.key),
  );

  return {
    countries,
    admin1,
    cities,
    venues,
    localizedNames,
    regionCounts: regionCounts(cities),
    prefixCounts: [
      ...prefixCounts((visit) => {
        for (const v of venues) visit(words(v.nameNorm), scopes(v.countryCode, v.admin1Code));
      }, prefixCountMin).map(([scope, prefix, n]) => ({ kind: "venue" as const, scope, prefix, n })),
      ...prefixCounts((visit) => {
        for (const c of cities) visit(c.names.flatMap(words), scopes(c.countryCode, c.admin1Code));
      }, prefixCountMin).map(([scope, prefix, n]) => ({ kind: "city" as const, scope, prefix, n })),
    ],
    droppedNames,
    duplicateVenues,
  };
}

/** 1-based running counts per key: the rank of each row within its group, in row order. */
class Ranks {
  private readonly last = new Map<string, number>();
  next(key: string): number {
    const rank = (this.last.get(key) ?? 0) + 1;
    this.last.set(key, rank);
    return rank;
  }
}

function regionCounts(cities: readonly CityRow[]): Dataset["regionCounts"] {
  const counts = new Map<string, Dataset["regionCounts"][number]>();
  const add = (countryCode: string, admin1Code: string, venues: number) => {
    const key = `${countryCode}.${admin1Code}`;
    const row = counts.get(key) ?? { countryCode, admin1Code, cities: 0, venues: 0 };
    row.cities++;
    row.venues += venues;
    counts.set(key, row);
  };
  for (const c of cities) {
    add(c.countryCode, "", c.venueCount);
    if (c.admin1Code !== null) add(c.countryCode, c.admin1Code, c.venueCount);
  }
  return [...counts.values()].sort(
    (a, b) => compareCodePoints(a.countryCode, b.countryCode) || compareCodePoints(a.admin1Code, b.admin1Code),
  );
}

/** The scopes a row's name prefixes are counted in: all rows, its country, its state. */
function scopes(countryCode: string | null, admin1Code: string | null): string[] {
  if (countryCode === null) return [""];
  return admin1Code === null ? ["", `c:${countryCode}`] : ["", `c:${countryCode}`, `s:${countryCode}:${admin1Code}`];
}

/** Calls `visit` once per record with its normalized words and the scopes it counts in. */
export type RecordSource = (visit: (words: readonly string[], scopes: readonly string[]) => void) => void;

/**
 * The word prefixes found in at least `min` records of a scope: [scope, prefix, records].
 * Memory stays small: records are visited twice rather than held, the candidates come first —
 * prefixes whose words occur in at least `min` records in all (an upper bound for every scope;
 * found group by group over the sorted vocabulary, longer prefixes only within the groups that
 * qualified) — and only the candidates are counted exactly.
 */
export function prefixCounts(records: RecordSource, min: number): [string, string, number][] {
  const docFreq = new Map<string, number>();
  records((list) => {
    for (const w of new Set(list)) docFreq.set(w, (docFreq.get(w) ?? 0) + 1);
  });
  // Any lexicographic order keeps the words of one prefix together; the native one is fastest.
  const sorted = [...docFreq.keys()].sort();
  let active = sorted.map((w) => [w, docFreq.get(w) ?? 0] as [string, number]);
  docFreq.clear();
  const candidates = new Set<string>();
  for (let length = 1; length <= PREFIX_COUNT_MAX_LENGTH && active.length > 0; length++) {
    const next: typeof active = [];
    let i = 0;
    while (i < active.length) {
      const prefix = codePointPrefix(active[i]?.[0] ?? "", length);
      if (prefix === null) {
        i++;
        continue;
      }
      let j = i;
      let bound = 0;
      while (j < active.length && (active[j]?.[0] ?? "").startsWith(prefix)) bound += active[j++]?.[1] ?? 0;
      if (bound >= min) {
        candidates.add(prefix);
        for (let k = i; k < j; k++) next.push(active[k] as [string, number]);
      }
      i = j;
    }
    active = next;
  }

  const byScope = new Map<string, Map<string, number>>();
  const present = new Set<string>();
  records((list, scopeList) => {
    present.clear();
    for (const w of list) {
      for (let length = 1; length <= PREFIX_COUNT_MAX_LENGTH; length++) {
        const prefix = codePointPrefix(w, length);
        if (prefix === null || !candidates.has(prefix)) break; // candidates are prefix-closed
        present.add(prefix);
      }
    }
    if (present.size === 0) return;
    for (const scope of scopeList) {
      let counts = byScope.get(scope);
      if (counts === undefined) byScope.set(scope, (counts = new Map()));
      for (const prefix of present) counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
    }
  });
  const out: [string, string, number][] = [];
  for (const [scope, counts] of byScope) {
    for (const [prefix, n] of counts) if (n >= min) out.push([scope, prefix, n]);
  }
  return out.sort(([a, b], [c, d]) => compareCodePoints(a, c) || compareCodePoints(b, d));
}

/** The first `n` code points of a word, or null when it is shorter. */
function codePointPrefix(word: string, n: number): string | null {
  let end = 0;
  for (let k = 0; k < n; k++) {
    if (end >= word.length) return null;
    const unit = word.charCodeAt(end);
    end += unit >= 0xd800 && unit < 0xdc00 ? 2 : 1;
  }
  return word.slice(0, end);
}
