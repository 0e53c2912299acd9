/**
 * Query parameters of the two searches (SPEC §2), parsed from the raw query string and
 * validated; values are normalized for matching (§3). The canonical form of the result is
 * the cache key's query (§7). Pure.
 */
import { ApiError } from "./errors";
import { normalize } from "./normalize";

export type Resource = "venues" | "cities";

export const PARAMETERS: Record<Resource, readonly string[]> = {
  venues: ["cityId", "cityName", "country", "name", "p", "state", "stateCode"],
  cities: ["country", "name", "p", "state", "stateCode"],
};

export const MAX_VALUE_LENGTH = 100;
/** Longest accepted query string, in bytes (it is percent-encoded ASCII). */
export const MAX_QUERY_BYTES = 2048;
const MAX_PAGE_DIGITS = 6;

export type CountryFilter = { code: string } | { nameNorm: string };

/** Validated filters; text values normalized. A normalized value may be "" (matches nothing). */
export interface SearchParams {
  page: number;
  name?: string;
  cityId?: string;
  cityName?: string;
  state?: string;
  stateCode?: string;
  country?: CountryFilter;
}

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

export function parseSearchParams(resource: Resource, search: string): SearchParams {
  const query = search.replace(/^\?/, "");
  if (query.length > MAX_QUERY_BYTES)
    throw new ApiError(400, `the query string is longer than ${MAX_QUERY_BYTES} bytes`);
  const allowed = PARAMETERS[resource];
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

  const params: SearchParams = { page: parsePage(values.get("p")) };
  const name = values.get("name");
  if (name !== undefined) params.name = normalize(name);
  const cityId = values.get("cityId");
  if (cityId !== undefined) params.cityId = cityId;
  const cityName = values.get("cityName");
  if (cityName !== undefined) params.cityName = normalize(cityName);
  const state = values.get("state");
  if (state !== undefined) params.state = normalize(state);
  const stateCode = values.get("stateCode");
  if (stateCode !== undefined) params.stateCode = stateCode.toUpperCase();
  const country = values.get("country");
  if (country !== undefined) {
    params.country = /^[A-Za-z]{2}$/.test(country) ? { code: country.toUpperCase() } : { nameNorm: normalize(country) };
  }
  return params;
}

function parsePage(value: string | undefined): number {
  if (value === undefined) return 1;
  if (!/^[0-9]+$/.test(value) || value.length > MAX_PAGE_DIGITS || Number(value) < 1) {
    throw new ApiError(400, `parameter p must be a page number from 1 to ${"9".repeat(MAX_PAGE_DIGITS)}`);
  }
  return Number(value);
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
  return entries
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join("&");
}
