/**
 * A size per venue database (`npm run db:import -- --shard-size 4GB`, docs/deploy.md#a-size-per-database):
 * the main database's build chooses how many venue databases the plan has, the fewest whose
 * largest database's estimate is within ESTIMATE_WITHIN of the size. A database's estimate is the bytes its raw rows
 * take (its regions' venues and places as read: names, words, tokens) times what a byte of them
 * becomes once served (tables, search indexes, vocabulary), BYTES_PER_RAW_BYTE, measured over
 * both the GeoNames places and the synthetic ones (docs/deploy.md#a-size-per-database). The
 * import says each venue database's size after, beside its estimate.
 */
import type Database from "better-sqlite3";
import { ImportError } from "../problems.ts";
import { FREE_BYTES, PAID_BYTES } from "../publish/remote-plan.ts";
import { planShards, shardFinder, type PlaceCount, type PlannedShard } from "./plan.ts";
import type { ShardPlace, ShardRegion } from "../../../src/data-contract/shards.ts";

/**
 * What a byte of raw rows becomes in a venue database, and what every venue database holds besides
 * (countries, states). A place's byte about as much as a venue's, though a venue database indexes
 * and counts no place (served.ts): the vocabulary holds its words (docs/deploy.md#a-size-per-database).
 */
export const BYTES_PER_RAW_BYTE = 3.7;
const BYTES_BESIDE = 250e3;

/** The share of the size an estimate may take: the estimate came out up to 4.3 % under a database's size (docs/deploy.md#a-size-per-database). */
const ESTIMATE_WITHIN = 0.95;

/** The most venue databases a size may choose (a search without a place asks every one). */
const MOST_CHOSEN = 64;

const UNITS: Record<string, number> = { B: 1, KB: 1e3, MB: 1e6, GB: 1e9, KIB: 2 ** 10, MIB: 2 ** 20, GIB: 2 ** 30 };

/** `--shard-size`: a number with MB or GB (10^6, 10^9 bytes, as D1 counts them; MiB and GiB too), within D1's size of a database. */
export function parseShardSize(text: string, free: boolean): number {
  const match = /^\s*([0-9]+(?:\.[0-9]+)?)\s*([KMG]i?B|B)\s*$/i.exec(text);
  const unit = UNITS[(match?.[2] ?? "").toUpperCase()];
  const bytes = match === null || unit === undefined ? NaN : Number(match[1]) * unit;
  const most = free ? FREE_BYTES : PAID_BYTES;
  if (!(bytes >= 1e6 && bytes <= most))
    throw new ImportError(
      `--shard-size wants a size from 1MB to ${free ? "500MB (Workers Free's size of a database)" : "10GB (D1's size of a database)"}, ` +
        `such as 4GB or 500MB, got "${text}"`,
    );
  return Math.floor(bytes);
}

/** The raw bytes of a place's rows: its venues' (PlaceCount.bytes) or its cities'. */
export interface PlaceBytes extends ShardPlace {
  bytes: number;
}

/** The raw bytes of a venue's or a city's row that its served rows are made from (their text columns). */
export const rawBytes = (columns: readonly string[]): string =>
  columns.map((c) => `coalesce(length(CAST(${c} AS BLOB)), 0)`).join(" + ");

const CITY_COLUMNS = ["name", "words", "names", "main", "shared", "name_sets", "name_texts", "tokens"];

/**
 * The raw cities' bytes per place (country, state, cell at SHARD_CELL_LEVEL: the SQL function
 * shard_cell, venues.ts), grouped in SQL so that what is held grows with the places.
 */
export function cityBytes(db: Database.Database): PlaceBytes[] {
  return (
    db
      .prepare(
        `SELECT country_code, coalesce(admin1_code, ''), shard_cell(lat, lng) AS cell, sum(${rawBytes(CITY_COLUMNS)})
         FROM raw_cities GROUP BY 1, 2, 3`,
      )
      .raw()
      .all() as [string, string, number, number][]
  ).map(([country, state, cell, bytes]) => ({ country, state, cell, bytes }));
}

/** Each venue database's estimated size under a plan: its venues' and its places' raw bytes, as served. */
export function estimatedSizes(
  plan: readonly PlannedShard[],
  venues: readonly PlaceCount[],
  cities: readonly PlaceBytes[],
): number[] {
  const raw = plan.map(() => 0);
  const shardOf = shardFinder(plan);
  for (const place of [...venues, ...cities]) {
    const shard = shardOf(place);
    if (shard >= 0) raw[shard] = (raw[shard] ?? 0) + (place.bytes ?? 0);
  }
  return raw.map((bytes) => Math.round(BYTES_BESIDE + BYTES_PER_RAW_BYTE * bytes));
}

const mb = (bytes: number): string =>
  bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : `${(bytes / 1e6).toFixed(bytes < 10e6 ? 1 : 0)} MB`;

/**
 * The places weighed by the bytes they bring a venue database, their venues' and their cities'
 * (as `venues`, the weight the plan deals out: plan.ts), so that a plan made for a size balances
 * bytes, not venues; a place of cities without venues weighs nothing here, but counts in the
 * estimate where a country held whole holds it.
 */
function weighed(venues: readonly PlaceCount[], cities: readonly PlaceBytes[]): PlaceCount[] {
  const key = (p: ShardPlace) => `${p.country}/${p.state}/${p.cell}`;
  const cityRaw = new Map(cities.map((c) => [key(c), c.bytes]));
  return venues.map((p) => ({
    ...p,
    venues: Math.max(1, Math.round(BYTES_PER_RAW_BYTE * ((p.bytes ?? 0) + (cityRaw.get(key(p)) ?? 0)))),
  }));
}

/** A plan made over weighed places, each database's venues counted again from the places it holds. */
function withVenues(plan: PlannedShard[], venues: readonly PlaceCount[]): PlannedShard[] {
  const shardOf = shardFinder(plan);
  const counted = plan.map((s) => ({ ...s, venues: 0 }));
  for (const place of venues) {
    const shard = counted[shardOf(place)];
    if (shard !== undefined) shard.venues += place.venues;
  }
  return counted;
}

/** The plan of `count` venue databases dealt out by bytes (`places`: weighed() of these, made once), with each one's estimate. */
export function bytePlan(
  venues: readonly PlaceCount[],
  cities: readonly PlaceBytes[],
  count: number,
  kept?: readonly (readonly ShardRegion[])[],
  places = weighed(venues, cities),
): { plan: PlannedShard[]; estimates: number[] } {
  const plan = withVenues(planShards(places, count, kept), venues);
  return { plan, estimates: estimatedSizes(plan, venues, cities) };
}

/**
 * The plan of the fewest venue databases whose estimates are each within ESTIMATE_WITHIN of `size`, its regions dealt
 * out by their bytes: the plan served now (`kept`) first while it fits, so that a refresh keeps its
 * databases; else from one up, to MOST_CHOSEN (a plan is made over the places, not the venues:
 * each try is cheap).
 */
export function sizedPlan(
  venues: readonly PlaceCount[],
  cities: readonly PlaceBytes[],
  size: number,
  kept?: readonly (readonly ShardRegion[])[],
): { plan: PlannedShard[]; estimates: number[] } {
  const places = weighed(venues, cities);
  const tried = (count: number, regions?: readonly (readonly ShardRegion[])[]) =>
    bytePlan(venues, cities, count, regions, places);
  const fits = (t: { estimates: number[] }) => Math.max(...t.estimates) <= ESTIMATE_WITHIN * size;
  const keeping = kept === undefined || kept.length === 0 ? null : tried(kept.length, kept);
  if (keeping !== null && fits(keeping)) return keeping;
  let smallest = Infinity;
  for (let count = 1; count <= MOST_CHOSEN; count++) {
    const chosen = tried(count);
    if (fits(chosen)) return chosen;
    smallest = Math.min(smallest, Math.max(...chosen.estimates));
  }
  throw new ImportError(
    `--shard-size ${mb(size)}: even ${MOST_CHOSEN} venue databases leave one at about ${mb(smallest)} ` +
      "(a region the plan cannot split further); a larger size, or --shards N",
  );
}

/**
 * What a size chose, estimated and found: each venue database's estimate and its size after the
 * import, bytes (null: a remote database that held its data version already, sent nothing).
 */
export interface SizedPlan {
  size: number;
  estimates: number[];
  after: (number | null)[];
}

/** One line: how many venue databases the size chose, their estimates and sizes after, and any over the size. */
export function sizedLine({ size, estimates, after }: SizedPlan): string {
  const list = (sizes: readonly (number | null)[]) =>
    sizes.map((bytes) => (bytes === null ? "current (nothing sent)" : mb(bytes))).join(", ");
  const over = after.flatMap((bytes, i) => (bytes !== null && bytes > size ? [i + 1] : []));
  const verdict =
    over.length === 0
      ? "each within it"
      : `venue database ${over.join(", ")} over it, as the estimate missed: a smaller --shard-size, or --shards ${after.length + 1}`;
  return (
    `--shard-size ${mb(size)} chose ${after.length} venue database${after.length === 1 ? "" : "s"}: estimated ${list(estimates)}; ` +
    `after the import ${list(after)} (${verdict})`
  );
}
