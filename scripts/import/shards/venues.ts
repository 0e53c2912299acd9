/**
 * The venues of one venue database (docs/deploy.md#past-one-database), chosen in the build right
 * after the venues are placed: every import of a plan counts the same places from the same raw
 * tables, so each plans alike, and each keeps the venues of its own regions. A venue's place is
 * its city's (country, state, the cell of the city's point), so a city's venues stay together and
 * keep their pos; a venue without a city is in the region of its own (country "").
 */
import type Database from "better-sqlite3";
import { shardCell, type ShardBox, type ShardPlace } from "../../../src/data-contract/shards.ts";
import { planShards, regionOf, shardOf, type PlaceCount, type PlannedShard } from "./plan.ts";

/** Which database of how many a build is: `index` null for the main one, which keeps every venue. */
export interface ShardChoice {
  count: number;
  index: number | null;
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

const widened = (b: ShardBox | undefined, lat: number, lng: number): ShardBox =>
  b === undefined
    ? [lat, lng, lat, lng]
    : [Math.min(b[0], lat), Math.min(b[1], lng), Math.max(b[2], lat), Math.max(b[3], lng)];

/** The placed venues of the build per place, and the bounds of their own points per place. */
function placedCounts(db: Database.Database): { places: PlaceCount[]; bounds: Map<string, ShardBox> } {
  const rows = db
    .prepare(`SELECT ${[...PLACE, ...POINT].join(", ")}, count(*) FROM ${VENUES_IN_CITIES} GROUP BY 1, 2, 3, 4, 5, 6`)
    .raw()
    .iterate() as Iterable<[string, string, number | null, number | null, number | null, number | null, number]>;
  const counts = new Map<string, PlaceCount>();
  const bounds = new Map<string, ShardBox>();
  for (const [country, state, lat, lng, ownLat, ownLng, venues] of rows) {
    const cell = country === "" ? 0 : cellAt(lat, lng);
    const key = placeKey({ country, state, cell });
    const place = counts.get(key) ?? { country, state, cell, venues: 0 };
    place.venues += venues;
    counts.set(key, place);
    if (ownLat !== null && ownLng !== null) bounds.set(key, widened(bounds.get(key), ownLat, ownLng));
  }
  return { places: [...counts.values()], bounds };
}

/** Each region of the plan with the bounds of its venues' own points (a search in an area asks the regions it meets). */
function withBoxes(plan: PlannedShard[], places: readonly PlaceCount[], bounds: Map<string, ShardBox>): PlannedShard[] {
  for (const place of places) {
    const box = bounds.get(placeKey(place));
    const region = box === undefined ? undefined : regionOf(plan, place);
    if (region === undefined || box === undefined) continue;
    region.box = widened(widened(region.box, box[0], box[1]), box[2], box[3]);
  }
  return plan;
}

/**
 * The words of the other databases' venues, which a venue database's vocabulary counts as its own
 * (phases/vocabulary.ts): the corrections of a typo, and the order they are tried in, are the one
 * database's, so a search in one venue database forgives a typo as the one database does.
 */
export const OTHER_VENUE_WORDS = "temp.other_venue_words";

/**
 * Plans the databases from the build's placed venues and, in a venue database, drops the venues of
 * the others, their words kept in OTHER_VENUE_WORDS.
 */
export function keepShardVenues(db: Database.Database, choice: ShardChoice): PlannedShard[] {
  const { places, bounds } = placedCounts(db);
  const plan = withBoxes(planShards(places, choice.count), places, bounds);
  if (choice.index === null) return plan;
  const index = choice.index;
  db.function("shard_of", { deterministic: true }, (country, state, lat, lng) =>
    shardOf(plan, {
      country: String(country),
      state: String(state),
      cell: country === "" ? 0 : cellAt(lat as number | null, lng as number | null),
    }),
  );
  db.exec(`CREATE TEMP TABLE other_venues (id INTEGER PRIMARY KEY);
           CREATE TABLE ${OTHER_VENUE_WORDS} (words TEXT NOT NULL)`);
  db.prepare(
    `INSERT INTO temp.other_venues SELECT v.rowid FROM ${VENUES_IN_CITIES} WHERE shard_of(${PLACE.join(", ")}) <> ?`,
  ).run(index);
  db.exec(`INSERT INTO ${OTHER_VENUE_WORDS} SELECT words FROM raw_venues WHERE rowid IN (SELECT id FROM temp.other_venues);
           DELETE FROM raw_venues WHERE rowid IN (SELECT id FROM temp.other_venues);
           DROP TABLE temp.other_venues`);
  return plan;
}
