/** FTS5's merge settings, as publishing and the prebuild of the indexes (phases/fts-worker.ts) set them. */
import type Database from "better-sqlite3";

/** FTS5's own defaults of the merge settings (restored after indexing). */
export const FTS5_DEFAULTS = { automerge: 4, crisismerge: 16 };

export function configureFts(db: Database.Database, table: string, settings: Record<string, number>): void {
  // FTS5 takes these as integer values only (a bound JS number arrives as a real).
  for (const [name, value] of Object.entries(settings)) {
    db.exec(`INSERT INTO main.${table} (${table}, rank) VALUES ('${name}', ${Math.trunc(value)})`);
  }
}
