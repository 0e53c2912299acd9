/**
 * GET /1.0/search/{venues,cities}: negotiate → validate parameters → cache → query → shape →
 * serialize → cache. The 404 "not found" of an empty search is cached like a page.
 */
import { CACHE_CONTROL, cacheKey, cacheLookup, cacheStore, ifNoneMatch } from "../cache";
import { dataVersion } from "../data-version";
import type { Env } from "../env";
import { ApiError } from "../errors";
import { errorResponse, withHeaders } from "../http";
import { CONTENT_TYPE, negotiateFormat, type Format } from "../negotiate";
import { canonicalQuery, parseSearchParams, type Resource, type SearchParams } from "../params";
import { searchCities } from "../queries/cities";
import { searchVenues } from "../queries/venues";
import { serializePage } from "../serialize";
import { citiesPage, venuesPage, type ResultPage } from "../shape";

export function requireFormat(request: Request): Format {
  const format = negotiateFormat(request.headers.get("Accept"));
  if (format === null)
    throw new ApiError(406, "no acceptable format: this API serves application/json and application/xml");
  return format;
}

async function resultPage(resource: Resource, env: Env, params: SearchParams): Promise<ResultPage> {
  return resource === "venues"
    ? venuesPage(await searchVenues(env.DB, params))
    : citiesPage(await searchCities(env.DB, params));
}

export async function search(resource: Resource, request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const format = requireFormat(request);
  const language = "en";
  const url = new URL(request.url);
  const params = parseSearchParams(resource, url.search);
  const version = await dataVersion(env.DB);
  const key = await cacheKey(url.origin, `/1.0/search/${resource}`, canonicalQuery(params), format, language, version);

  const cached = await cacheLookup(key);
  if (cached !== undefined) return conditional(request, cached, "HIT");

  const page = await resultPage(resource, env, params);
  const items = page.type === "venues" ? page.venue : page.cities;
  const cacheHeaders = { "Cache-Control": CACHE_CONTROL, ETag: key.etag };
  const response =
    items.length === 0
      ? errorResponse(404, "not found", format, cacheHeaders)
      : new Response(serializePage(page, format), {
          status: 200,
          headers: { "Content-Type": CONTENT_TYPE[format], ...cacheHeaders },
        });
  cacheStore(ctx, key, response);
  return conditional(request, response, "MISS");
}

/** 304 when the client already holds this entity; the X-Cache header either way. */
function conditional(request: Request, response: Response, xCache: "HIT" | "MISS"): Response {
  if (response.status === 200 && ifNoneMatch(request.headers.get("If-None-Match"), response.headers.get("ETag"))) {
    const notModified = withHeaders(response, { "X-Cache": xCache }, { body: false, status: 304 });
    notModified.headers.delete("Content-Type");
    return notModified;
  }
  return withHeaders(response, { "X-Cache": xCache });
}
