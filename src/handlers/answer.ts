/**
 * Answering from the cache or D1, for searches and lookups alike: negotiate the format and the
 * language → cache key → cache → load → serialize → cache. An empty answer is the contract's
 * 404 "not found", cached like an answer.
 */
import { CACHE_CONTROL, cacheKey, cacheLookup, cacheStore, ifNoneMatch } from "../cache";
import { dataVersion } from "../data-version";
import type { Env } from "../env";
import { ApiError, errorBody } from "../errors";
import { setHeaders, withoutBody } from "../http";
import { negotiateLanguage, type Language } from "../language";
import { CONTENT_TYPE, negotiateFormat, type Format } from "../negotiate";
import { serializeAnswer, serializeError } from "../serialize";
import type { Answer } from "../shape";

export interface Negotiated {
  format: Format;
  language: Language;
}

export function negotiate(request: Request): Negotiated {
  const format = negotiateFormat(request.headers.get("Accept"));
  if (format === null) {
    throw new ApiError(406, "no acceptable format: this API serves application/json and application/xml");
  }
  return { format, language: negotiateLanguage(request.headers.get("Accept-Language")) };
}

/** What a load from D1 gives: the answer, or null for "not found". */
export interface Loaded {
  answer: Answer | null;
  rowsRead: number;
}

/**
 * Answers a request whose result depends only on `path` (without `/rest`), the canonical
 * query, the format and the language (and the data).
 */
export async function answer(
  request: Request,
  env: Env,
  ctx: ExecutionContext,
  target: { path: string; canonicalQuery: string } & Negotiated,
  load: () => Promise<Loaded>,
): Promise<Response> {
  const { format, language } = target;
  const origin = request.url.slice(0, request.url.indexOf("/", request.url.indexOf("//") + 2));
  const version = await dataVersion(env.DB);
  const key = cacheKey(origin, target.path, target.canonicalQuery, format, language, version);

  const useCache = env.EDGE_CACHE !== "off";
  const cached = useCache ? await cacheLookup(key) : undefined;
  if (cached !== undefined) return conditional(request, cached, { "X-Cache": "HIT" });

  const started = performance.now();
  const loaded = await load();
  const d1Time = performance.now() - started;
  const status = loaded.answer === null ? 404 : 200;
  const body =
    loaded.answer === null
      ? serializeError(errorBody(404, "not found"), format)
      : serializeAnswer(loaded.answer, format);
  const headers = {
    "Content-Type": CONTENT_TYPE[format],
    "Content-Language": language,
    "Cache-Control": CACHE_CONTROL,
    ETag: key.etag,
  };
  if (useCache) cacheStore(ctx, key, status, headers, body);
  // What the answer cost in D1, for clients and benchmarks (not stored with the cached copy).
  const timing = `d1;dur=${d1Time.toFixed(1)};desc="rows_read=${loaded.rowsRead}"`;
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
