/**
 * "Search this area": the map's view as the `bbox` parameter (docs/architecture.md#the-search-page),
 * `minLong,minLat,maxLong,maxLat` in decimal degrees, the GeoJSON order. Longitudes are wrapped
 * into [-180, 180] (the map pans on round the world); a view across the antimeridian gives
 * minLong > maxLong, as the API allows; a view wider than the world is the whole range. Rounded
 * outwards to 5 decimals (about a metre), so the box never cuts off what the map shows. And back:
 * the edges of a box the page's address holds, to show it again.
 */

/** A view's edges as the map reports them: longitudes unwrapped (east − west is the width). */
export interface Edges {
  west: number;
  south: number;
  east: number;
  north: number;
}

const STEP = 1e5;

const down = (degrees: number) => Math.floor(degrees * STEP) / STEP;
const up = (degrees: number) => Math.ceil(degrees * STEP) / STEP;
const clamp = (degrees: number, limit: number) => Math.max(-limit, Math.min(limit, degrees));

/** A longitude in [-180, 180): 180 is −180. */
const wrap = (long: number) => ((((long + 180) % 360) + 360) % 360) - 180;

/** The view's longitudes, wrapped: [min, max], min > max across the antimeridian. */
function longitudes(west: number, east: number): [number, number] {
  if (east - west >= 360) return [-180, 180];
  const min = wrap(west);
  const max = wrap(east);
  // An east edge on the antimeridian is its +180 side.
  return [min, max === -180 ? 180 : max];
}

export function bboxParam(edges: Edges): string {
  const [minLong, maxLong] = longitudes(edges.west, edges.east);
  const box = [
    clamp(down(minLong), 180),
    clamp(down(edges.south), 90),
    clamp(up(maxLong), 180),
    clamp(up(edges.north), 90),
  ];
  return box.map((d) => String(Object.is(d, -0) ? 0 : d)).join(",");
}

const isNumber = (text: string) => /^-?\d+(\.\d+)?$/.test(text);

/**
 * The edges of a `bbox` the page sent (an address holds it), east unwrapped as the map reports
 * it (east − west is the width, across the antimeridian too); null when it is not a box the API
 * takes.
 */
export function boxEdges(bbox: string): Edges | null {
  const parts = bbox.split(",");
  if (parts.length !== 4 || !parts.every(isNumber)) return null;
  const [west, south, east, north] = parts.map(Number) as [number, number, number, number]; // four, as checked
  const inRange = [west, east].every((long) => Math.abs(long) <= 180) && Math.abs(south) <= 90 && Math.abs(north) <= 90;
  if (!inRange || south > north) return null;
  return { west, south, east: east < west ? east + 360 : east, north };
}
