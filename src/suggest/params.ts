/**
 * The parameters of the suggestions (docs/api.md#suggestions): a search's name and filters, parsed
 * and checked by the search's own parser, with `lat`/`long` as a focus (an order, not a filter),
 * `limit` instead of pages, and `name` required. Pure.
 */
import { ApiError } from "../http/errors.ts";
import type { Resource } from "../params/paging.ts";
import { canonicalQuery, parseSearchParams } from "../params/search.ts";
import { PARAMETERS, type SearchParams } from "../params/search-params.ts";

export const DEFAULT_LIMIT = 8;
export const MAX_LIMIT = 20;

export interface SuggestParams {
  /** The name as typed so far and the filters (no `near`, page 1). */
  search: SearchParams & { name: string };
  /** A point the suggestions are ordered around (nearness blended with size). */
  focus?: { lat: number; lng: number };
  limit: number;
}

/** Parameters of a search the suggestions do not take: pages, and a radius (a focus has none). */
/** A suggestion always says which name matched: `matched` is not asked for. */
const NOT_TAKEN = new Set(["p", "radius", "limit", "matched"]);

/** The parameters each suggestion endpoint reads. */
export const SUGGEST_PARAMETERS: Record<Resource, readonly string[]> = {
  venues: [...PARAMETERS.venues.filter((p) => !NOT_TAKEN.has(p)), "limit"],
  cities: [...PARAMETERS.cities.filter((p) => !NOT_TAKEN.has(p)), "limit"],
};

function valueOf(query: string, key: string): string | undefined {
  for (const part of query.split("&")) {
    const eq = part.indexOf("=");
    if ((eq < 0 ? part : part.slice(0, eq)) === key) return eq < 0 ? "" : part.slice(eq + 1);
  }
  return undefined;
}

function parseLimit(value: string | undefined): number {
  if (value === undefined || value === "") return DEFAULT_LIMIT;
  const n = Number(value);
  if (!/^[0-9]{1,2}$/.test(value) || n < 1 || n > MAX_LIMIT) {
    throw new ApiError(400, `parameter limit must be a whole number from 1 to ${MAX_LIMIT}`);
  }
  return n;
}

/** The suggestions' parameters from a query string (without the `?`). */
export function parseSuggestParams(resource: Resource, query: string): SuggestParams {
  const limit = parseLimit(valueOf(query, "limit"));
  const rest = query
    .split("&")
    .filter((part) => !NOT_TAKEN.has(part.slice(0, part.includes("=") ? part.indexOf("=") : undefined)))
    .join("&");
  const { near, ...search } = parseSearchParams(resource, rest);
  if (search.name === undefined) throw new ApiError(400, "parameter name is required: the text typed so far");
  return {
    search: { ...search, name: search.name },
    ...(near === undefined ? {} : { focus: { lat: near.lat, lng: near.lng } }),
    limit,
  };
}

/** The canonical query of the suggestions, for the cache key: the search's, with the focus and the limit. */
export function canonicalSuggestQuery(s: SuggestParams): string {
  const focus = s.focus === undefined ? "" : `&lat=${s.focus.lat}&long=${s.focus.lng}`;
  return `${canonicalQuery(s.search).replace(/^p=1&?|&p=1(?=&|$)/, "")}${focus}&limit=${s.limit}`;
}
