/**
 * A main database without venues (docs/deploy.md#past-one-database): a copy of a sharded import's
 * main database with the venues' own rows taken out — their rows, their names as written, their
 * search documents — and what it keeps of them (stored totals, anchors, blocks, cell counts and the
 * vocabulary) left as the import wrote it. What the venue databases answer from it, they answer
 * without the main database's venues.
 */
import { copyFileSync } from "node:fs";
import Database from "better-sqlite3";
import { MAIN_HOLDS_NO_VENUE, MAIN_VENUES_KEY } from "../../src/data-contract/shards.ts";

/** Takes the venues' own rows out of the main database at `path`, in place, and says so in its meta rows. */
export function takeVenuesOut(path: string): void {
  const db = new Database(path);
  db.exec(`DELETE FROM venues; DELETE FROM venue_name_texts;
           INSERT INTO venues_fts(venues_fts) VALUES ('delete-all');
           INSERT INTO venue_name_words_fts(venue_name_words_fts) VALUES ('delete-all');`);
  db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)").run(MAIN_VENUES_KEY, MAIN_HOLDS_NO_VENUE);
  db.close();
}

/** Copies the main database at `path` to `to` without its venues; the copy, opened read-only. */
export function hollowMain(path: string, to: string): Database.Database {
  copyFileSync(path, to);
  takeVenuesOut(to);
  return new Database(to, { readonly: true });
}
