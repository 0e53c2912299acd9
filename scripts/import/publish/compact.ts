/**
 * Giving the pages of the dropped old tables back (publish/local.ts): a re-import builds the new
 * data beside the old, so once the old tables are dropped the file holds its data once and as much
 * again in free pages (the default data: 607 MiB, 301 of them free). The file is put in SQLite's
 * incremental auto-vacuum mode once (a VACUUM, which rewrites it, at a moment no one reads or the
 * file is small); from then on the free pages are moved to its end and cut off in short steps,
 * `PRAGMA incremental_vacuum(N)`, each a write transaction as long as the publisher's others, so a
 * running `wrangler dev` keeps answering.
 */
import type Database from "better-sqlite3";
import type { Progress } from "../progress.ts";
import type { Steps } from "./steps.ts";

/** SQLite's auto_vacuum value for incremental. */
const INCREMENTAL = 2;
/** A file of at most this many pages is rewritten by VACUUM in about as long as a drop at once (drop.ts). */
const VACUUM_AT_ONCE_PAGES = 32_768;
/**
 * Pages given back in one step when no one reads: each step's pages go through the WAL, which SQLite
 * checkpoints after each commit, so the WAL holds one step's (512 MiB), not every free page's.
 */
const ALONE_STEP_PAGES = 131_072;
/** Free pages below this share of the file are left (a first import into a new file frees only empty tables). */
const WORTH = 0.05;

const pragma = (db: Database.Database, name: string) => db.pragma(name, { simple: true }) as number;

/** Whether the file is in incremental mode, or was put in it now: when no one reads, or it is small. */
export function incrementalMode(db: Database.Database, alone: boolean): boolean {
  if (pragma(db, "auto_vacuum") === INCREMENTAL) return true;
  if (!alone && pragma(db, "page_count") > VACUUM_AT_ONCE_PAGES) return false;
  db.pragma(`auto_vacuum = ${INCREMENTAL}`);
  // VACUUM cannot run in a transaction or with another statement running: it runs alone here.
  db.exec("VACUUM main");
  return true;
}

/**
 * Cuts the free pages off the file, in steps when others read it (each step's pages adapted to the
 * publisher's transaction length); returns the bytes given back. A file that is not in incremental
 * mode and too big to rewrite while others read keeps them, and the progress says so.
 */
export async function compact(steps: Steps, db: Database.Database, progress: Progress): Promise<number> {
  const pageBytes = pragma(db, "page_size");
  const free = pragma(db, "freelist_count");
  if (free < WORTH * pragma(db, "page_count")) return 0;
  if (!incrementalMode(db, steps.alone)) {
    progress.line(
      `The file keeps ${((free * pageBytes) / 2 ** 20).toFixed(0)} MiB of free pages (the old data's): an import while ` +
        "no one reads it (npm start, or --fast) gives them back, and every import after that does too.",
    );
    return 0;
  }
  steps.reset();
  while (pragma(db, "freelist_count") > 0) {
    const pages = steps.alone ? ALONE_STEP_PAGES : steps.rows;
    await steps.write(() => db.pragma(`incremental_vacuum(${pages})`));
  }
  return free * pageBytes;
}
