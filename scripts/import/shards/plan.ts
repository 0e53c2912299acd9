/**
 * The shard plan (docs/deploy.md#past-one-database): which regions of the world each venue
 * database holds, so that a search whose filters name a place asks one database, and every
 * database holds about as many venues as the others.
 *
 * A region is a whole country where it fits; a country bigger than a database's share is split
 * by state, a state bigger than that by grid cell (src/data-contract/grid.ts), coarse cells
 * first. The regions are then dealt out largest first, each to the database that holds the
 * fewest venues so far (ties: the lower number), so no database holds more than its share and
 * the largest region together. Venues without a place (no city, no point) are a region of
 * their own (country "").
 * A plan chosen by a size deals out the places' bytes as their `venues` (size.ts).
 */
import { GRID_LEVELS } from "../../../src/data-contract/grid.ts";
import {
  cellAt,
  regionHolds,
  SHARD_CELL_LEVEL,
  type ShardPlace,
  type ShardRegion,
} from "../../../src/data-contract/shards.ts";

/** The grid levels a state is split by, coarse first; counts are given at the finest. */
const SPLIT_LEVELS: readonly number[] = GRID_LEVELS.filter((l) => l >= 6 && l <= SHARD_CELL_LEVEL);

/** Venues of one place: a country, a state of it ("" for none) and a cell at SHARD_CELL_LEVEL. */
export interface PlaceCount extends ShardPlace {
  venues: number;
  /** Their raw rows' bytes, where a size per database chooses the plan (size.ts). */
  bytes?: number;
}

/** A region a database holds: a country, or a state of it, or a cell of a state at `level`. */
type Region = ShardRegion;

export interface PlannedShard {
  regions: Region[];
  venues: number;
}

interface Unit {
  region: Region;
  venues: number;
  /** The places inside it, to split it by. */
  places: PlaceCount[];
}

const total = (places: readonly PlaceCount[]): number => places.reduce((n, p) => n + p.venues, 0);

function groupBy(places: readonly PlaceCount[], key: (p: PlaceCount) => string | number): PlaceCount[][] {
  const groups = new Map<string | number, PlaceCount[]>();
  for (const p of places) {
    const group = groups.get(key(p));
    if (group === undefined) groups.set(key(p), [p]);
    else group.push(p);
  }
  return [...groups.values()];
}

/** A unit's parts one step finer: a country's states, a state's cells at the next level; none past the finest. */
function parts(unit: Unit): Unit[] {
  const { country, state, cell } = unit.region;
  if (state === undefined && country !== "") {
    return groupBy(unit.places, (p) => p.state).map((places) => ({
      region: { country, state: places[0]?.state ?? "" },
      venues: total(places),
      places,
    }));
  }
  const level = cell === undefined ? SPLIT_LEVELS[0] : SPLIT_LEVELS[SPLIT_LEVELS.indexOf(cell.level) + 1];
  if (state === undefined || level === undefined) return [];
  return groupBy(unit.places, (p) => cellAt(p.cell, level)).map((places) => ({
    region: { country, state, cell: { level, code: cellAt(places[0]?.cell ?? 0, level) } },
    venues: total(places),
    places,
  }));
}

/** The regions: whole countries, split finer wherever one holds more than `share` venues and can be split. */
export function regionsOf(places: readonly PlaceCount[], share: number): Unit[] {
  const done: Unit[] = [];
  const todo: Unit[] = groupBy(places, (p) => p.country).map((group) => ({
    region: { country: group[0]?.country ?? "" },
    venues: total(group),
    places: group,
  }));
  for (let unit = todo.pop(); unit !== undefined; unit = todo.pop()) {
    const finer = unit.venues > share ? parts(unit) : [];
    if (finer.length > 1 || (finer.length === 1 && (finer[0]?.venues ?? 0) > share)) todo.push(...finer);
    else done.push(unit);
  }
  return done;
}

const regionKey = (r: Region): string => `${r.country}/${r.state ?? ""}/${r.cell?.level ?? ""}/${r.cell?.code ?? ""}`;

/** Deals units out largest first, each to the database that holds the fewest venues so far. */
function deal(plan: PlannedShard[], units: readonly Unit[]): PlannedShard[] {
  const sorted = [...units].sort(
    (a, b) => b.venues - a.venues || regionKey(a.region).localeCompare(regionKey(b.region)),
  );
  for (const unit of sorted) {
    const least = plan.reduce((best, s, i) => (s.venues < (plan[best]?.venues ?? 0) ? i : best), 0);
    const shard = plan[least];
    if (shard === undefined) continue;
    shard.regions.push(unit.region);
    shard.venues += unit.venues;
  }
  for (const shard of plan) shard.regions.sort((a, b) => regionKey(a).localeCompare(regionKey(b)));
  return plan;
}

/** The plan of `shards` venue databases for venues in these places, made afresh. */
function freshPlan(places: readonly PlaceCount[], shards: number): PlannedShard[] {
  const plan: PlannedShard[] = Array.from({ length: shards }, () => ({ regions: [], venues: 0 }));
  return deal(plan, regionsOf(places, total(places) / shards));
}

/**
 * A plan that keeps the regions of `kept`: each place in the database whose region holds it, and
 * the countries that none holds dealt out as new regions. Null when a place's country is held
 * only in part (a new state of a split country: planned afresh).
 */
function keptPlan(places: readonly PlaceCount[], kept: readonly (readonly ShardRegion[])[]): PlannedShard[] | null {
  const plan: PlannedShard[] = kept.map((regions) => ({
    regions: regions.map(({ country, state, cell }) => ({
      country,
      ...(state === undefined ? {} : { state }),
      ...(cell === undefined ? {} : { cell }),
    })),
    venues: 0,
  }));
  const countries = new Set(kept.flat().map((r) => r.country));
  const left: PlaceCount[] = [];
  for (const place of places) {
    const shard = plan.find((s) => s.regions.some((r) => regionHolds(r, place)));
    if (shard !== undefined) shard.venues += place.venues;
    else if (countries.has(place.country)) return null;
    else left.push(place);
  }
  return deal(plan, regionsOf(left, total(places) / kept.length));
}

/**
 * How much more the largest database of a kept plan may hold than that of a plan made afresh: a
 * refresh keeps each region where it is (and the databases whose venues did not change as they
 * are: docs/deploy.md#past-one-database) until the data has grown that unevenly.
 */
const KEPT_WITHIN = 1.25;

/**
 * The plan of `shards` venue databases for venues in these places; with `kept` (the regions of
 * each database of the plan served now), that plan, as long as it keeps the largest database
 * within KEPT_WITHIN of a plan made afresh.
 */
export function planShards(
  places: readonly PlaceCount[],
  shards: number,
  kept?: readonly (readonly ShardRegion[])[],
): PlannedShard[] {
  if (!Number.isInteger(shards) || shards < 1) throw new RangeError(`shards must be a positive integer, got ${shards}`);
  const fresh = freshPlan(places, shards);
  const keeping = kept === undefined || kept.length !== shards ? null : keptPlan(places, kept);
  const most = (plan: readonly PlannedShard[]) => Math.max(...plan.map((s) => s.venues));
  return keeping !== null && most(keeping) <= KEPT_WITHIN * most(fresh) ? keeping : fresh;
}

/**
 * The shard that holds a place under a plan, or -1, as a function of the place: the plan's regions
 * looked up by country (the import asks it of every venue and city).
 */
export function shardFinder(plan: readonly PlannedShard[]): (place: ShardPlace) => number {
  const byCountry = new Map<string, { shard: number; region: Region }[]>();
  plan.forEach((s, shard) => {
    for (const region of s.regions) {
      const held = byCountry.get(region.country);
      if (held === undefined) byCountry.set(region.country, [{ shard, region }]);
      else held.push({ shard, region });
    }
  });
  return (place) => byCountry.get(place.country)?.find(({ region }) => regionHolds(region, place))?.shard ?? -1;
}

/** The shard that holds a place under a plan, or -1. */
export const shardOf = (plan: readonly PlannedShard[], place: ShardPlace): number => shardFinder(plan)(place);

/** The region of a plan that holds a place, or undefined. */
export function regionOf(plan: readonly PlannedShard[], place: ShardPlace): Region | undefined {
  for (const s of plan) {
    const region = s.regions.find((r) => regionHolds(r, place));
    if (region !== undefined) return region;
  }
  return undefined;
}
