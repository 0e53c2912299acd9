/** Response building shared by every route: common headers, preflights (docs/api.md#formats, #cross-origin). */

export const ALLOWED_METHODS = "GET, HEAD, OPTIONS";

/** Headers every response carries. */
export const COMMON_HEADERS: Record<string, string> = {
  Vary: "Accept, Accept-Language",
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "ETag, X-Cache, X-Match, X-Corrected-Name, X-Read-As, X-Total-Relation",
  "X-Content-Type-Options": "nosniff",
};

export const PREFLIGHT_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Methods": "GET, HEAD",
  "Access-Control-Allow-Headers": "Accept, Accept-Language, If-None-Match, x-api-key",
  "Access-Control-Max-Age": "86400",
};

/**
 * Sets headers on a response and returns it. Every response here is built by this worker (cached
 * answers are rebuilt from their bytes), so its headers are mutable and no copy is needed.
 */
export function setHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/** The same headers with another status, without the body (HEAD, 304). */
export function withoutBody(response: Response, status = response.status): Response {
  return new Response(null, { status, headers: response.headers });
}
