/**
 * The venues of one venue database (docs/deploy.md#past-one-database), chosen in the build right
 * after the venues are placed: every import of a plan counts the same places from the same raw
 * tables, so each plans alike, and each keeps the venues of its own regions. A venue's place is
 * its city's (country, state, the cell of the city's point), so a city's venues stay together and
 * keep their pos; a venue without a city is in the region of its own (country "").
 */
import { createHash } from "node:crypto";
import type Database from "better-sqlite3";
import {
  regionBoxes,
  shardCell,
  type MainVenues,
  type ShardBox,
  type ShardPlace,
  type ShardRegion,
} from "../../../src/data-contract/shards.ts";
import { cityBytes, rawBytes, sizedPlan } from "./size.ts";
import { planShards, regionOf, shardFinder, type PlaceCount, type PlannedShard } from "./plan.ts";

/**
 * Which database of how many a build is: `index` null for the main one, which keeps every venue; a
 * venue database's `version`, the one the main database's manifest names for it (meta.ts), and
 * `kept` that manifest's regions, so that it plans as the main database did.
 */
export interface ShardChoice {
  /** How many venue databases; in the main database's build with `size`, chosen by it (size.ts). */
  count?: number;
  /** `--shard-size`: the most bytes a venue database's estimate may take. */
  size?: number;
  index: number | null;
  version?: string;
  /** The regions of each database of the plan served now, kept while they fit (plan.ts). */
  kept?: ShardRegion[][];
  /** The folder where the plan's reading of the sources is kept for the venue databases (read-once.ts). */
  read?: string;
  /** The main database's: whether it keeps every venue or none (main-venues.ts); every by default. */
  mainVenues?: MainVenues;
}

/** A venue's place (country, state, lat, lng), from the venue joined with its city (alias v, c); then its own point. */
const PLACE = [
  "coalesce(c.country_code, '')",
  "CASE WHEN c.gid IS NULL THEN '' ELSE coalesce(c.admin1_code, '') END",
  "coalesce(c.lat, v.lat)",
  "coalesce(c.lng, v.lng)",
];
const POINT = ["coalesce(v.lat, c.lat)", "coalesce(v.lng, c.lng)"];
const VENUES_IN_CITIES = "raw_venues v LEFT JOIN raw_cities c ON c.gid = v.city_gid";

const placeKey = (p: ShardPlace): string => `${p.country}/${p.state}/${p.cell}`;

const cellAt = (lat: number | null, lng: number | null) => (lat === null || lng === null ? 0 : shardCell(lat, lng));

/** A venue's place's cell at SHARD_CELL_LEVEL (0 without a country: the region of its own), by the SQL function shard_cell. */
const PLACE_CELL = `CASE WHEN ${PLACE[0]} = '' THEN 0 ELSE shard_cell(${PLACE[2]}, ${PLACE[3]}) END`;

/** A venue's own point, both coordinates or neither. */
const OWN_POINT = POINT.map((own, i) => `CASE WHEN ${POINT[1 - i]} IS NULL THEN NULL ELSE ${own} END`);

/** The raw venue's columns whose bytes its served rows are made from (size.ts). */
const VENUE_TEXT = ["name", "words", "names", "own", "shared", "name_sets", "name_texts", "localized", "url", "id"];

/**
 * The placed venues of the build per place, each with the bounds of their own points (and, for a
 * size per database, their raw bytes): grouped in SQL by place, so what the plan holds grows with
 * the places, not the venues.
 */
function placedCounts(db: Database.Database, sized: boolean): { places: PlaceCount[]; bounds: Map<string, ShardBox> } {
  db.function("shard_cell", { deterministic: true }, (lat, lng) => cellAt(lat as number | null, lng as number | null));
  const bytes = sized ? rawBytes(VENUE_TEXT.map((c) => `v.${c}`)) : "0";
  const rows = db
    .prepare(
      `SELECT country, state, cell, count(*), sum(bytes), min(lat), min(lng), max(lat), max(lng) FROM (
         SELECT ${PLACE[0]} AS country, ${PLACE[1]} AS state, ${PLACE_CELL} AS cell, ${OWN_POINT[0]} AS lat,
                ${OWN_POINT[1]} AS lng, ${bytes} AS bytes FROM ${VENUES_IN_CITIES})
       GROUP BY country, state, cell`,
    )
    .raw()
    .iterate() as Iterable<[string, string, number, number, number, ...(number | null)[]]>;
  const places: PlaceCount[] = [];
  const bounds = new Map<string, ShardBox>();
  for (const [country, state, cell, venues, placeBytes, south, west, north, east] of rows) {
    const place = { country, state, cell, venues, ...(sized ? { bytes: placeBytes } : {}) };
    places.push(place);
    if (south != null && west != null && north != null && east != null)
      bounds.set(placeKey(place), [south, west, north, east]);
  }
  return { places, bounds };
}

/**
 * Each region of the plan with the bounds of its venues' own points, a box per cell of
 * SHARD_BOX_LEVEL (regionBoxes: a search in an area asks the regions whose boxes it meets).
 */
function withBoxes(plan: PlannedShard[], places: readonly PlaceCount[], bounds: Map<string, ShardBox>): PlannedShard[] {
  const boxes = new Map<ShardRegion, ShardBox[]>();
  for (const place of places) {
    const box = bounds.get(placeKey(place));
    const region = box === undefined ? undefined : regionOf(plan, place);
    if (region === undefined || box === undefined) continue;
    const list = boxes.get(region);
    if (list === undefined) boxes.set(region, [box]);
    else list.push(box);
  }
  for (const [region, list] of boxes) region.boxes = regionBoxes(list);
  return plan;
}

/** The columns of a raw venue that the data served is made from (its file and line only say where it was read). */
const SERVED_COLUMNS = [
  "id",
  "name",
  "name_norm",
  "words",
  "names",
  "own",
  "shared",
  "name_sets",
  "name_texts",
  "localized",
  "city_gid",
  "url",
  "lat",
  "lng",
  "kind",
  "source",
  "hints",
  "country_hint",
  "placed",
  "own_id",
  "own_url",
].map((c) => `v.${c}`);

/**
 * Per venue database of the plan, a digest of its venues as the build placed them, by id (the
 * generator's threads write their rows in an order of their own): what it serves beyond the
 * places is made from them alone (its vocabulary counts its own venues' words:
 * src/d1/main-only.ts), so the same digest means the same venues, whatever the other regions hold
 * (meta.ts: a venue database's data version). A venue database's build that plans itself
 * (`only`: not from the main database's reading) digests its own venues alone, which is all it
 * checks; the others' digests are then "".
 */
function venueDigests(db: Database.Database, count: number, only: number | null): string[] {
  const hashes = Array.from({ length: count }, () => createHash("sha256"));
  const rows = db
    .prepare(
      `SELECT shard_of(${PLACE.join(", ")}) AS shard, ${SERVED_COLUMNS.join(", ")} FROM ${VENUES_IN_CITIES}
       ${only === null ? "" : "WHERE shard = ?"} ORDER BY v.id, v.source, v.url`,
    )
    .raw()
    .iterate(...(only === null ? [] : [only])) as Iterable<[number, ...unknown[]]>;
  for (const [shard, ...row] of rows) hashes[shard]?.update(`${JSON.stringify(row)}\n`);
  return hashes.map((h, i) => (only === null || i === only ? h.digest("hex").slice(0, 16) : ""));
}

/**
 * A plan of venue databases as a build made it: each database's regions and venues, and the
 * digest of its venues; chosen by a size, each one's estimated size (size.ts).
 */
export interface BuiltPlan {
  shards: PlannedShard[];
  digests: string[];
  estimates?: number[];
}

/**
 * The venue database (from 0) that holds a city of the `cities` table, by the plan that
 * keepShardVenues() made (its SQL function shard_of): the one whose regions hold the city's place,
 * -1 where none does (a place without venues in a country split by state or cell).
 */
export const CITY_SHARD = "shard_of(country_code, coalesce(admin1_code, ''), lat, lng)";

/**
 * In a venue database's build, once its cities and venues are numbered among every city read
 * (phases/order.ts), the raw cities of the other regions dropped: what is made of the cities after
 * that (their vocabulary, their cell counts) is of its own regions' alone.
 */
export function dropOtherCities(db: Database.Database, shard: number): void {
  deleteByWindows(
    db,
    "raw_cities",
    `SELECT gid FROM raw_cities WHERE gid > ? AND gid <= ? AND ${CITY_SHARD} <> ?`,
    shard,
  );
}

/** The rowids one DELETE of deleteByWindows() removes at most. */
const DELETE_WINDOW = 1 << 18;

/**
 * Deletes the rows of `table` whose rowids `chosen` selects, given a window of rowids (?1 < rowid
 * ≤ ?2) and `params` after: a window at a time, since SQLite holds in memory every rowid a
 * DELETE is to remove (three quarters of the venues and cities in a venue database of four).
 */
function deleteByWindows(db: Database.Database, table: string, chosen: string, ...params: unknown[]): void {
  const last = (db.prepare(`SELECT max(rowid) FROM ${table}`).pluck().get() as number | null) ?? 0;
  const remove = db.prepare(`DELETE FROM ${table} WHERE rowid IN (${chosen})`);
  for (let from = 0; from < last; from += DELETE_WINDOW) remove.run(from, from + DELETE_WINDOW, ...params);
}

/** The databases planned from the build's placed venues: as many as asked, or as a size chooses (size.ts). */
function plannedHere(db: Database.Database, choice: ShardChoice): { shards: PlannedShard[]; estimates?: number[] } {
  const { size, count } = choice;
  const { places, bounds } = placedCounts(db, size !== undefined);
  if (size === undefined) return { shards: withBoxes(planShards(places, count ?? 1, choice.kept), places, bounds) };
  const { plan, estimates } = sizedPlan(places, cityBytes(db), size, choice.kept);
  return { shards: withBoxes(plan, places, bounds), estimates };
}

/** The SQL function shard_of(country, state, lat, lng): the database of the plan that holds a place, -1 where none does. */
function shardFunction(db: Database.Database, shards: readonly PlannedShard[]): void {
  const shardHolding = shardFinder(shards);
  db.function("shard_of", { deterministic: true }, (country, state, lat, lng) =>
    shardHolding({
      country: String(country),
      state: String(state),
      cell: country === "" ? 0 : cellAt(lat as number | null, lng as number | null),
    }),
  );
}

/**
 * Whether a venue database's build may take over the plan that the main database's build made
 * from the same reading (read-once.ts): the one whose regions its manifest names, so the same
 * places and venues give the same plan and digests without counting and digesting them again.
 */
const isManifestPlan = (choice: ShardChoice, mainPlan: BuiltPlan | undefined): mainPlan is BuiltPlan =>
  choice.index !== null &&
  mainPlan !== undefined &&
  mainPlan.shards.length === choice.count &&
  JSON.stringify(mainPlan.shards.map((s) => s.regions)) === JSON.stringify(choice.kept);

/**
 * Plans the databases from the build's placed venues (or, in a venue database's build from the
 * main database's reading, takes over `mainPlan`: isManifestPlan) and, in a venue database, drops
 * the venues of the others; its build keeps the cities of its own regions alone (phases/order.ts:
 * CITY_SHARD).
 */
export function keepShardVenues(db: Database.Database, choice: ShardChoice, mainPlan?: BuiltPlan): BuiltPlan {
  const taken = isManifestPlan(choice, mainPlan);
  const { shards, estimates } = taken ? mainPlan : plannedHere(db, choice);
  shardFunction(db, shards);
  const digests = taken ? mainPlan.digests : venueDigests(db, shards.length, choice.index);
  if (choice.index !== null) {
    const others = `SELECT v.rowid FROM ${VENUES_IN_CITIES} WHERE v.rowid > ? AND v.rowid <= ? AND shard_of(${PLACE.join(", ")}) <> ?`;
    deleteByWindows(db, "raw_venues", others, choice.index);
  }
  return { shards, digests, ...(estimates === undefined ? {} : { estimates }) };
}
