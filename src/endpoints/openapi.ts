/** GET /1.0/openapi.json: the OpenAPI document of the API (src/openapi/document.ts). */
import { OPENAPI } from "../openapi/document.ts";

/** How long a browser may keep the documents. */
export const DOCUMENT_CACHE = "public, max-age=3600";

const OPENAPI_JSON = JSON.stringify(OPENAPI);

export function openApi(): Response {
  return new Response(OPENAPI_JSON, {
    headers: { "Content-Type": "application/json", "Cache-Control": DOCUMENT_CACHE },
  });
}
