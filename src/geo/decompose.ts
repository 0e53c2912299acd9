/**
 * An area as grid cells (src/data-contract/grid.ts), computed without the data: quadtree cells from
 * START_LEVEL down, each wholly inside the area (kept as a range of finest cells), wholly outside
 * (dropped), or on its edge (divided, down to the edge level: about the area's size ÷
 * EDGE_DIVISIONS). Pure.
 */
import { cellToken, cellXY, FINEST_LEVEL, GRID_LEVELS, morton } from "../data-contract/grid.ts";
import { spanOf } from "./area.ts";
import { boxReachKm, EARTH_RADIUS_KM, haversineKm, isCircle, type Area } from "../data-contract/distance.ts";

/** The level the decomposition starts from (cells of 45° × 22.5°). */
const START_LEVEL = 3;
/** Cells on the edge are about the area's size ÷ EDGE_DIVISIONS: finer means more cells, fewer records measured. */
const EDGE_DIVISIONS = 8;
/** Lengths are compared with this much room, so that rounding cannot put a cell on the wrong side. */
const SLACK_KM = 1e-6;

/** A cell of a level at column x, row y, and its Morton code. */
export interface GridCell {
  level: number;
  x: number;
  y: number;
  cell: number;
}

export interface Decomposed {
  /** Ranges [lo, hi) of finest cells wholly inside the area, sorted, neighbours joined. */
  inside: [number, number][];
  /** The cells on its edge, at the edge level. */
  edge: GridCell[];
}

type Place = "inside" | "outside" | "edge";

interface Bounds {
  south: number;
  north: number;
  west: number;
  east: number;
}

function bounds(level: number, x: number, y: number): Bounds {
  const n = 2 ** level;
  return {
    west: (x / n) * 360 - 180,
    east: ((x + 1) / n) * 360 - 180,
    south: (y / n) * 180 - 90,
    north: ((y + 1) / n) * 180 - 90,
  };
}

/**
 * Where a cell lies: for a circle, by the distance from its centre to the cell's, give or take
 * the distance from the cell's centre to its farthest corner; for a box, exactly.
 */
function placeOf(area: Area, b: Bounds): Place {
  if (isCircle(area)) {
    const lat = (b.south + b.north) / 2;
    const lng = (b.west + b.east) / 2;
    const reach = boxReachKm(b);
    const d = haversineKm(area.lat, area.lng, lat, lng);
    if (d - reach > area.radiusKm + SLACK_KM) return "outside";
    return d + reach < area.radiusKm - SLACK_KM ? "inside" : "edge";
  }
  const span = spanOf(area);
  const latIn = b.south >= span.south && b.north <= span.north;
  const latOut = b.north < span.south || b.south > span.north;
  const lngIn = span.lngRanges.some(([w, e]) => b.west >= w && b.east <= e);
  const lngOut = span.lngRanges.every(([w, e]) => b.east < w || b.west > e);
  if (latOut || lngOut) return "outside";
  return latIn && lngIn ? "inside" : "edge";
}

/** The level of an area's edge cells. */
function edgeLevel(area: Area): number {
  let degrees: number;
  if (isCircle(area)) degrees = (Math.max(area.radiusKm, 1e-3) / (Math.PI * EARTH_RADIUS_KM)) * 180;
  else {
    const span = spanOf(area);
    const width = span.lngRanges.reduce((sum, [w, e]) => sum + e - w, 0);
    // Cells are twice as wide as tall, in degrees.
    degrees = Math.max(Math.min(span.north - span.south, width / 2), 1e-5);
  }
  const wanted = Math.ceil(Math.log2((EDGE_DIVISIONS * 180) / degrees));
  return Math.min(FINEST_LEVEL, Math.max(START_LEVEL + 1, wanted));
}

const range = (level: number, x: number, y: number): [number, number] => {
  const size = 4 ** (FINEST_LEVEL - level);
  const lo = morton(x, y, level) * size;
  return [lo, lo + size];
};

/** At most about this many cells on an edge: a thinner area is cut coarser. */
const MAX_EDGE_CELLS = 256;

/**
 * The decomposition at the finest level, up to the area's edge level, whose edge has at most
 * MAX_EDGE_CELLS cells. Tried from the coarsest up, each try stopping once its edge passes the
 * most: a thin strip across the world or a circle at a pole costs a few thousand cells, where
 * trying from the finest down visited millions (half a second of a request's CPU for a strip of
 * 0.01° of latitude, 2 s for a point at a pole). An edge grows with the level, but for cells
 * around a pole (of 3,000 random areas, one, 100 m from a pole): there the cut may be coarser than
 * the finest one within the most, and is as exact (its records are measured).
 */
export function decompose(area: Area): Decomposed {
  let best = decomposeTo(area, START_LEVEL + 1, Infinity) ?? { inside: [], edge: [] };
  for (let finest = START_LEVEL + 2; finest <= edgeLevel(area); finest++) {
    const cut = decomposeTo(area, finest, MAX_EDGE_CELLS);
    if (cut === null) break;
    best = cut;
  }
  return best;
}

/** The area's cells down to level `finest`, or null as soon as its edge has more than `most` cells. */
function decomposeTo(area: Area, finest: number, most: number): Decomposed | null {
  const inside: [number, number][] = [];
  const edge: GridCell[] = [];
  const visit = (level: number, x: number, y: number): boolean => {
    const place = placeOf(area, bounds(level, x, y));
    if (place === "outside") return true;
    if (place === "inside") inside.push(range(level, x, y));
    else if (level >= finest) edge.push({ level, x, y, cell: morton(x, y, level) });
    else return KIDS.every(([dx, dy]) => visit(level + 1, 2 * x + dx, 2 * y + dy));
    return edge.length <= most;
  };
  const n = 2 ** START_LEVEL;
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) if (!visit(START_LEVEL, x, y)) return null;
  return { inside: merged(inside), edge };
}

const KIDS = [
  [0, 0],
  [1, 0],
  [0, 1],
  [1, 1],
] as const;

/** Ranges sorted, neighbours joined. */
function merged(ranges: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const [lo, hi] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1];
    if (last !== undefined && last[1] === lo) last[1] = hi;
    else out.push([lo, hi]);
  }
  return out;
}

/**
 * The cells of a level wholly inside an area (Morton codes), or null when there are more than
 * `max` (or the area's span holds more than 4 × `max` cells: most of them would be).
 */
function cellsInside(area: Area, level: number, max: number): number[] | null {
  const span = spanOf(area);
  const [south, north] = [cellXY(level, span.south, 0).y, cellXY(level, span.north, 0).y];
  const columns = span.lngRanges.map(([west, east]) => [cellXY(level, 0, west).x, cellXY(level, 0, east).x] as const);
  if ((north - south + 1) * columns.reduce((n, [x0, x1]) => n + x1 - x0 + 1, 0) > 4 * max) return null;
  const cells: number[] = [];
  for (const [x0, x1] of columns) {
    for (let y = south; y <= north; y++) {
      for (let x = x0; x <= x1; x++) {
        if (placeOf(area, bounds(level, x, y)) !== "inside") continue;
        if (cells.length >= max) return null;
        cells.push(morton(x, y, level));
      }
    }
  }
  return cells;
}

/**
 * The tokens of grid cells wholly inside an area, at the finest level of GRID_LEVELS with at most
 * `max` of them (none when even the coarsest has none): every record they hold is inside it.
 */
export function insideTokens(area: Area, max: number): string[] {
  let best: string[] = [];
  for (const level of GRID_LEVELS) {
    const cells = cellsInside(area, level, max);
    if (cells === null) break;
    if (cells.length > 0) best = cells.map((cell) => cellToken(level, cell));
  }
  return best;
}
