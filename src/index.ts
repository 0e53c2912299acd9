/**
 * Venue & City Search: the worker (docs/architecture.md#the-request-path). A request goes
 * route (routes.ts) → access (http/access.ts) → endpoint (endpoints/: format negotiated, parameters
 * parsed) → the answer pipeline (pipeline.ts: cache key → cache → query → shape → serialize → cache).
 * Every error is an ApiError answered here, in one envelope; anything else is a 500.
 */
import { Router, type IRequest } from "itty-router";
import type { Env } from "./env.ts";
import { enforceRateLimit, requireApiKey } from "./http/access.ts";
import { ApiError, errorBody } from "./http/errors.ts";
import { pageFile } from "./http/files.ts";
import { CONTENT_TYPE, negotiateFormat, type Format } from "./http/negotiate.ts";
import { ALLOWED_METHODS, COMMON_HEADERS, PREFLIGHT_HEADERS, setHeaders, withoutBody } from "./http/responses.ts";
import { requestUrl } from "./http/url.ts";
import { isOpenPath, ROUTES } from "./routes.ts";
import { serializeError } from "./serialize.ts";

type Args = [Env, ExecutionContext];

const router = Router<IRequest, Args>({
  before: [rejectExtraSlashes, checkAccess],
  catch: toErrorResponse,
  finally: [finish],
});

const preflight = () => new Response(null, { status: 204, headers: { Allow: ALLOWED_METHODS, ...PREFLIGHT_HEADERS } });
const methodNotAllowed = () => {
  throw new ApiError(405, "method not allowed: use GET, HEAD or OPTIONS", { Allow: ALLOWED_METHODS });
};

for (const { path, handler } of ROUTES) {
  router.get(path, handler).head(path, handler).options(path, preflight).all(path, methodNotAllowed);
}
router.all("*", () => {
  throw new ApiError(404, "not found: see /1.0/openapi.json for the routes");
});

/** itty-router tolerates any number of trailing slashes; the contract tolerates one. */
function rejectExtraSlashes(request: IRequest): void {
  if (requestUrl(request).path.endsWith("//")) throw new ApiError(404, "not found");
}

/**
 * API key and rate limit, for every request but a CORS preflight (which cannot carry a key).
 * Open documents need no key (a browser cannot send one when it opens a page); they count
 * against the rate limit all the same.
 */
async function checkAccess(request: IRequest, env: Env): Promise<void> {
  if (request.method === "OPTIONS") return;
  const open = isOpenPath(requestUrl(request).path);
  await enforceRateLimit(request, env, open ? null : await requireApiKey(request, env));
}

/** The one error envelope (docs/api.md#errors), in the format asked for; never cached. */
function errorResponse(status: number, message: string, format: Format, headers: Record<string, string> = {}) {
  return new Response(serializeError(errorBody(status, message), format), {
    status,
    headers: { "Content-Type": CONTENT_TYPE[format], "Cache-Control": "no-store", ...headers },
  });
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
      return (await pageFile(request, env)) ?? (await router.fetch(request, env, ctx));
    } catch (error) {
      // The router answers every error itself; this is the net under the net.
      console.error("unhandled error", error);
      return setHeaders(errorResponse(500, "internal error", "json"), COMMON_HEADERS);
    }
  },
} satisfies ExportedHandler<Env>;
