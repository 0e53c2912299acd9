/**
 * The import's per-cell counts (scripts/import/phases/cell-counter.ts) against a brute-force count
 * of the same points: every stored cell's number and the box around its records, the records in
 * its kids that are not stored, and each such kid's own count (what lets the worker count a kid
 * wholly inside an area).
 */
import { describe, expect, it } from "vitest";
import { cellOf, COUNT_LEVELS, FINEST_LEVEL, KID_STEP } from "../../src/data-contract/grid.ts";
import { CellCounter, MAX_CELL_COUNT_MIN, type CellRow } from "../../scripts/import/phases/cell-counter.ts";

interface Point {
  term: number;
  lat: number;
  lng: number;
  finest: number;
}

/** A seeded generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Points of two terms, clustered around a few centres so that cells at every level fill unevenly. */
function points(count: number, seed: number): Point[] {
  const next = random(seed);
  const centres = [
    [48.85, 2.35],
    [51.5, -0.12],
    [40.7, -74],
  ] as const;
  return Array.from({ length: count }, () => {
    const [lat0, lng0] = centres[Math.floor(next() * centres.length)] ?? [0, 0];
    const spread = 10 ** (-3 + next() * 3);
    const lat = lat0 + (next() - 0.5) * spread;
    const lng = lng0 + (next() - 0.5) * spread;
    return { term: next() < 0.7 ? 0 : 1, lat, lng, finest: cellOf(FINEST_LEVEL, lat, lng) };
  });
}

/** The points of a term in a cell of a level, one by one. */
const pointsIn = (all: readonly Point[], term: number, level: number, cell: number): Point[] =>
  all.filter((p) => p.term === term && Math.floor(p.finest / 4 ** (FINEST_LEVEL - level)) === cell);
const inCell = (all: readonly Point[], term: number, level: number, cell: number): number =>
  pointsIn(all, term, level, cell).length;

function counted(all: readonly Point[], min: number): CellRow[] {
  const rows: CellRow[] = [];
  const counter = new CellCounter(2, min, (row) => rows.push(row));
  for (const p of [...all].sort((a, b) => a.finest - b.finest)) counter.add(p.term, p.finest, p.lat, p.lng);
  counter.finish(2);
  return rows;
}

describe("cell counts", () => {
  it.each([1, 2, 5, 32])("store what a brute-force count says (minimum %i)", (min) => {
    const all = points(3000, min);
    const rows = counted(all, min);
    const stored = new Set(rows.map((r) => `${r.term}/${r.level}/${r.cell}`));
    for (const r of rows) {
      const held = pointsIn(all, r.term, r.level, r.cell);
      expect(r.n).toBe(held.length);
      expect([r.south, r.north]).toEqual([Math.min(...held.map((p) => p.lat)), Math.max(...held.map((p) => p.lat))]);
      expect([r.west, r.east]).toEqual([Math.min(...held.map((p) => p.lng)), Math.max(...held.map((p) => p.lng))]);
      expect(r.n).toBeGreaterThanOrEqual(min);
      if (r.level === FINEST_LEVEL) continue;
      const kidLevel = r.level + KID_STEP;
      const kids = Array.from({ length: 16 }, (_, k) => {
        const cell = r.cell * 16 + k;
        return stored.has(`${r.term}/${kidLevel}/${cell}`) ? 0 : inCell(all, r.term, kidLevel, cell);
      });
      expect(r.rest).toBe(kids.reduce((a, b) => a + b, 0));
      const kidsHeld = Object.fromEntries(kids.flatMap((n, k) => (n > 0 ? [[String(k), n]] : [])));
      expect(r.kidRest === null ? null : JSON.parse(r.kidRest)).toEqual(r.rest > 0 ? kidsHeld : null);
    }
    // Every cell with at least `min` records is stored, at every level.
    for (const term of [0, 1]) {
      for (const level of COUNT_LEVELS) {
        const cells = new Set(
          all.filter((p) => p.term === term).map((p) => Math.floor(p.finest / 4 ** (FINEST_LEVEL - level))),
        );
        for (const cell of cells) {
          expect(stored.has(`${term}/${level}/${cell}`)).toBe(inCell(all, term, level, cell) >= min);
        }
      }
    }
  });

  it("refuses a minimum whose kids' counts it could not keep", () => {
    expect(() => new CellCounter(1, MAX_CELL_COUNT_MIN + 1, () => undefined)).toThrow(/at most 65535/);
  });
});
