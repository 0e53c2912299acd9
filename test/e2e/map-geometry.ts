/**
 * What the page's map shows, measured from outside, as a person sees it: where its markers are
 * drawn on the screen, and the Web Mercator projection (the map's) that takes the results' coords
 * there. From that projection, the coords at the map's edges: the box "search this area" must
 * ask for. Nothing here asks the page's script; with the tiles off, the markers are all there is.
 */
import type { Page } from "playwright-core";

export interface Point {
  lat: number;
  long: number;
}

export interface DrawnMarker {
  label: string;
  /** Its centre in CSS pixels from the map's top left corner; null when Leaflet left it undrawn (out of view). */
  at: { x: number; y: number } | null;
}

/** The map's inside on the screen (what Leaflet takes as its size); markers are drawn relative to its corner. */
export interface View {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Screen = scale × Mercator (0..1 over the world) + offset. */
export interface Projection {
  scale: number;
  dx: number;
  dy: number;
}

const mercatorX = (long: number) => (long + 180) / 360;
function mercatorY(lat: number): number {
  const sin = Math.sin((lat * Math.PI) / 180);
  return 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI);
}
const longAt = (x: number) => x * 360 - 180;
const latAt = (y: number) => (Math.atan(Math.exp((0.5 - y) * 2 * Math.PI)) * 360) / Math.PI - 90;

/** The markers of a kind (a CSS class), in the order the page drew them. */
export function drawnMarkers(page: Page, className = "result-marker"): Promise<DrawnMarker[]> {
  return page.evaluate((name) => {
    const map = document.getElementById("map");
    if (map === null) throw new Error("no #map");
    const origin = map.getBoundingClientRect();
    return [...map.querySelectorAll(`path.${name}`)].map((path) => {
      const r = path.getBoundingClientRect();
      const drawn = path.getAttribute("d") !== "M0 0" && r.width > 0;
      const x = r.left + r.width / 2 - origin.left - map.clientLeft;
      const y = r.top + r.height / 2 - origin.top - map.clientTop;
      return { label: path.getAttribute("aria-label") ?? "", at: drawn ? { x, y } : null };
    });
  }, className);
}

export function mapView(page: Page): Promise<View> {
  return page.evaluate(() => {
    const map = document.getElementById("map");
    if (map === null) throw new Error("no #map");
    const r = map.getBoundingClientRect();
    return {
      left: r.left + map.clientLeft,
      top: r.top + map.clientTop,
      width: map.clientWidth,
      height: map.clientHeight,
    };
  });
}

/** Waits until the map stops moving (animations, inertia): the markers in one place twice in a row. */
export async function settled(page: Page): Promise<DrawnMarker[]> {
  let last = "";
  for (let i = 0; i < 50; i++) {
    await page.waitForTimeout(150);
    const markers = await drawnMarkers(page);
    const now = JSON.stringify(markers);
    const animating = await page.locator("#map .leaflet-zoom-anim").count();
    if (now === last && animating === 0) return markers;
    last = now;
  }
  throw new Error("the map never stopped moving");
}

/** The projection that takes each point to its marker (pairs in order), from the two farthest apart. */
export function projectionOf(points: Point[], markers: DrawnMarker[]): Projection {
  const pairs = points.flatMap((p, i) => {
    const at = markers[i]?.at;
    return at ? [{ x: mercatorX(p.long), y: mercatorY(p.lat), at }] : [];
  });
  const west = pairs.reduce((a, b) => (b.x < a.x ? b : a));
  const east = pairs.reduce((a, b) => (b.x > a.x ? b : a));
  if (east.x - west.x < 1e-6) throw new Error("no two drawn markers apart");
  const scale = (east.at.x - west.at.x) / (east.x - west.x);
  return { scale, dx: west.at.x - scale * west.x, dy: west.at.y - scale * west.y };
}

/** How far, in pixels, a point is drawn from where the projection puts it. */
export function pixelsOff(projection: Projection, point: Point, at: { x: number; y: number }): number {
  const x = projection.scale * mercatorX(point.long) + projection.dx;
  const y = projection.scale * mercatorY(point.lat) + projection.dy;
  return Math.hypot(x - at.x, y - at.y);
}

/** The coords at the map's edges (longitudes unwrapped, as the map pans on round the world). */
export function edgesOf(projection: Projection, view: View) {
  const long = (x: number) => longAt((x - projection.dx) / projection.scale);
  const lat = (y: number) => latAt((y - projection.dy) / projection.scale);
  return { west: long(0), east: long(view.width), north: lat(0), south: lat(view.height) };
}

/** Pixels between two longitudes (the shorter way round) at a projection's scale. */
export function longitudePixels(projection: Projection, a: number, b: number): number {
  const degrees = Math.abs(((((a - b) % 360) + 540) % 360) - 180);
  return (degrees / 360) * projection.scale;
}

/** Pixels between two latitudes at a projection's scale. */
export const latitudePixels = (projection: Projection, a: number, b: number): number =>
  Math.abs(mercatorY(a) - mercatorY(b)) * projection.scale;
