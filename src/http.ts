/** Response building shared by every route: common headers, error responses (SPEC §5, §6, §8). */
import { errorBody } from "./errors";
import { CONTENT_TYPE, type Format } from "./negotiate";
import { serializeError } from "./serialize";

export const ALLOWED_METHODS = "GET, HEAD, OPTIONS";

/** Headers every response carries. */
export const COMMON_HEADERS: Record<string, string> = {
  Vary: "Accept, Accept-Language",
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "ETag, X-Cache",
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

/** A copy of a response with headers set (responses from the cache have immutable headers). */
export function withHeaders(
  response: Response,
  headers: Record<string, string>,
  init: { body?: boolean; status?: number } = {},
): Response {
  const copy = new Response(init.body === false ? null : response.body, {
    status: init.status ?? response.status,
    headers: response.headers,
  });
  for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value);
  return copy;
}
