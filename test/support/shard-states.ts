/**
 * States of a sharded import that the tests put a served database in, or check it is in
 * (docs/deploy.md#past-one-database): a venue database that holds another import, and a main
 * database without venues (scripts/import/shards/main-venues.ts).
 */
import Database from "better-sqlite3";
import { expect } from "vitest";
import { MAIN_HOLDS_NO_VENUE, MAIN_VENUES_KEY } from "../../src/data-contract/shards.ts";

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

/** A database's venues. */
export const venueCount = (db: Database.Database): number =>
  db.prepare("SELECT count(*) FROM venues").pluck().get() as number;

/** A main database without venues: no venue row, their search indexes empty, its meta rows saying so, the vocabulary kept. */
export function expectNoVenues(main: Database.Database): void {
  expect(venueCount(main)).toBe(0);
  expect(main.prepare("SELECT count(*) FROM venue_name_texts").pluck().get()).toBe(0);
  // An emptied search index holds its structure record and averages alone.
  for (const index of ["venues_fts", "venue_name_words_fts"])
    expect(main.prepare(`SELECT count(*) FROM ${index}_data`).pluck().get(), index).toBe(2);
  expect(main.prepare("SELECT value FROM meta WHERE key = ?").pluck().get(MAIN_VENUES_KEY)).toBe(MAIN_HOLDS_NO_VENUE);
  expect(main.prepare("SELECT count(*) FROM words").pluck().get()).toBeGreaterThan(0);
}
