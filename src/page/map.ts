/**
 * The map beside the results (docs/architecture.md#the-search-page). Leaflet rather than MapLibre
 * GL: raster tiles as plain images, drawn without WebGL (so in any browser, headless Chromium
 * without a GPU among them), about 40 KB gzip, bundled into app.js. Results are circle markers
 * (SVG, no marker images to serve); the tiles are the deployment's setting (the map's data-tiles,
 * empty for none; without them, or when they fail to load, a note on the map says so). The map
 * fits the results, or the reach of "near me" around the browser's location; after "search this
 * area" it stays where the person put it. On a narrow screen it is behind "Show map".
 */
import {
  circle,
  circleMarker,
  layerGroup,
  map as leafletMap,
  point,
  tileLayer,
  type CircleMarker,
  type LatLngExpression,
  type LatLngTuple,
  type ZoomPanOptions,
} from "leaflet";
import { bboxParam, type Edges } from "./bbox.ts";
import { out, span } from "./dom.ts";
import { placeOf, whereIs, type Point, type Result } from "./places.ts";

/** Close enough to see the streets around one place, far enough to see its neighbours. */
const PLACE_ZOOM = 12;

/** The deepest zoom of OpenStreetMap's tiles, and of the map. */
const MAX_ZOOM = 19;

/**
 * From this zoom on the map shows a place, not a stretch of the world, and its centre is a focus
 * for the name's suggestions: Mapbox's geocoder control takes its map's centre above its zoom 9,
 * in tiles of 512 pixels, which is above Leaflet's 10.
 */
const FOCUS_ZOOM = 11;

/** Results framed clear of the map's edges and of its zoom buttons (top left). */
const FRAME = { paddingTopLeft: point(56, 24), paddingBottomRight: point(24, 24), maxZoom: PLACE_ZOOM };

const map = leafletMap(out.map, { attributionControl: false, worldCopyJump: false }).setView([30, 0], 1);
const tiles = out.map.dataset.tiles ?? "";
if (tiles) {
  // The page sends no Referer (Referrer-Policy); a tile server may ask for one, so tiles send the origin.
  tileLayer(tiles, { maxZoom: MAX_ZOOM, referrerPolicy: "strict-origin-when-cross-origin" })
    .on("tileerror", () => {
      out.tilesNote.textContent = "The map's tiles could not be loaded: the results are placed on a blank map.";
      out.tilesNote.hidden = false;
    })
    .on("tileload", () => {
      out.tilesNote.hidden = true;
    })
    .addTo(map);
}
const markers = layerGroup().addTo(map);
// Your location above the results (its own pane: a layer drawn later would cover it), not in the way of their clicks.
map.createPane("you").style.zIndex = "450";
const you = layerGroup().addTo(map);

/** Counts plots, so that only the latest search's places are drawn. */
let plots = 0;

/** A marker as an image with a name: an SVG path may carry a name only with a role (ARIA). */
function named(m: CircleMarker, label: string): void {
  m.getElement()?.setAttribute("role", "img");
  m.getElement()?.setAttribute("aria-label", label);
}

/** The place on OpenStreetMap's own site, in a new tab, which the link says: the page stays as it is. */
function osmLink({ lat, long }: Point): HTMLAnchorElement {
  const link = document.createElement("a");
  link.href = `https://www.openstreetmap.org/?mlat=${lat}&mlon=${long}#map=${PLACE_ZOOM}/${lat}/${long}`;
  link.textContent = "Open in OpenStreetMap (new tab)";
  link.rel = "noopener";
  link.target = "_blank";
  return link;
}

function popup(result: Result, point: Point): HTMLElement {
  const content = document.createElement("div");
  content.append(span(result.name, "name"));
  if (whereIs(result)) content.append(document.createElement("br"), whereIs(result));
  content.append(document.createElement("br"), osmLink(point));
  return content;
}

function marker(result: Result, point: Point): CircleMarker {
  const m = circleMarker([point.lat, point.long], {
    radius: 7,
    weight: 2,
    fillOpacity: 0.85,
    className: "result-marker",
  });
  m.bindPopup(popup(result, point)).addTo(markers);
  named(m, [result.name, whereIs(result)].filter(Boolean).join(" — "));
  return m;
}

/**
 * A change of view, now, or once the map is shown when it is hidden (behind "Show map" on a narrow
 * screen, where it has no size to frame anything in): the latest one waits, and is made unanimated
 * when the map shows, since a view set while Leaflet animates a zoom is dropped (a result's "show on map").
 */
let waiting: ((options: ZoomPanOptions) => void) | null = null;
function whenShown(change: (options: ZoomPanOptions) => void): void {
  waiting = out.map.clientWidth > 0 ? null : change;
  if (waiting === null) change({});
}

/** Shows or hides the map behind "Show map" (a narrow screen); shown, it takes its size and any view that waited. */
export function showMap(shown: boolean): void {
  out.split.classList.toggle("map-open", shown);
  out.showMap.setAttribute("aria-expanded", String(shown));
  out.showMap.textContent = shown ? "Hide map" : "Show map";
  if (!shown) return;
  map.invalidateSize();
  const change = waiting;
  waiting = null;
  change?.({ animate: false });
}

/**
 * A "show on map" button for a result of the list (the list is in the results' order), for a
 * pointer: out of the Tab order, so that a result is one Tab stop, its own link (src/page/results.ts),
 * which opens the record on the map.
 */
function showButton(index: number, m: CircleMarker): void {
  const button = document.createElement("button");
  button.type = "button";
  button.tabIndex = -1;
  button.className = "link show";
  button.textContent = "show on map";
  button.addEventListener("click", () => {
    showMap(true);
    out.map.scrollIntoView({ block: "nearest" });
    // Opened once the map is there: opened as it zooms, the popup was placed and kept inside the map
    // for the view before (on a phone it ran 83 px past the map's edge, its close button hidden).
    map.once("moveend", () => m.openPopup());
    map.setView(m.getLatLng(), Math.max(map.getZoom(), PLACE_ZOOM));
  });
  out.results.children[index]?.querySelector(".meta")?.append(" · ", button);
}

/** Puts a page of results on the map (each at its place, once known); `fit` frames them. */
export async function plot(results: Result[], fit: boolean): Promise<void> {
  const plot = ++plots;
  out.mapinfo.textContent = results.length ? "Placing the results …" : "";
  const points = await Promise.all(results.map(placeOf));
  if (plot !== plots) return;
  markers.clearLayers();
  const placed: LatLngTuple[] = [];
  points.forEach((point, i) => {
    const result = results[i];
    if (point === null || result === undefined) return;
    showButton(i, marker(result, point));
    placed.push([point.lat, point.long]);
  });
  if (results.length) out.mapinfo.textContent = `${placed.length} of ${results.length} on the map.`;
  // One place is centred (framed, it would sit off centre by the padding kept clear of the zoom buttons).
  const [only] = placed;
  if (fit && placed.length === 1 && only) whenShown((options) => map.setView(only, PLACE_ZOOM, options));
  else if (fit && placed.length) whenShown((options) => map.fitBounds(placed, { ...FRAME, ...options }));
}

/** The map without results. */
export const unplot = (): Promise<void> => plot([], false);

/** Shows the browser's location and the reach of a search near it, centred; null: neither. */
export function showReach(position: { lat: string; long: string } | null, radiusKm: number): void {
  you.clearLayers();
  if (position === null) return;
  const centre: LatLngExpression = [Number(position.lat), Number(position.long)];
  const drawn = { pane: "you", interactive: false, weight: 1 };
  const reach = circle(centre, { ...drawn, radius: radiusKm * 1000, fillOpacity: 0.06, className: "you-reach" });
  reach.addTo(you);
  const here = circleMarker(centre, { ...drawn, radius: 6, weight: 2, fillOpacity: 1, className: "you-marker" });
  here.addTo(you);
  named(here, "Your location");
  whenShown((options) => map.setView(centre, map.getBoundsZoom(reach.getBounds()), options));
}

/**
 * Shows a box of a search the page's address names, as the map showed it when its area was
 * searched. The box was rounded outwards from that view (src/page/bbox.ts): fitted a hair inside
 * it, the map takes that view's zoom again rather than the next one out.
 */
export function frameBox(edges: Edges): void {
  const inset = 2e-5;
  const box: LatLngTuple[] = [
    [edges.south + inset, edges.west + inset],
    [edges.north - inset, edges.east - inset],
  ];
  whenShown((options) => map.fitBounds(box, { maxZoom: MAX_ZOOM, ...options }));
}

/** The map's centre while it is shown and shows a place, to 2 decimals (about a kilometre); else null. */
export function placeShown(): { lat: string; long: string } | null {
  if (out.map.clientWidth === 0 || map.getZoom() < FOCUS_ZOOM) return null;
  const centre = map.getCenter().wrap();
  return { lat: centre.lat.toFixed(2), long: centre.lng.toFixed(2) };
}

/** The `bbox` of what the map shows now. */
export function viewBox(): string {
  const view = map.getBounds();
  return bboxParam({ west: view.getWest(), south: view.getSouth(), east: view.getEast(), north: view.getNorth() });
}
