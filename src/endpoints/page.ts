/**
 * GET /: a small search page for people (docs/architecture.md#the-search-page). No framework: the
 * markup in page-markup.ts, the behaviour in src/page/ (bundled into public/app.js, a static asset,
 * so that the Content-Security-Policy can forbid inline script). Results are built with
 * textContent only, never as HTML. The page credits the data served and shows the map tiles the
 * deployment sets; it is built once per credits and setting.
 */
import { servedCredits } from "../cache/served-credits.ts";
import type { Env } from "../env.ts";
import type { Credits } from "../data-contract/credits.ts";
import { DOCUMENT_CACHE } from "./openapi.ts";
import { pageHtml } from "./page-markup.ts";
import { mapTiles } from "./page-map.ts";

/**
 * Images from this origin (Leaflet's) and, with tiles, the tile host and `data:`: Leaflet stops a
 * tile it no longer needs by pointing it at a data: image (its emptyImageUrl), which the policy
 * would otherwise refuse, once per tile, with an error in the console.
 */
function pageCsp(tileSource: string | undefined): string {
  return (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; " +
    `img-src 'self'${tileSource === undefined ? "" : ` data: ${tileSource}`}; ` +
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
  );
}

let built: { credits: Credits; tiles: string; html: string } | null = null;

export async function page(_request: Request, env: Env): Promise<Response> {
  const credits = await servedCredits(env);
  const tiles = mapTiles(env);
  const setting = `${env.MAP_TILES}\n${env.MAP_ATTRIBUTION}`;
  if (built?.credits !== credits || built.tiles !== setting) {
    built = { credits, tiles: setting, html: pageHtml(credits, tiles) };
  }
  return new Response(built.html, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": DOCUMENT_CACHE,
      "Content-Security-Policy": pageCsp(tiles?.source),
      "Referrer-Policy": "no-referrer",
    },
  });
}
