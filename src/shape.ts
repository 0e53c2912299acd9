/**
 * Answers as setlist.fm's objects (docs/api.md#result-pages), keys in the live order. A field whose value is
 * unknown is left out; in a search, a venue's city carries `coords` and `country` as empty
 * objects (the venue lookup gives them in full, as setlist.fm's /venue/{id} does).
 */
import type { VenueKind } from "./data-contract/venue-kinds.ts";
import type { CountryRecord } from "./query/countries.ts";
import type { CityRecord, Page, VenueRecord } from "./query/records.ts";
import { ITEMS_PER_PAGE } from "./params/paging.ts";

export interface VenueCityJson {
  id: string;
  name: string;
  state?: string;
  stateCode?: string;
  coords: Record<string, never>;
  country: Record<string, never>;
}

/**
 * Why a record is there (docs/api.md#which-name-matched): the name that holds the typed words, their
 * spans in it (UTF-16 offsets and lengths), and the place read at the end of the text. Every
 * suggestion carries it; a search's records only when asked (`matched=1`).
 */
export interface MatchedJson {
  name: string;
  spans: { offset: number; length: number }[];
  place?: string;
}

export interface VenueJson {
  id: string;
  name: string;
  city?: VenueCityJson | CityJson;
  url?: string;
  /** The venue's own point, when known (docs/api.md#venues-at-their-own-place). */
  coords?: { lat: number; long: number };
  kind: VenueKind;
  /** Kilometres from the point of a search near a point (docs/api.md#near-a-point). */
  distance?: number;
  matched?: MatchedJson;
}

export interface CityJson {
  id: string;
  name: string;
  state?: string;
  stateCode?: string;
  coords: { lat: number; long: number };
  country: { code: string; name: string };
  distance?: number;
  matched?: MatchedJson;
}

export interface VenuesPage {
  type: "venues";
  itemsPerPage: number;
  page: number;
  total: number;
  venue: VenueJson[];
}

export interface CitiesPage {
  type: "cities";
  itemsPerPage: number;
  page: number;
  total: number;
  cities: CityJson[];
}

/** The countries search: every country on one page (docs/api.md#countries). */
export interface CountriesPage {
  type: "countries";
  itemsPerPage: number;
  page: 1;
  total: number;
  country: CountryRecord[];
}

export type ResultPage = VenuesPage | CitiesPage | CountriesPage;

/** What an answer holds: a page of a search, or one venue or city of a lookup. */
export type Answer =
  { kind: "page"; page: ResultPage } | { kind: "venue"; venue: VenueJson } | { kind: "city"; city: CityJson };

export function venueJson(v: VenueRecord, fullCity = false): VenueJson {
  // Keys in the contract's order: id, name, city, url, coords, kind, distance.
  const city: Pick<VenueJson, "city"> =
    v.city === null
      ? {}
      : {
          city: fullCity
            ? cityJson(v.city)
            : { id: v.city.id, name: v.city.name, ...state(v.city), coords: {}, country: {} },
        };
  return {
    id: v.id,
    name: v.name,
    ...city,
    ...(v.url === null ? {} : { url: v.url }),
    ...(v.coords === null ? {} : { coords: { lat: v.coords.lat, long: v.coords.lng } }),
    kind: v.kind,
    ...(v.distanceKm === undefined ? {} : { distance: v.distanceKm }),
  };
}

export function cityJson(c: CityRecord): CityJson {
  const out: CityJson = {
    id: c.id,
    name: c.name,
    ...state(c),
    coords: { lat: c.lat, long: c.lng },
    country: { code: c.countryCode, name: c.countryName },
  };
  if (c.distanceKm !== undefined) out.distance = c.distanceKm;
  return out;
}

/** state and stateCode, in the live key order, when known. */
function state(o: { state: string | null; stateCode: string | null }): { state?: string; stateCode?: string } {
  const out: { state?: string; stateCode?: string } = {};
  if (o.state !== null) out.state = o.state;
  if (o.stateCode !== null) out.stateCode = o.stateCode;
  return out;
}

/** A record's JSON with why it is there after its fields, when it says. */
const withMatched = <T extends { matched?: MatchedJson }>(json: T, m: MatchedJson | undefined): T =>
  m === undefined
    ? json
    : {
        ...json,
        matched: {
          name: m.name,
          spans: m.spans.map(({ offset, length }) => ({ offset, length })),
          ...(m.place === undefined ? {} : { place: m.place }),
        },
      };

/** A record of a page, maybe with why it is there. */
type Said<R> = R & { matched?: MatchedJson };

/**
 * A page of venues; `fullCities` gives each venue's city coords and country (docs/api.md#venue-cities-in-full);
 * suggestions give their limit as the items of a page.
 */
export function venuesPage(
  p: Page<Said<VenueRecord>>,
  fullCities = false,
  itemsPerPage = ITEMS_PER_PAGE.venues,
): VenuesPage {
  return {
    type: "venues",
    itemsPerPage,
    page: p.page,
    total: p.total,
    venue: p.items.map((v) => withMatched(venueJson(v, fullCities), v.matched)),
  };
}

export function citiesPage(p: Page<Said<CityRecord>>, itemsPerPage = ITEMS_PER_PAGE.cities): CitiesPage {
  return {
    type: "cities",
    itemsPerPage,
    page: p.page,
    total: p.total,
    cities: p.items.map((c) => withMatched(cityJson(c), c.matched)),
  };
}

/** Every country on the one page: as many items a page as there are countries. */
export function countriesPage(countries: readonly CountryRecord[]): CountriesPage {
  return {
    type: "countries",
    itemsPerPage: countries.length,
    page: 1,
    total: countries.length,
    country: countries.map((c) => ({ code: c.code, name: c.name })),
  };
}
