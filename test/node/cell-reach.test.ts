/**
 * A box's reach (src/geo/area.ts boxReachSql), the kilometres from its centre to its farthest
 * point that place a grid cell against a circle, run by SQLite and checked against a brute-force
 * maximum over points all along the box's edges, in both hemispheres and across the equator, and
 * against the JS reach that the import stores (src/data-contract/distance.ts boxReachKm); a box
 * wider than half the longitudes reaches half the globe.
 */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { boxReachSql } from "../../src/geo/area.ts";
import { boxReachKm, haversineKm } from "../../src/data-contract/distance.ts";
import { raw } from "../../src/sql/sql.ts";

interface Box {
  south: number;
  north: number;
  west: number;
  east: number;
}

/** The greatest distance from the box's centre to its edges, sampled (corners included). */
function farthestOnEdges(b: Box, steps = 200): number {
  const lat = (b.south + b.north) / 2;
  const lng = (b.west + b.east) / 2;
  let far = 0;
  for (let i = 0; i <= steps; i++) {
    const f = i / steps;
    const edgeLat = b.south + f * (b.north - b.south);
    const edgeLng = b.west + f * (b.east - b.west);
    for (const [pLat, pLng] of [
      [b.south, edgeLng],
      [b.north, edgeLng],
      [edgeLat, b.west],
      [edgeLat, b.east],
    ] as const) {
      far = Math.max(far, haversineKm(lat, lng, pLat, pLng));
    }
  }
  return far;
}

/** Grid cells of every level at rows across the latitudes, and boxes of records across the equator. */
function boxes(): Box[] {
  const out: Box[] = [];
  for (let level = 2; level <= 16; level += 2) {
    const n = 2 ** level;
    for (const f of [0, 0.05, 0.2, 0.45, 0.5, 0.55, 0.8, 0.95, 0.999]) {
      const y = Math.min(n - 1, Math.floor(f * n));
      const x = Math.floor(0.3 * n);
      out.push({
        south: (y * 180) / n - 90,
        north: ((y + 1) * 180) / n - 90,
        west: (x * 360) / n - 180,
        east: ((x + 1) * 360) / n - 180,
      });
    }
  }
  out.push({ south: -30, north: 10, west: 0, east: 40 }, { south: -10, north: 30, west: -5, east: 5 });
  out.push({ south: -20, north: 20, west: 100, east: 140 }, { south: 60, north: 89, west: 0, east: 90 });
  return out;
}

/**
 * Boxes wider than 180° of longitude: the records of the whole world (the default data's, level 0),
 * whose farthest points lie along the side nearest the centre's antipode, not at a corner.
 */
const wideBoxes: Box[] = [
  { south: -53.16929, north: 78.22262, west: -175.19784, east: 179.36312 },
  { south: -60, north: 70, west: -120, east: 100 },
  { south: -10, north: 80, west: -170, east: 170 },
];

describe("a box's reach", () => {
  const db = new Database(":memory:");
  const reach = (b: Box) => {
    // REAL literals, as the columns are (an integer literal would divide as an integer).
    const real = (degrees: number) => raw(degrees.toFixed(12));
    const expr = boxReachSql({ south: real(b.south), north: real(b.north), west: real(b.west), east: real(b.east) });
    return db
      .prepare(`SELECT ${expr.text} AS km`)
      .pluck()
      .get(...expr.binds) as number;
  };

  it("is the distance to its farthest point, whichever hemisphere the box lies in", () => {
    for (const b of boxes()) {
      const far = farthestOnEdges(b);
      const km = reach(b);
      // Never short of any point (a cell would be placed wholly inside a circle it crosses), and
      // no longer than the farthest corner (which the brute force samples exactly).
      expect(km, JSON.stringify(b)).toBeGreaterThanOrEqual(far - 1e-9);
      expect(km, JSON.stringify(b)).toBeLessThanOrEqual(far + 1e-6);
    }
  });

  it("is the same in SQL as in JS (the import stores the JS one for its cells' boxes)", () => {
    for (const b of [...boxes(), ...wideBoxes]) expect(reach(b), JSON.stringify(b)).toBeCloseTo(boxReachKm(b), 6);
  });

  it("reaches past every corner for a box wider than half the longitudes (the world's records)", () => {
    // The default data's world box: Sydney lies 16,094 km from its centre, its corners 15,489.
    const [world] = wideBoxes;
    const centre = world === undefined ? [0, 0] : [(world.south + world.north) / 2, (world.west + world.east) / 2];
    expect(haversineKm(centre[0] ?? 0, centre[1] ?? 0, -33.87, 151.21)).toBeGreaterThan(16_000);
    for (const b of wideBoxes) {
      expect(reach(b), JSON.stringify(b)).toBeGreaterThanOrEqual(farthestOnEdges(b, 2000) - 1e-9);
      expect(reach(b), JSON.stringify(b)).toBeGreaterThanOrEqual(16_094);
    }
  });
});
