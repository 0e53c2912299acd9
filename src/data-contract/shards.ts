/**
 * The manifest of the venue databases (docs/deploy.md#past-one-database), as the import writes it
 * into the meta table of each database of a plan: which database this is, and the regions each
 * venue database holds.
 */

import { cellOf } from "./grid.ts";

/** The grid level of the finest cells a state is split by (src/data-contract/grid.ts). */
export const SHARD_CELL_LEVEL = 10;

/** meta key: "main", or the venue database's number from 1. */
export const SHARD_KEY = "shard";
/** meta key: the plan, JSON of ShardManifest. */
export const SHARD_PLAN_KEY = "shard_plan";
/**
 * meta key of the main database: which venues it holds — MAIN_HOLDS_EVERY_VENUE (what an import
 * writes by default; also where the row is missing) or MAIN_HOLDS_NO_VENUE (its venues taken out:
 * `--main-venues none`). While it
 * holds every venue, a venue request that would ask several venue databases asks it alone
 * (docs/deploy.md#past-one-database).
 */
export const MAIN_VENUES_KEY = "main_venues";
export const MAIN_HOLDS_EVERY_VENUE = "every";
export const MAIN_HOLDS_NO_VENUE = "none";
/** What the main database of a plan holds of the venues: `npm run db:import -- --shards N --main-venues …`. */
export type MainVenues = typeof MAIN_HOLDS_EVERY_VENUE | typeof MAIN_HOLDS_NO_VENUE;

/** Degrees: south, west, north, east; west > east across the antimeridian (from west to 180°, from −180° to east). */
export type ShardBox = [number, number, number, number];

/** A box's runs of longitude: one, or two across the antimeridian. */
export const boxLongitudes = (b: ShardBox): [number, number][] =>
  b[1] <= b[3]
    ? [[b[1], b[3]]]
    : [
        [b[1], 180],
        [-180, b[3]],
      ];

/** The runs of longitude some boxes that do not cross the antimeridian cover, west to east, apart. */
function longitudeRuns(boxes: readonly ShardBox[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const [, west, , east] of [...boxes].sort((a, b) => a[1] - b[1])) {
    const last = runs.at(-1);
    if (last !== undefined && west <= last[1]) last[1] = Math.max(last[1], east);
    else runs.push([west, east]);
  }
  return runs;
}

/**
 * The box of some boxes that do not cross the antimeridian: their latitudes' span, and the
 * shortest run of longitudes that holds them all — across the antimeridian where that is shorter
 * (Russia's, from the Baltic eastward to the Bering Strait, holds no point of Europe west of it).
 */
export function coveringBox(boxes: readonly ShardBox[]): ShardBox | undefined {
  const runs = longitudeRuns(boxes);
  const [first, last] = [runs[0], runs.at(-1)];
  if (first === undefined || last === undefined) return undefined;
  // What the box leaves out is the widest gap between runs: the one across the antimeridian, or one before a run.
  let [gap, west, east] = [first[0] + 360 - last[1], first[0], last[1]];
  runs.forEach(([runWest], i) => {
    const before = runs[i - 1];
    if (before !== undefined && runWest - before[1] > gap)
      [gap, west, east] = [runWest - before[1], runWest, before[1]];
  });
  const south = boxes.reduce((least, b) => Math.min(least, b[0]), 90);
  const north = boxes.reduce((most, b) => Math.max(most, b[2]), -90);
  return [south, west, north, east];
}

/**
 * The grid level whose cells a region's bounds are kept in (5.6° × 2.8°): one box round a region's
 * venues reached past its borders (China's took in Nagpur, the Congo's Luanda), so that an area
 * there asked two venue databases; a box per cell of this level where the region has venues
 * reaches little further than they do.
 */
const SHARD_BOX_LEVEL = 6;

/**
 * The bounds of a region from those of its places (each inside one cell of SHARD_BOX_LEVEL, as a
 * place of the plan, a cell of SHARD_CELL_LEVEL, is): per cell of that level, the box of the
 * places in it; in the order of the cells.
 */
export function regionBoxes(places: readonly ShardBox[]): ShardBox[] {
  const byCell = new Map<number, ShardBox[]>();
  for (const box of places) {
    const cell = cellOf(SHARD_BOX_LEVEL, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2);
    const list = byCell.get(cell);
    if (list === undefined) byCell.set(cell, [box]);
    else list.push(box);
  }
  return [...byCell]
    .sort((a, b) => a[0] - b[0])
    .flatMap(([, list]) => {
      const box = coveringBox(list);
      return box === undefined ? [] : [box];
    });
}

/** A region a venue database holds: a country, a state of it, or a grid cell of a state; with the bounds of its venues. */
export interface ShardRegion {
  country: string;
  state?: string;
  cell?: { level: number; code: number };
  /** The bounds of its venues' own points, a box per cell of SHARD_BOX_LEVEL (regionBoxes); none when no venue of it has one. */
  boxes?: ShardBox[];
  /** Their one box, as an import before 2026-12-06 wrote them (read while such a plan is served). */
  box?: ShardBox;
}

/** A region's bounds as a plan of any import says them. */
export const boxesOf = (r: ShardRegion): readonly ShardBox[] => r.boxes ?? (r.box === undefined ? [] : [r.box]);

/**
 * Per venue database, from 1: its regions, how many venues it holds, and the data version it holds
 * when it is of the same import as the main database (a search asks it only then); where a size
 * chose the plan (`--shard-size`), the bytes it was estimated at after its import, which an import
 * that finds the main database current, or resumes from its files, says again.
 */
export type ShardManifest = {
  shard: number;
  regions: ShardRegion[];
  venues: number;
  version: string;
  estimated?: number;
}[];

/** The worker's binding of venue database `shard` (from 1); the main database is `DB`. */
export const shardBinding = (shard: number): string => `DB_SHARD_${shard}`;

/** The file of venue database `shard` (from 1) beside a main database file. */
export const shardFile = (main: string, shard: number): string =>
  `${main.replace(/\.sqlite$/, "")}.shard-${shard}.sqlite`;

/** A venue's place as the plan reads it: its city's country, state ("" for none) and cell at SHARD_CELL_LEVEL. */
export interface ShardPlace {
  country: string;
  state: string;
  cell: number;
}

/** The cell at SHARD_CELL_LEVEL of a point. */
export const shardCell = (lat: number, lng: number): number => cellOf(SHARD_CELL_LEVEL, lat, lng);

/** The code at `level` of a cell given at SHARD_CELL_LEVEL (its Morton code's leading digits). */
export const cellAt = (code: number, level: number): number => Math.floor(code / 4 ** (SHARD_CELL_LEVEL - level));

/** Whether a region holds a place: the rule both the import (which keeps its venues) and the worker (which asks for them) follow. */
export const regionHolds = (r: ShardRegion, place: ShardPlace): boolean =>
  r.country === place.country &&
  (r.state === undefined || r.state === place.state) &&
  (r.cell === undefined || r.cell.code === cellAt(place.cell, r.cell.level));
