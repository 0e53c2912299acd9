/**
 * An area as grid cells (src/data-contract/grid.ts), computed without the data: quadtree cells from
 * START_LEVEL down, each wholly inside the area (kept as a range of finest cells), wholly outside
 * (dropped), or on its edge (divided, down to the edge level: about the area's size ÷
 * EDGE_DIVISIONS). Pure.
 */
import { cellToken, cellXY, FINEST_LEVEL, GRID_LEVELS, morton } from "../data-contract/grid.ts";
import { spanOf } from "./area.ts";
import { boxReachKm, EARTH_RADIUS_KM, haversineKm, isCircle, type Area } from "../data-contract/distance.ts";
import { boxLongitudes, type ShardBox } from "../data-contract/shards.ts";

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

export type Place = "inside" | "outside" | "edge";

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
  // A cell holds the points of [west, east) × [south, north), its last column's and row's at 180°
  // and 90° too (grid.ts cellXY): one that touches the box only at the box's west or south side holds none.
  const latOut = (b.north <= span.south && b.north < 90) || b.south > span.north;
  const lngIn = span.lngRanges.some(([w, e]) => b.west >= w && b.east <= e);
  const lngOut = span.lngRanges.every(([w, e]) => (b.east <= w && b.east < 180) || b.west > e);
  if (latOut || lngOut) return "outside";
  return latIn && lngIn ? "inside" : "edge";
}

/** Whether a cell's bounds meet a box (touching counts: a point on their border may be in either). */
function meets(b: Bounds, [south, west, north, east]: ShardBox): boolean {
  if (b.south > north || b.north < south) return false;
  return boxLongitudes([south, west, north, east]).some(([w, e]) => b.west <= e && b.east >= w);
}

/**
 * Where a cell lies in an area whose records all lie `within` some boxes (a venue database's
 * bounds: src/data-contract/shards.ts): outside where it meets none of them, as it holds none.
 */
function placeWithin(area: Area, b: Bounds, within: readonly ShardBox[] | undefined): Place {
  const where = placeOf(area, b);
  return where === "outside" || within === undefined || within.some((box) => meets(b, box)) ? where : "outside";
}

/** Where the cell of a level at column x, row y lies in an area. */
export const cellPlace = (area: Area, level: number, x: number, y: number): Place => placeOf(area, bounds(level, x, y));

/** The level of an area's edge cells. */
export function edgeLevel(area: Area): number {
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
 * MAX_EDGE_CELLS cells: the cells of the edge opened one level at a time, from the coarsest, each
 * level's edge kept while it has at most that many (a cell inside or outside is so at every finer
 * level: each level adds to the one before). A thin strip across the world or a circle at a pole
 * stops at a coarse level after a few thousand cells, where cutting from the finest down visited
 * millions; cutting each level from the start again visited the coarse levels once per level (a
 * tenth of a near search's CPU at 10 km, 2026-12-02). An edge grows with the level, but for cells
 * around a pole (of 3,000 random areas, one, 100 m from a pole): there the cut may be coarser than
 * the finest one within the most, and is as exact (its records are measured).
 */
export function decompose(area: Area, within?: readonly ShardBox[]): Decomposed {
  const n = 2 ** START_LEVEL;
  const inside: [number, number][] = [];
  let edge: GridCell[] = [];
  const placed = { area, within };
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++)
      place(placed, { level: START_LEVEL, x, y, cell: morton(x, y, START_LEVEL) }, inside, edge);
  }
  edge = opened(placed, edge, inside, Infinity) ?? edge;
  let best = { inside: merged(inside), edge };
  for (let level = START_LEVEL + 2; level <= edgeLevel(area); level++) {
    const next = opened(placed, best.edge, inside, MAX_EDGE_CELLS);
    if (next === null) break;
    best = { inside: merged(inside), edge: next };
  }
  return best;
}

/** An area, and the boxes its records all lie within (none: anywhere). */
interface Placed {
  area: Area;
  within: readonly ShardBox[] | undefined;
}

/** A cell placed: its range added to `inside`, or it added to `edge`, or nothing (outside). */
function place({ area, within }: Placed, c: GridCell, inside: [number, number][], edge: GridCell[]): void {
  const where = placeWithin(area, bounds(c.level, c.x, c.y), within);
  if (where === "inside") inside.push(range(c.level, c.x, c.y));
  else if (where === "edge") edge.push(c);
}

/**
 * The kids of an edge's cells, in the order a cut from the coarsest level visits them (by their
 * cell of START_LEVEL, row by row, then by their Morton code within it): the kids inside added to
 * `inside`, the edge's; null (and `inside` as it was) when that edge has more than `most` cells.
 */
function opened(area: Placed, edge: readonly GridCell[], inside: [number, number][], most: number): GridCell[] | null {
  const found: [number, number][] = [];
  const next: GridCell[] = [];
  for (const c of edge) {
    for (const [dx, dy] of KIDS) {
      const [x, y] = [2 * c.x + dx, 2 * c.y + dy];
      place(area, { level: c.level + 1, x, y, cell: morton(x, y, c.level + 1) }, found, next);
    }
    if (next.length > most) return null;
  }
  inside.push(...found);
  return next;
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
