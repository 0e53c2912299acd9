/**
 * The search documents' cell tokens as SQLite writes them from a record's finest cell
 * (src/data-contract/grid.ts cellTokensSql, what the import runs) against each level's own cell
 * computed from the point (cellTokens), for points all over the world and on the lines between
 * cells, where rounding would show.
 */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { cellOf, cellTokens, cellTokensSql, FINEST_LEVEL, GRID_LEVELS } from "../../src/data-contract/grid.ts";

/** Points on the edges: the poles, the antimeridian, and the lines between cells at every level. */
function edgePoints(): [number, number][] {
  const points: [number, number][] = [
    [90, 180],
    [-90, -180],
    [90, -180],
    [-90, 180],
    [0, 0],
  ];
  for (const level of [...GRID_LEVELS, FINEST_LEVEL + 1]) {
    for (const k of [1, 3, 2 ** level - 1]) {
      const lng = (k * 360) / 2 ** level - 180;
      const lat = (k * 180) / 2 ** level - 90;
      for (const d of [0, 1e-12, -1e-12]) points.push([lat + d, lng + d]);
    }
  }
  return points;
}

describe("cell tokens", () => {
  it("are each level's own cell of the point, written by SQLite from its finest cell alone", () => {
    const db = new Database(":memory:");
    const fromCell = db.prepare(`WITH p (cell) AS (VALUES (?)) SELECT ${cellTokensSql("cell")} FROM p`).pluck();
    let seed = 7;
    const next = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const random = Array.from({ length: 20_000 }, (): [number, number] => [next() * 180 - 90, next() * 360 - 180]);
    for (const [lat, lng] of [...edgePoints(), ...random]) {
      expect(fromCell.get(cellOf(FINEST_LEVEL, lat, lng)), `${lat}, ${lng}`).toBe(cellTokens(lat, lng).join(" "));
    }
    expect(fromCell.get(null)).toBe("");
    db.close();
  });
});
