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

/** Degrees: south, west, north, east (west ≤ east: a region across the antimeridian spans every longitude between). */
export type ShardBox = [number, number, number, number];

/** A region a venue database holds: a country, a state of it, or a grid cell of a state; with the bounds of its venues. */
export interface ShardRegion {
  country: string;
  state?: string;
  cell?: { level: number; code: number };
  /** The bounds of its venues' own points; none when no venue of it has one. */
  box?: ShardBox;
}

/**
 * Per venue database, from 1: its regions, how many venues it holds, and the data version it holds
 * when it is of the same import as the main database (a search asks it only then).
 */
export type ShardManifest = { shard: number; regions: ShardRegion[]; venues: number; version: string }[];

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
