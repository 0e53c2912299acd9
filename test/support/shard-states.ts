/**
 * States of a sharded import that the tests put a served database in, or check it is in
 * (docs/deploy.md#past-one-database): a venue database that holds another import, and a main
 * database without venues (scripts/import/shards/main-venues.ts).
 */
import Database from "better-sqlite3";
import { expect } from "vitest";
import { d1Database, localD1File, shardDatabases } from "../../scripts/import/wrangler.ts";
import {
  MAIN_HOLDS_NO_VENUE,
  MAIN_VENUES_KEY,
  SHARD_PLAN_KEY,
  type ShardManifest,
} from "../../src/data-contract/shards.ts";

/** Runs `during` while the database at `file` says it holds another import's data version, then gives its own back. */
export async function whileAnotherImport<T>(file: string, during: () => Promise<T>): Promise<T> {
  const db = new Database(file);
  const version = db.prepare("SELECT value FROM meta WHERE key = 'data_version'").pluck().get() as string;
  try {
    db.prepare("UPDATE meta SET value = 'another import' WHERE key = 'data_version'").run();
    return await during();
  } finally {
    db.prepare("UPDATE meta SET value = ? WHERE key = 'data_version'").run(version);
    db.close();
  }
}

/**
 * Runs `during` while venue database `shard` and the main database of the local D1 in `state`
 * hold a new import together, as a swap of every database leaves them (scripts/import/shards/
 * swap-together.ts): each its own data version, the main one's manifest naming the venue
 * database's; then gives both their own back.
 */
export async function whileSwappedTogether<T>(state: string, shard: number, during: () => Promise<T>): Promise<T> {
  const file = localD1File(shardDatabases(shard)[shard - 1]?.id ?? "", state);
  const [main, venues] = [new Database(localD1File(d1Database().id, state)), new Database(file)];
  const read = (db: Database.Database, key: string) =>
    db.prepare("SELECT value FROM meta WHERE key = ?").pluck().get(key) as string;
  const write = (db: Database.Database, key: string, value: string) =>
    db.prepare("UPDATE meta SET value = ? WHERE key = ?").run(value, key);
  const before = {
    main: read(main, "data_version"),
    venues: read(venues, "data_version"),
    plan: read(main, SHARD_PLAN_KEY),
  };
  const plan = (JSON.parse(before.plan) as ShardManifest).map((s) =>
    s.shard === shard ? { ...s, version: "swapped" } : s,
  );
  try {
    write(venues, "data_version", "swapped");
    main.transaction(() => {
      write(main, SHARD_PLAN_KEY, JSON.stringify(plan));
      write(main, "data_version", "main swapped");
    })();
    return await during();
  } finally {
    main.transaction(() => {
      write(main, SHARD_PLAN_KEY, before.plan);
      write(main, "data_version", before.main);
    })();
    write(venues, "data_version", before.venues);
    main.close();
    venues.close();
  }
}

/** A city that holds venues of a database. */
export const aCityOf = (db: Database.Database | undefined): string =>
  String(db?.prepare("SELECT c.id FROM venues v JOIN cities c ON c.pos = v.city_pos LIMIT 1").pluck().get());

/** A database's venues. */
export const venueCount = (db: Database.Database): number =>
  db.prepare("SELECT count(*) FROM venues").pluck().get() as number;

/** Each of these search indexes of `db` empty: it holds its structure record and averages alone. */
function expectEmptyIndexes(db: Database.Database, indexes: readonly string[]): void {
  for (const index of indexes) expect(db.prepare(`SELECT count(*) FROM ${index}_data`).pluck().get(), index).toBe(2);
}

/** Venue databases: no city indexed nor counted, for every city search runs in the main database, which counts them (scripts/import/shards/served.ts). */
export function expectNoCitySearch(venueDbs: readonly Database.Database[], main: Database.Database): void {
  const cityRows = (db: Database.Database, table: string) =>
    db.prepare(`SELECT count(*) FROM ${table} WHERE kind = 'city'`).pluck().get();
  expect(cityRows(main, "name_prefix_counts")).toBeGreaterThan(0);
  for (const db of venueDbs) {
    expectEmptyIndexes(db, ["cities_fts", "city_name_words_fts"]);
    for (const table of ["name_prefix_counts", "name_tiers", "name_anchors", "cell_counts"])
      expect(cityRows(db, table), table).toBe(0);
  }
}

/** A main database without venues: no venue row, their search indexes empty, its meta rows saying so, the vocabulary kept. */
export function expectNoVenues(main: Database.Database): void {
  expect(venueCount(main)).toBe(0);
  expect(main.prepare("SELECT count(*) FROM venue_name_texts").pluck().get()).toBe(0);
  expectEmptyIndexes(main, ["venues_fts", "venue_name_words_fts"]);
  expect(main.prepare("SELECT value FROM meta WHERE key = ?").pluck().get(MAIN_VENUES_KEY)).toBe(MAIN_HOLDS_NO_VENUE);
  expect(main.prepare("SELECT count(*) FROM words").pluck().get()).toBeGreaterThan(0);
}
