/**
 * The search page's map tiles, a deployment setting (docs/deploy.md#map-tiles): `MAP_TILES`, a
 * tile URL template ({z}/{x}/{y}, optionally {s} as the first label of the host), empty for
 * OpenStreetMap's tiles, "off" for none (the map shows the results on a blank ground; the browser
 * test runs so, without network); `MAP_ATTRIBUTION`, the tiles' credit, empty for OpenStreetMap's.
 * The page's Content-Security-Policy allows images from the tile host and nowhere else.
 */
import type { Env } from "../env.ts";

const OSM_TILES = "https://tile.openstreetmap.org/{z}/{x}/{y}.png";
const OSM_ATTRIBUTION = "[© OpenStreetMap contributors](https://www.openstreetmap.org/copyright)";

export interface MapTiles {
  /** The URL template, as Leaflet takes it. */
  url: string;
  /** The CSP source that allows the tiles: the template's scheme and host, `*.` for {s}. */
  source: string;
  /** The tiles' credit: text with `[text](https://…)` links. */
  attribution: string;
}

/** A template's CSP source, or null for a template this page cannot load safely. */
function cspSource(template: string): string | null {
  const parts = /^(https?):\/\/([^/?#]+)\/[^\s]*$/i.exec(template);
  if (parts === null || !["{z}", "{x}", "{y}"].every((p) => template.includes(p))) return null;
  const host = (parts[2] ?? "").replace(/^\{s\}\./, "*.");
  return /^(\*\.)?[a-z0-9.-]+(:\d+)?$/i.test(host) ? `${(parts[1] ?? "").toLowerCase()}://${host}` : null;
}

/** The tiles the page shows, or null when they are off (or the setting is unusable: logged). */
export function mapTiles(env: Env): MapTiles | null {
  const setting = env.MAP_TILES.trim();
  if (setting === "off") return null;
  const url = setting || OSM_TILES;
  const source = cspSource(url);
  if (source === null) {
    console.error(`MAP_TILES is not a tile URL template (https://host/{z}/{x}/{y}…): ${url}; the map has no tiles`);
    return null;
  }
  return { url, source, attribution: env.MAP_ATTRIBUTION.trim() || OSM_ATTRIBUTION };
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** An attribution as HTML: its text escaped, its `[text](https://…)` links as links. */
export function attributionHtml(attribution: string): string {
  const link = /\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g;
  let html = "";
  let at = 0;
  for (const match of attribution.matchAll(link)) {
    html += escapeHtml(attribution.slice(at, match.index));
    html += `<a href="${escapeHtml(match[2] ?? "")}">${escapeHtml(match[1] ?? "")}</a>`;
    at = match.index + match[0].length;
  }
  return html + escapeHtml(attribution.slice(at));
}
