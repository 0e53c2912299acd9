/**
 * Venue & City Search: setlist.fm's /1.0/search/venues and /1.0/search/cities on D1.
 * Also under /rest/1.0, so a client built for https://api.setlist.fm/rest only swaps the host.
 */
import { Router, type IRequest } from "itty-router";
import type { Env } from "./env";
import { ApiError } from "./errors";
import { search } from "./handlers/search";
import { ALLOWED_METHODS, COMMON_HEADERS, errorResponse, PREFLIGHT_HEADERS, setHeaders, withoutBody } from "./http";
import { negotiateFormat } from "./negotiate";

type Args = [Env, ExecutionContext];

const router = Router<IRequest, Args>({
  before: [rejectExtraSlashes],
  catch: toErrorResponse,
  finally: [withCommonHeaders],
});

for (const base of ["/1.0", "/rest/1.0"]) {
  for (const resource of ["venues", "cities"] as const) {
    const path = `${base}/search/${resource}`;
    router.get(path, (request, env, ctx) => search(resource, request, env, ctx));
    router.head(path, async (request, env, ctx) => withoutBody(await search(resource, request, env, ctx)));
    router.options(
      path,
      () => new Response(null, { status: 204, headers: { Allow: ALLOWED_METHODS, ...PREFLIGHT_HEADERS } }),
    );
    router.all(path, () => {
      throw new ApiError(405, "method not allowed: use GET, HEAD or OPTIONS", { Allow: ALLOWED_METHODS });
    });
  }
}
router.all("*", () => {
  throw new ApiError(404, "not found: the routes are /1.0/search/venues and /1.0/search/cities");
});

/** itty-router tolerates any number of trailing slashes; the contract tolerates one. */
function rejectExtraSlashes(request: IRequest): void {
  const url = request.url;
  const query = url.indexOf("?");
  if ((query < 0 ? url : url.slice(0, query)).endsWith("//")) throw new ApiError(404, "not found");
}

function toErrorResponse(error: unknown, request: IRequest): Response {
  const format = negotiateFormat(request.headers.get("Accept")) ?? "json";
  if (error instanceof ApiError) return errorResponse(error.status, error.message, format, error.headers);
  console.error("unexpected error", error);
  return errorResponse(500, "internal error", format);
}

function withCommonHeaders(response: Response): Response {
  return setHeaders(response, COMMON_HEADERS);
}

export default {
  fetch: (request, env, ctx) => router.fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;
