/**
 * Query parameters of the searches (docs/api.md#parameters, #countries), parsed from the raw query string and
 * validated; values are normalized for matching (§3). The canonical form of the result is
 * the cache key's query (§7). Pure.
 */
import { ApiError } from "../http/errors.ts";
import type { Box, Circle } from "../data-contract/distance.ts";
import { isVenueKind, VENUE_KINDS, type VenueKind } from "../data-contract/venue-kinds.ts";
import { normalize, words } from "../data-contract/normalize.ts";
import { MAX_PAGE, type Resource } from "./paging.ts";
import {
  COUNTRIES_PARAMETERS,
  DEFAULT_RADIUS_KM,
  MAX_QUERY_BYTES,
  MAX_RADIUS_KM,
  MAX_FORGIVEN_WORDS,
  MAX_VALUE_LENGTH,
  PARAMETERS,
  type CountryFilter,
  type SearchParams,
} from "./search-params.ts";

/** Splits `a=1&b=2` (without the `?`), decoding `+` and percent-escapes strictly. */
function rawPairs(query: string): { key: string; rawKey: string; value: string | null }[] {
  const pairs: { key: string; rawKey: string; value: string | null }[] = [];
  for (const part of query.split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    const rawKey = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? "" : part.slice(eq + 1);
    const key = decode(rawKey);
    if (key === null) {
      pairs.push({ key: "", rawKey, value: null });
      continue;
    }
    pairs.push({ key, rawKey, value: decode(rawValue) });
  }
  return pairs;
}

function decode(text: string): string | null {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return null;
  }
}

/**
 * The values of the `allowed` parameters, trimmed; unknown ones ignored, empty ones absent.
 * A parameter given twice, malformed percent-encoding or an over-long value: 400 naming it.
 */
function knownValues(allowed: readonly string[], query: string): Map<string, string> {
  if (query.length > MAX_QUERY_BYTES)
    throw new ApiError(400, `the query string is longer than ${MAX_QUERY_BYTES} bytes`);
  const values = new Map<string, string>();
  const seen = new Set<string>();
  for (const { key, value } of rawPairs(query)) {
    if (!allowed.includes(key)) continue; // unknown parameters are ignored, as setlist.fm does
    if (seen.has(key)) throw new ApiError(400, `parameter ${key} is given more than once`);
    seen.add(key);
    if (value === null) throw new ApiError(400, `parameter ${key} has malformed percent-encoding`);
    if ([...value].length > MAX_VALUE_LENGTH) {
      throw new ApiError(400, `parameter ${key} is longer than ${MAX_VALUE_LENGTH} characters`);
    }
    if (value.trim() !== "") values.set(key, value.trim()); // an empty value counts as absent
  }
  return values;
}

/** The parameters of a search from its query string (without the `?`). */
export function parseSearchParams(resource: Resource, query: string): SearchParams {
  const values = knownValues(PARAMETERS[resource], query);
  const params: SearchParams = {
    page: parsePage(values.get("p")),
    typos: parseSwitch("typos", values.get("typos"), TYPOS_SWITCH),
    places: parseSwitch("places", values.get("places"), PLACES_SWITCH),
    nameWords: [],
  };
  const near = parseNear(values.get("lat"), values.get("long"), values.get("radius"));
  if (near !== undefined) params.near = near;
  const box = values.get("bbox");
  if (box !== undefined) {
    if (near !== undefined) throw new ApiError(400, "parameter bbox cannot be combined with lat and long");
    params.box = parseBox(box);
  }
  const kind = values.get("kind");
  if (kind !== undefined) params.kind = parseKind(kind);
  for (const key of ["name", "cityName", "state"] as const) {
    const value = values.get(key);
    if (value !== undefined) params[key] = normalize(value);
  }
  if (params.name !== undefined) params.nameWords = words(params.name);
  if (parseOptIn("matched", values.get("matched"), MATCHED_SWITCH)) params.matched = true;
  // A longer text is read as typed: each word it may be forgiven is a lookup of its own.
  if (params.nameWords.length > MAX_FORGIVEN_WORDS) params.typos = false;
  const cityId = values.get("cityId");
  if (cityId !== undefined) params.cityId = cityId;
  const stateCode = values.get("stateCode");
  if (stateCode !== undefined) params.stateCode = stateCode.toUpperCase();
  const country = values.get("country");
  if (country !== undefined) params.country = parseCountry(country);
  return params;
}

/** The page asked for in the countries search's query string (without the `?`); other parameters are ignored. */
export function parseCountriesPage(query: string): number {
  return parsePage(knownValues(COUNTRIES_PARAMETERS, query).get("p"));
}

/** A country code (two letters, any case) or an English country name. */
function parseCountry(value: string): CountryFilter {
  return /^[A-Za-z]{2}$/.test(value) ? { code: value.toUpperCase() } : { nameNorm: normalize(value) };
}

function parsePage(value: string | undefined): number {
  if (value === undefined) return 1;
  if (!/^[0-9]+$/.test(value) || value.length > String(MAX_PAGE).length || Number(value) < 1) {
    throw new ApiError(400, `parameter p must be a page number from 1 to ${MAX_PAGE}`);
  }
  return Number(value);
}

const TYPOS_SWITCH = "0 (match names exactly) or 1 (forgive typos, the default)";
const PLACES_SWITCH = "0 (search the name as typed) or 1 (read a place at its end, the default)";

const MATCHED_SWITCH = "1 (each record says which of its names matched) or 0 (not, the default)";

/** A switch that is off by default: 1, or 0 or absent. */
function parseOptIn(name: string, value: string | undefined, meaning: string): boolean {
  if (value === "1") return true;
  if (value === undefined || value === "0") return false;
  throw new ApiError(400, `parameter ${name} must be ${meaning}`);
}

/** A switch that is on by default: 1 or absent, or 0. */
function parseSwitch(name: string, value: string | undefined, meaning: string): boolean {
  if (value === undefined || value === "1") return true;
  if (value === "0") return false;
  throw new ApiError(400, `parameter ${name} must be ${meaning}`);
}

const DECIMAL = /^[+-]?[0-9]{1,3}(\.[0-9]+)?$/;
const round = (x: number, decimals: number) => Math.round(x * 10 ** decimals) / 10 ** decimals + 0; // + 0: no -0

/** lat, long and radius (§10.2): both coordinates or neither; a radius only with them. */
function parseNear(lat: string | undefined, lng: string | undefined, radius: string | undefined): Circle | undefined {
  if (lat === undefined && lng === undefined) {
    if (radius !== undefined) throw new ApiError(400, "parameter radius needs lat and long");
    return undefined;
  }
  if (lat === undefined) throw new ApiError(400, "parameter lat is required with long");
  if (lng === undefined) throw new ApiError(400, "parameter long is required with lat");
  if (!DECIMAL.test(lat) || Math.abs(Number(lat)) > 90) {
    throw new ApiError(400, "parameter lat must be a latitude in decimal degrees, from -90 to 90");
  }
  if (!DECIMAL.test(lng) || Math.abs(Number(lng)) > 180) {
    throw new ApiError(400, "parameter long must be a longitude in decimal degrees, from -180 to 180");
  }
  let radiusKm = DEFAULT_RADIUS_KM;
  if (radius !== undefined) {
    const km = Number(radius);
    if (!/^[0-9]{1,3}(\.[0-9]+)?$/.test(radius) || km <= 0 || km > MAX_RADIUS_KM) {
      throw new ApiError(400, `parameter radius must be a distance in km, more than 0 and at most ${MAX_RADIUS_KM}`);
    }
    radiusKm = Math.max(round(km, 3), 0.001);
  }
  return { lat: round(Number(lat), 4), lng: round(Number(lng), 4), radiusKm };
}

const BOX_MESSAGE =
  "parameter bbox must be minLong,minLat,maxLong,maxLat in decimal degrees (longitudes from -180 to 180, " +
  "latitudes from -90 to 90, minLat at most maxLat; minLong above maxLong crosses the antimeridian)";

/** bbox=minLong,minLat,maxLong,maxLat (the GeoJSON order); west > east crosses the antimeridian. */
function parseBox(value: string): Box {
  const parts = value.split(",").map((part) => part.trim());
  if (parts.length !== 4 || !parts.every((part) => DECIMAL.test(part))) throw new ApiError(400, BOX_MESSAGE);
  const [west, south, east, north] = parts.map((part) => round(Number(part), 5)) as [number, number, number, number];
  const lngOk = Math.abs(west) <= 180 && Math.abs(east) <= 180;
  if (!lngOk || Math.abs(south) > 90 || Math.abs(north) > 90 || south > north) throw new ApiError(400, BOX_MESSAGE);
  return { west, south, east, north };
}

function parseKind(value: string): VenueKind {
  const kind = normalize(value);
  if (isVenueKind(kind)) return kind;
  throw new ApiError(400, `parameter kind must be one of: ${VENUE_KINDS.join(", ")}`);
}

/**
 * The canonical query: known parameters with a value, sorted, in their normalized form, `p`
 * always present. Requests that must get the same answer get the same string.
 */
export function canonicalQuery(params: SearchParams): string {
  const entries: [string, string][] = [["p", String(params.page)]];
  if (params.name !== undefined) entries.push(["name", params.name]);
  if (params.cityId !== undefined) entries.push(["cityId", params.cityId]);
  if (params.cityName !== undefined) entries.push(["cityName", params.cityName]);
  if (params.state !== undefined) entries.push(["state", params.state]);
  if (params.stateCode !== undefined) entries.push(["stateCode", params.stateCode]);
  if (params.country !== undefined) {
    entries.push(["country", "code" in params.country ? params.country.code : `name:${params.country.nameNorm}`]);
  }
  if (params.near !== undefined) {
    entries.push(
      ["lat", String(params.near.lat)],
      ["long", String(params.near.lng)],
      ["radius", String(params.near.radiusKm)],
    );
  }
  if (params.box !== undefined) {
    const { west, south, east, north } = params.box;
    entries.push(["bbox", [west, south, east, north].join(",")]);
  }
  if (params.kind !== undefined) entries.push(["kind", params.kind]);
  if (!params.typos) entries.push(["typos", "0"]);
  if (!params.places) entries.push(["places", "0"]);
  if (params.matched === true) entries.push(["matched", "1"]);
  return entries
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join("&");
}
