/**
 * The answer pipeline of every search and lookup (docs/architecture.md#the-request-path):
 * negotiate the format and the language → cache key → cache → load (one D1 session: the query and
 * its shape) → serialize → cache. An empty answer is the contract's 404 "not found", cached like
 * an answer.
 */
import { CACHE_CONTROL, cacheKey, cacheLookup, cacheStore, ifNoneMatch } from "./cache/edge-cache.ts";
import { rememberedVersion, rememberVersion } from "./cache/data-version.ts";
import { Session, VersionChanged } from "./d1/session.ts";
import type { Env } from "./env.ts";
import { ApiError, errorBody } from "./http/errors.ts";
import { setHeaders, withoutBody } from "./http/responses.ts";
import type { Language } from "./data-contract/languages.ts";
import { negotiateLanguage } from "./http/language.ts";
import { requestUrl } from "./http/url.ts";
import { CONTENT_TYPE, negotiateFormat, type Format } from "./http/negotiate.ts";
import { serializeAnswer, serializeError } from "./serialize.ts";
import type { Answer } from "./shape.ts";

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

/** What a load from D1 gives: the answer (null for "not found") and headers that describe it. */
export interface Loaded {
  answer: Answer | null;
  headers?: Record<string, string>;
}

/** What an answer depends on besides the data: the path (without `/rest`), the canonical query, the format, the language, and a variant of the deployment. */
export interface Target extends Negotiated {
  path: string;
  canonicalQuery: string;
  variant?: string;
}

export async function answer(
  request: Request,
  env: Env,
  ctx: ExecutionContext,
  target: Target,
  /** `known`: the data version the isolate remembers (src/cache/data-version.ts), null after it changed. */
  load: (session: Session, known: string | null) => Promise<Loaded>,
): Promise<Response> {
  const { format, language } = target;
  const { origin } = requestUrl(request);
  const keyOf = (version: string) =>
    cacheKey(origin, target.path, target.canonicalQuery, format, language, version, target.variant ?? "");

  let session: Session | null = null;
  let version = rememberedVersion();
  if (version === null) {
    session = new Session(env.DB);
    version = await session.dataVersion();
    rememberVersion(version);
  }
  const useCache = env.EDGE_CACHE !== "off";
  const cached = useCache ? await cacheLookup(keyOf(version)) : undefined;
  if (cached !== undefined) return conditional(request, setHeaders(cached, { "X-Cache": "HIT" }));

  const started = performance.now();
  let loaded: Loaded;
  try {
    session ??= new Session(env.DB);
    loaded = await load(session, version);
  } catch (error) {
    // An import swapped in between two round trips of this answer, or before a round trip that
    // bound the long words of the import before it (src/match/long-word-book.ts), or a venue
    // database's with the main one's after the isolate kept the plan (src/d1/route.ts): start again, once.
    if (!(error instanceof VersionChanged)) throw error;
    session = new Session(env.DB);
    loaded = await load(session, null);
  }
  const d1Time = performance.now() - started;
  if (session.version !== null && session.version !== version) {
    version = session.version;
    rememberVersion(version);
  }
  const key = keyOf(version);
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
    ...loaded.headers,
  };
  if (useCache) cacheStore(ctx, key, status, headers, body);
  // What the answer cost in D1, for clients and benchmarks (not stored with the cached copy).
  // `databases`: main, and the venue databases that answered (docs/deploy.md#past-one-database).
  const databases = [...session.answeredBy].sort(byDatabase).join("+");
  const timing = `d1;dur=${d1Time.toFixed(1)};desc="rows_read=${session.rowsRead} round_trips=${session.trips} databases=${databases}"`;
  const all = { ...headers, "X-Cache": "MISS", "Server-Timing": timing };
  return conditional(request, new Response(body, { status, headers: all }));
}

/** "main" first, then the venue databases by number, whatever order a merge's databases answered in. */
const byDatabase = (a: string, b: string) => (a === "main" ? -1 : b === "main" ? 1 : Number(a) - Number(b));

/** 304 when the client already holds this entity. */
function conditional(request: Request, response: Response): Response {
  const asked = request.headers.get("If-None-Match");
  if (asked === null || response.status !== 200 || !ifNoneMatch(asked, response.headers.get("ETag"))) return response;
  const notModified = withoutBody(response, 304);
  notModified.headers.delete("Content-Type");
  return notModified;
}
