/**
 * GET /1.0/search/{venues,cities}: negotiate → validate parameters → cache → query → shape →
 * serialize → cache. The 404 "not found" of an empty search is cached like a page.
 */
import { CACHE_CONTROL, cacheKey, cacheLookup, cacheStore, ifNoneMatch } from "../cache";
import { dataVersion } from "../data-version";
import type { Env } from "../env";
import { ApiError, errorBody } from "../errors";
import { setHeaders, withoutBody } from "../http";
import { CONTENT_TYPE, negotiateFormat, type Format } from "../negotiate";
import { canonicalQuery, parseSearchParams, type Resource, type SearchParams } from "../params";
import { searchCities } from "../queries/cities";
import { searchVenues } from "../queries/venues";
import { serializeError, serializePage } from "../serialize";
import { citiesPage, venuesPage, type ResultPage } from "../shape";

export function requireFormat(request: Request): Format {
  const format = negotiateFormat(request.headers.get("Accept"));
  if (format === null)
    throw new ApiError(406, "no acceptable format: this API serves application/json and application/xml");
  return format;
}

async function resultPage(
  resource: Resource,
  env: Env,
  params: SearchParams,
): Promise<{ page: ResultPage; rowsRead: number }> {
  if (resource === "venues") {
    const found = await searchVenues(env.DB, params);
    return { page: venuesPage(found), rowsRead: found.rowsRead };
  }
  const found = await searchCities(env.DB, params);
  return { page: citiesPage(found), rowsRead: found.rowsRead };
}

export async function search(resource: Resource, request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const format = requireFormat(request);
  const language = "en";
  const url = new URL(request.url);
  const params = parseSearchParams(resource, url.search);
  const version = await dataVersion(env.DB);
  const key = cacheKey(url.origin, `/1.0/search/${resource}`, canonicalQuery(params), format, language, version);

  const useCache = env.EDGE_CACHE !== "off";
  const cached = useCache ? await cacheLookup(key) : undefined;
  if (cached !== undefined) return conditional(request, cached, { "X-Cache": "HIT" });

  const started = performance.now();
  const { page, rowsRead } = await resultPage(resource, env, params);
  const d1Time = performance.now() - started;
  const empty = (page.type === "venues" ? page.venue : page.cities).length === 0;
  const status = empty ? 404 : 200;
  const body = empty ? serializeError(errorBody(404, "not found"), format) : serializePage(page, format);
  const headers = { "Content-Type": CONTENT_TYPE[format], "Cache-Control": CACHE_CONTROL, ETag: key.etag };
  if (useCache) cacheStore(ctx, key, status, headers, body);
  // What the answer cost in D1, for clients and benchmarks (not stored with the cached copy).
  const timing = `d1;dur=${d1Time.toFixed(1)};desc="rows_read=${rowsRead}"`;
  return conditional(request, new Response(body, { status, headers }), { "X-Cache": "MISS", "Server-Timing": timing });
}

/** 304 when the client already holds this entity; the X-Cache header either way. */
function conditional(request: Request, response: Response, headers: Record<string, string>): Response {
  if (response.status === 200 && ifNoneMatch(request.headers.get("If-None-Match"), response.headers.get("ETag"))) {
    const notModified = withoutBody(setHeaders(response, headers), 304);
    notModified.headers.delete("Content-Type");
    return notModified;
  }
  return setHeaders(response, headers);
}
