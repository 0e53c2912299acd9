/**
 * The venues of one venue database (docs/deploy.md#past-one-database), chosen in the build right
 * after the venues are placed: every import of a plan counts the same places from the same raw
 * tables, so each plans alike, and each keeps the venues of its own regions. A venue's place is
 * its city's (country, state, the cell of the city's point), so a city's venues stay together and
 * keep their pos; a venue without a city is in the region of its own (country "").
 */
import type Database from "better-sqlite3";
import { cellOf } from "../../../src/data-contract/grid.ts";
import { COUNT_LEVEL, planShards, shardOf, type PlaceCount, type PlannedShard } from "./plan.ts";

/** Which database of how many a build is: `index` null for the main one, which keeps every venue. */
export interface ShardChoice {
  count: number;
  index: number | null;
}

/** A venue's place (country, state, lat, lng), from the venue joined with its city (alias v, c). */
const PLACE = [
  "coalesce(c.country_code, '')",
  "CASE WHEN c.gid IS NULL THEN '' ELSE coalesce(c.admin1_code, '') END",
  "coalesce(c.lat, v.lat)",
  "coalesce(c.lng, v.lng)",
];
const VENUES_IN_CITIES = "raw_venues v LEFT JOIN raw_cities c ON c.gid = v.city_gid";

const cellAt = (lat: number | null, lng: number | null) =>
  lat === null || lng === null ? 0 : cellOf(COUNT_LEVEL, lat, lng);

/** The placed venues of the build per place. */
function placedCounts(db: Database.Database): PlaceCount[] {
  const rows = db
    .prepare(
      `SELECT ${PLACE.join(", ")}, count(*) FROM ${VENUES_IN_CITIES} GROUP BY ${PLACE.map((_, i) => i + 1).join(", ")}`,
    )
    .raw()
    .iterate() as Iterable<[string, string, number | null, number | null, number]>;
  const counts = new Map<string, PlaceCount>();
  for (const [country, state, lat, lng, venues] of rows) {
    const cell = country === "" ? 0 : cellAt(lat, lng);
    const key = `${country}/${state}/${cell}`;
    const place = counts.get(key) ?? { country, state, cell, venues: 0 };
    place.venues += venues;
    counts.set(key, place);
  }
  return [...counts.values()];
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
  const plan = planShards(placedCounts(db), choice.count);
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
