/**
 * An area cut into grid cells (src/geo/decompose.ts), one level at a time, against the cut that
 * tries each level from the coarsest again, visiting the cells recursively (the way it was cut
 * before 2026-12-02), written out here: the same ranges inside and the same edge cells, in the same
 * order, for circles of every size (the poles and the antimeridian among them) and boxes. Cut
 * within a venue database's bounds, it still covers every point of the area in them.
 */
import { describe, expect, it } from "vitest";
import { cellOf, FINEST_LEVEL, morton } from "../../src/data-contract/grid.ts";
import type { ShardBox } from "../../src/data-contract/shards.ts";
import { haversineKm, type Area } from "../../src/data-contract/distance.ts";
import { cellPlace, decompose, edgeLevel, type GridCell } from "../../src/geo/decompose.ts";
import { random } from "../../scripts/tools/random.ts";

const START = 3;
const MOST = 256;
const KIDS = [
  [0, 0],
  [1, 0],
  [0, 1],
  [1, 1],
] as const;

function cutTo(area: Area, finest: number, most: number): { inside: [number, number][]; edge: GridCell[] } | null {
  const inside: [number, number][] = [];
  const edge: GridCell[] = [];
  const visit = (level: number, x: number, y: number): boolean => {
    const place = cellPlace(area, level, x, y);
    if (place === "outside") return true;
    const size = 4 ** (FINEST_LEVEL - level);
    if (place === "inside") inside.push([morton(x, y, level) * size, (morton(x, y, level) + 1) * size]);
    else if (level >= finest) edge.push({ level, x, y, cell: morton(x, y, level) });
    else return KIDS.every(([dx, dy]) => visit(level + 1, 2 * x + dx, 2 * y + dy));
    return edge.length <= most;
  };
  for (let y = 0; y < 2 ** START; y++) for (let x = 0; x < 2 ** START; x++) if (!visit(START, x, y)) return null;
  inside.sort((a, b) => a[0] - b[0]);
  const joined: [number, number][] = [];
  for (const [lo, hi] of inside) {
    const last = joined.at(-1);
    if (last !== undefined && last[1] === lo) last[1] = hi;
    else joined.push([lo, hi]);
  }
  return { inside: joined, edge };
}

function reference(area: Area) {
  let best = cutTo(area, START + 1, Infinity) ?? { inside: [], edge: [] };
  for (let finest = START + 2; finest <= edgeLevel(area); finest++) {
    const cut = cutTo(area, finest, MOST);
    if (cut === null) break;
    best = cut;
  }
  return best;
}

function areas(): Area[] {
  const next = random("decompose");
  const out: Area[] = [
    { lat: 51.5074, lng: -0.1278, radiusKm: 10 },
    { lat: 48.8566, lng: 2.3522, radiusKm: 500 },
    { lat: 89.999, lng: 0, radiusKm: 0.1 },
    { lat: -90, lng: 10, radiusKm: 300 },
    { lat: 0, lng: 179.99, radiusKm: 50 },
    { west: 170, south: -20, east: -170, north: 10 },
    { west: -180, south: 51.5, east: 180, north: 51.51 },
    { west: -0.4, south: 51.35, east: 0.15, north: 51.65 },
  ];
  for (let i = 0; i < 150; i++) {
    const lat = next() * 180 - 90;
    const lng = next() * 360 - 180;
    if (i % 2 === 0) out.push({ lat, lng, radiusKm: 0.05 + next() ** 3 * 500 });
    else {
      const [w, h] = [next() ** 2 * 60, next() ** 2 * 30];
      out.push({
        west: lng,
        south: Math.max(-90, lat - h),
        east: ((lng + w + 180) % 360) - 180,
        north: Math.min(90, lat),
      });
    }
  }
  return out;
}

describe("an area cut into grid cells", () => {
  it("is the cut of each level from the coarsest, level by level: the same inside ranges and edge cells, in order", () => {
    let edges = 0;
    for (const area of areas()) {
      const got = decompose(area);
      expect(got, JSON.stringify(area)).toEqual(reference(area));
      edges += got.edge.length;
    }
    expect(edges).toBeGreaterThan(1000);
  });
});

/** Whether a decomposition covers a finest cell: in a range inside, or in a cell of its edge. */
function covers(d: { inside: [number, number][]; edge: GridCell[] }, cell: number): boolean {
  const inEdge = (c: GridCell) => {
    const size = 4 ** (FINEST_LEVEL - c.level);
    return cell >= c.cell * size && cell < (c.cell + 1) * size;
  };
  return d.inside.some(([lo, hi]) => cell >= lo && cell < hi) || d.edge.some(inEdge);
}

/** Whether a point lies in an area, written out: a circle's distance; a box's sides, west > east across the antimeridian. */
function inArea(area: Area, lat: number, lng: number): boolean {
  if ("radiusKm" in area) return haversineKm(area.lat, area.lng, lat, lng) <= area.radiusKm;
  const lngIn = area.west <= area.east ? lng >= area.west && lng <= area.east : lng >= area.west || lng <= area.east;
  return lat >= area.south && lat <= area.north && lngIn;
}

/** Points in a box, its corners and sides among them; west > east across the antimeridian. */
function pointsIn([south, west, north, east]: ShardBox, next: () => number): [number, number][] {
  const width = west <= east ? east - west : east + 360 - west;
  const at = (u: number, v: number): [number, number] => [
    south + v * (north - south),
    ((west + u * width + 540) % 360) - 180,
  ];
  const sides = [0, 1].flatMap((u) => [0, 0.5, 1].map((v) => at(u, v)));
  return [...sides, ...Array.from({ length: 40 }, () => at(next(), next()))];
}

describe("an area cut within a venue database's bounds (src/data-contract/shards.ts)", () => {
  it("covers every point of the area that lies in the bounds, and fewer cells where they hold less of it", () => {
    const next = random("within");
    let [points, fewer] = [0, 0];
    for (const area of areas()) {
      // Boxes about the area's centre or corner, some of them crossing its edge.
      const [lat0, lng0] = "radiusKm" in area ? [area.lat, area.lng] : [area.south, area.west];
      const boxes = Array.from({ length: 1 + Math.floor(next() * 3) }, (): ShardBox => {
        const [lat, lng] = [
          Math.max(-89, Math.min(89, lat0 + next() * 10 - 5)),
          ((lng0 + next() * 20 + 170) % 360) - 180,
        ];
        const [h, w] = [next() ** 2 * 20, next() ** 2 * 40];
        return [Math.max(-90, lat - h), lng, Math.min(90, lat + h), ((lng + w + 180) % 360) - 180];
      });
      const whole = decompose(area);
      const within = decompose(area, boxes);
      for (const [lat, lng] of boxes.flatMap((box) => pointsIn(box, next))) {
        const cell = cellOf(FINEST_LEVEL, lat, lng);
        if (!inArea(area, lat, lng)) continue;
        expect(covers(whole, cell)).toBe(true);
        expect(covers(within, cell), JSON.stringify({ area, lat, lng })).toBe(true);
        points++;
      }
      if (within.edge.length + within.inside.length < whole.edge.length + whole.inside.length) fewer++;
    }
    expect(points).toBeGreaterThan(500);
    expect(fewer).toBeGreaterThan(50);
  });
});
