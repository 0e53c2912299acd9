/**
 * Turns validated source rows into the rows of the database (migrations/0001_schema.sql):
 * normalized names, each row's `pos` in the contract's default order, city name lists for
 * the search index, venues joined to their cities. Pure: no I/O.
 */
import { compareCodePoints, normalize } from "../../src/normalize.ts";
import type { Admin1, City, Country } from "./geonames.ts";
import type { Problems } from "./problems.ts";
import type { VenueInput } from "./venue-files.ts";

/** A city name id is pos * NAMES_PER_CITY + ordinal (see city_names in the schema). */
export const NAMES_PER_CITY = 1024;

export interface Dataset {
  countries: { code: string; name: string; nameNorm: string }[];
  admin1: { countryCode: string; code: string; name: string; nameNorm: string }[];
  cities: CityRow[];
  venues: VenueRow[];
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
}

export function buildDataset(
  sources: { countries: Country[]; admin1: Admin1[]; cities: City[]; venues: VenueInput[] },
  problems: Problems,
): Dataset {
  const countries = sources.countries
    .map((c) => ({ code: c.code, name: c.name, nameNorm: normalize(c.name) }))
    .sort((a, b) => compareCodePoints(a.code, b.code));
  const admin1 = sources.admin1
    .map((a) => ({ countryCode: a.countryCode, code: a.code, name: a.name, nameNorm: normalize(a.name) }))
    .sort((a, b) => compareCodePoints(a.countryCode, b.countryCode) || compareCodePoints(a.code, b.code));

  let droppedNames = 0;
  const cities: CityRow[] = [...sources.cities]
    .sort((a, b) => b.population - a.population || Number(a.id) - Number(b.id))
    .map((c, i) => {
      const names = [...new Set([c.name, c.asciiName, ...c.alternateNames].map(normalize))].filter(Boolean);
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
      };
    });

  const cityById = new Map(cities.map((c) => [c.id, c]));
  const seen = new Map<string, VenueInput>();
  let duplicateVenues = 0;
  const venues: Omit<VenueRow, "pos">[] = [];
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
      id: v.id,
      name: v.name,
      nameNorm: normalize(v.name),
      cityPos: city?.pos ?? null,
      countryCode: city?.countryCode ?? null,
      admin1Code: city?.admin1Code ?? null,
      url: v.url,
    });
  }
  venues.sort((a, b) => compareCodePoints(a.nameNorm, b.nameNorm) || compareCodePoints(a.id, b.id));

  return {
    countries,
    admin1,
    cities,
    venues: venues.map((v, i) => ({ pos: i + 1, ...v })),
    droppedNames,
    duplicateVenues,
  };
}
