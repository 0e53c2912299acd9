/**
 * The manifest of the venue databases (docs/deploy.md#past-one-database), as the import writes it
 * into the meta table of each database of a plan: which database this is, and the regions each
 * venue database holds.
 */

/** meta key: "main", or the venue database's number from 1. */
export const SHARD_KEY = "shard";
/** meta key: the plan, JSON of ShardManifest. */
export const SHARD_PLAN_KEY = "shard_plan";

/** A region a venue database holds: a country, a state of it, or a grid cell of a state. */
export interface ShardRegion {
  country: string;
  state?: string;
  cell?: { level: number; code: number };
}

/** Per venue database, from 1: its regions and how many venues it holds. */
export type ShardManifest = { shard: number; regions: ShardRegion[]; venues: number }[];

/** The file of venue database `shard` (from 1) beside a main database file. */
export const shardFile = (main: string, shard: number): string =>
  `${main.replace(/\.sqlite$/, "")}.shard-${shard}.sqlite`;
