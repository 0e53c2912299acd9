/**
 * A main database without venues (`--main-venues none`, docs/deploy.md#past-one-database): its
 * venues' own rows taken out — their rows, their names as written, their search documents and
 * indexes — and what it keeps of them (stored totals, anchors, blocks, cell counts and the
 * vocabulary, counted over every venue) left as the build wrote it. The venue databases answer
 * every venue search then, merged where a search asks several (src/d1/route.ts).
 */
import type Database from "better-sqlite3";
import { MAIN_HOLDS_NO_VENUE } from "../../../src/data-contract/shards.ts";
import { FTS_DOCUMENTS, type SideFile } from "../phases/build-file.ts";
import type { Progress } from "../progress.ts";
import type { ShardChoice } from "./venues.ts";

/** The venues' own tables, in the main schema of a build and of a served database. */
const VENUE_TABLES = ["venues", "venue_name_texts"] as const;

/** The venues' search indexes and their documents (build-file.ts). */
const VENUE_INDEXES = FTS_DOCUMENTS.filter((f) => f.file === "side_venues");

/**
 * Takes the venues' own rows out of `db`: its tables, and its search indexes where they are — in
 * `indexes`, the schema that holds them: "main" in a served database, the side file with their
 * documents in a build (SQLite empties a table deleted without a condition at once).
 */
export function takeVenuesOut(db: Database.Database, indexes: "main" | SideFile): void {
  for (const table of VENUE_TABLES) db.exec(`DELETE FROM main.${table}`);
  for (const { table, docs } of VENUE_INDEXES) {
    db.exec(`INSERT INTO ${indexes}.${table}(${table}) VALUES ('delete-all')`);
    if (indexes !== "main") db.exec(`DELETE FROM ${indexes}.${docs}`);
  }
}

/** In the main database's build of a plan with `--main-venues none`: its venues taken out, once every count over them is built. */
export function takeMainVenuesOut(db: Database.Database, shards: ShardChoice | undefined, progress: Progress): void {
  if (shards?.index !== null || shards.mainVenues !== MAIN_HOLDS_NO_VENUE) return;
  progress.phase("taking the venues out of the main database (--main-venues none)");
  takeVenuesOut(db, "side_venues");
}
