/**
 * Venue & City Search: setlist.fm's /1.0/search/venues and /1.0/search/cities on D1, the
 * /1.0/venue/{id} and /1.0/city/{geoId} lookups, the OpenAPI document, and a search page at /.
 * The API is also under /rest/1.0, so a client built for https://api.setlist.fm/rest only swaps
 * the host.
 */
import { Router, type IRequest } from "itty-router";
import { enforceRateLimit, requireApiKey } from "./access.ts";
import type { Env } from "./env.ts";
import { ApiError } from "./errors.ts";
import { DOCUMENT_PATHS, openApi, page, pageScript } from "./handlers/documents.ts";
import { city, venue } from "./handlers/lookup.ts";
import { search } from "./handlers/search.ts";
import { ALLOWED_METHODS, COMMON_HEADERS, errorResponse, PREFLIGHT_HEADERS, setHeaders, withoutBody } from "./http.ts";
import { negotiateFormat } from "./negotiate.ts";

type Args = [Env, ExecutionContext];

const router = Router<IRequest, Args>({
  before: [rejectExtraSlashes, checkAccess],
  catch: toErrorResponse,
  finally: [finish],
});

type Handler = (request: IRequest, env: Env, ctx: ExecutionContext) => Promise<Response> | Response;

/** GET and HEAD to `handler`, OPTIONS for CORS preflights, 405 for anything else. */
function route(path: string, handler: Handler): void {
  router.get(path, handler);
  router.head(path, handler);
  router.options(
    path,
    () => new Response(null, { status: 204, headers: { Allow: ALLOWED_METHODS, ...PREFLIGHT_HEADERS } }),
  );
  router.all(path, () => {
    throw new ApiError(405, "method not allowed: use GET, HEAD or OPTIONS", { Allow: ALLOWED_METHODS });
  });
}

for (const base of ["/1.0", "/rest/1.0"]) {
  for (const resource of ["venues", "cities"] as const) {
    route(`${base}/search/${resource}`, (request, env, ctx) => search(resource, request, env, ctx));
  }
  route(`${base}/venue/:id`, (request, env, ctx) => venue(request.params.id ?? "", request, env, ctx));
  route(`${base}/city/:id`, (request, env, ctx) => city(request.params.id ?? "", request, env, ctx));
  route(`${base}/openapi.json`, openApi);
}
route("/", page);
route("/app.js", pageScript);
router.all("*", () => {
  throw new ApiError(404, "not found: see /1.0/openapi.json for the routes");
});

/** The path of a request URL, cheaper than parsing it whole (the hot path runs this twice). */
function pathname(url: string): string {
  const query = url.indexOf("?");
  const path = url.slice(url.indexOf("/", url.indexOf("//") + 2), query < 0 ? url.length : query);
  return path === "" ? "/" : path;
}

/** itty-router tolerates any number of trailing slashes; the contract tolerates one. */
function rejectExtraSlashes(request: IRequest): void {
  if (pathname(request.url).endsWith("//")) throw new ApiError(404, "not found");
}

/**
 * API key and rate limit, for every request but a CORS preflight (which cannot carry a key).
 * The page and the OpenAPI document need no key (a browser cannot send one when it opens a
 * page); they count against the rate limit all the same.
 */
async function checkAccess(request: IRequest, env: Env): Promise<void> {
  if (request.method === "OPTIONS") return;
  const documents = DOCUMENT_PATHS.has(pathname(request.url));
  await enforceRateLimit(request, env, documents ? null : await requireApiKey(request, env));
}

function toErrorResponse(error: unknown, request: IRequest): Response {
  const format = negotiateFormat(request.headers.get("Accept")) ?? "json";
  if (error instanceof ApiError) return errorResponse(error.status, error.message, format, error.headers);
  console.error("unexpected error", error);
  return errorResponse(500, "internal error", format);
}

/** The headers every response carries; a HEAD request gets them without the body. */
function finish(response: Response, request: IRequest): Response {
  setHeaders(response, COMMON_HEADERS);
  return request.method === "HEAD" ? withoutBody(response) : response;
}

export default {
  async fetch(request, env, ctx) {
    try {
      return await router.fetch(request, env, ctx);
    } catch (error) {
      // The router answers every error itself; this is the net under the net.
      console.error("unhandled error", error);
      return setHeaders(errorResponse(500, "internal error", "json"), COMMON_HEADERS);
    }
  },
} satisfies ExportedHandler<Env>;
