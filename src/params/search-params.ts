/**
 * What a search asks for (docs/api.md#parameters): the parameters each search takes, their limits,
 * and the validated, normalized form that the parser (search.ts) produces and the queries, the
 * searches in an area and the OpenAPI document read. Pure.
 */
import type { Area, Box, Circle } from "../data-contract/distance.ts";
import type { VenueKind } from "../data-contract/venue-kinds.ts";
import type { Resource } from "./paging.ts";

/** setlist.fm's parameters (its API documentation's), then this service's own (docs/api.md#parameters). */
export const PARAMETERS: Record<Resource, readonly string[]> = {
  venues: [
    "cityId",
    "cityName",
    "country",
    "name",
    "p",
    "state",
    "stateCode",
    "lat",
    "long",
    "radius",
    "typos",
    "bbox",
    "kind",
    "places",
    "matched",
  ],
  cities: ["country", "name", "p", "state", "stateCode", "lat", "long", "radius", "typos", "bbox", "places", "matched"],
};

/** The countries search's one parameter (docs/api.md#countries). */
export const COUNTRIES_PARAMETERS: readonly string[] = ["p"];

/** Kilometres around lat/long without a radius, and the largest radius. */
export const DEFAULT_RADIUS_KM = 25;
export const MAX_RADIUS_KM = 500;

export const MAX_VALUE_LENGTH = 100;
/** A name of more words than this is not forgiven typos (docs/api.md#typo-tolerance). */
export const MAX_FORGIVEN_WORDS = 8;
/** Longest accepted query string, in bytes (it is percent-encoded ASCII). */
export const MAX_QUERY_BYTES = 2048;

export type CountryFilter = { code: string } | { nameNorm: string };

/** Validated filters; text values normalized. A normalized value may be "" (matches nothing). */
export interface SearchParams {
  page: number;
  name?: string;
  /** The words of `name` (none without one), split once per request. */
  nameWords: readonly string[];
  /** Whether a name that matches nothing strictly is searched again forgiving typos (§10.1). */
  typos: boolean;
  /** Whether a place at the end of the name may be read as filters (docs/api.md#a-place-in-the-text). */
  places: boolean;
  /** Each record says which of its names matched (docs/api.md#which-name-matched): asked for, off by default. */
  matched?: true;
  /** Records within a circle (§10.2), coordinates rounded as in the cache key. */
  near?: Circle;
  /** Records inside a box (docs/api.md#inside-a-box), degrees rounded as in the cache key. */
  box?: Box;
  /** Venues of one kind (docs/api.md#venues-at-their-own-place). */
  kind?: VenueKind;
  cityId?: string;
  cityName?: string;
  state?: string;
  stateCode?: string;
  country?: CountryFilter;
}

/** The area a search keeps its records in, if any. */
export const areaOf = (p: SearchParams): Area | undefined => p.near ?? p.box;

/** Whether a search has filters besides its name and point (a city search has no city filters). */
export const hasFilters = (p: SearchParams): boolean =>
  [p.cityId, p.cityName, p.state, p.stateCode, p.country].some((f) => f !== undefined);
