/** Response building shared by every route: common headers, error responses (docs/api.md#formats, #errors, #cross-origin). */
import { errorBody } from "./errors.ts";
import { CONTENT_TYPE, type Format } from "./negotiate.ts";
import { serializeError } from "../serialize.ts";

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

export function errorResponse(
  status: number,
  message: string,
  format: Format,
  headers: Record<string, string> = {},
): Response {
  return new Response(serializeError(errorBody(status, message), format), {
    status,
    headers: { "Content-Type": CONTENT_TYPE[format], "Cache-Control": "no-store", ...headers },
  });
}

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
