/**
 * A served main database without venues, made from one with them (the tests' and the benchmark's:
 * docs/deploy.md#past-one-database), as an import with `--main-venues none` builds it
 * (scripts/import/shards/main-venues.ts).
 */
import { copyFileSync } from "node:fs";
import Database from "better-sqlite3";
import { MAIN_HOLDS_NO_VENUE, MAIN_VENUES_KEY } from "../../src/data-contract/shards.ts";
import { takeVenuesOut as takeOut } from "../import/shards/main-venues.ts";

/** Takes the venues' own rows out of the main database at `path`, in place, and says so in its meta rows. */
export function takeVenuesOut(path: string): void {
  const db = new Database(path);
  takeOut(db, "main");
  db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)").run(MAIN_VENUES_KEY, MAIN_HOLDS_NO_VENUE);
  db.close();
}

/** Copies the main database at `path` to `to` without its venues; the copy, opened read-only. */
export function hollowMain(path: string, to: string): Database.Database {
  copyFileSync(path, to);
  takeVenuesOut(to);
  return new Database(to, { readonly: true });
}
