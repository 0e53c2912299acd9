/** The documents: the OpenAPI description of the API, and the search page with its script. */
import { OPENAPI } from "../openapi.ts";
import { PAGE_CSP, PAGE_HTML } from "../page/html.ts";
import { app } from "../page/app.js";

export const DOCUMENT_PATHS = new Set(["/", "/app.js", "/1.0/openapi.json", "/rest/1.0/openapi.json"]);

const CACHE = "public, max-age=3600";
const OPENAPI_JSON = JSON.stringify(OPENAPI);

/**
 * /app.js: the source text of the page's function (src/page/app.js), called at once. The bundle
 * carries it as code, so it arrives minified in production and untouched by any build step.
 */
const PAGE_SCRIPT = `"use strict";\n(${app.toString()})();\n`;

export function openApi(): Response {
  return new Response(OPENAPI_JSON, { headers: { "Content-Type": "application/json", "Cache-Control": CACHE } });
}

export function page(): Response {
  return new Response(PAGE_HTML, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": CACHE,
      "Content-Security-Policy": PAGE_CSP,
      "Referrer-Policy": "no-referrer",
    },
  });
}

export function pageScript(): Response {
  return new Response(PAGE_SCRIPT, {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": CACHE },
  });
}
