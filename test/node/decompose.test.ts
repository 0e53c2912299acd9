/**
 * An area cut into grid cells (src/geo/decompose.ts), one level at a time, against the cut that
 * tries each level from the coarsest again, visiting the cells recursively (the way it was cut
 * before 2026-12-02), written out here: the same ranges inside and the same edge cells, in the same
 * order, for circles of every size (the poles and the antimeridian among them) and boxes.
 */
import { describe, expect, it } from "vitest";
import { FINEST_LEVEL, morton } from "../../src/data-contract/grid.ts";
import type { Area } from "../../src/data-contract/distance.ts";
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
