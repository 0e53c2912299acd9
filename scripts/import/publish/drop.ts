/**
 * Dropping tables from a served database (publish/local.ts: what an interrupted import left, and
 * the old tables after the swap). With readers, a large table is emptied in short steps first;
 * a small one is dropped in one write.
 */
import type Database from "better-sqlite3";
import type { Steps } from "./steps.ts";

/**
 * Drops tables; with readers, those over DROP_AT_ONCE_PAGES are emptied in short transactions
 * first (an FTS table through its shadow table of index pages; WITHOUT ROWID tables, small, are
 * dropped at once).
 */
export async function dropTables(steps: Steps, db: Database.Database, tables: readonly string[]): Promise<void> {
  const ddl = db.prepare("SELECT sql FROM main.sqlite_master WHERE type = 'table' AND name = ?").pluck();
  for (const table of tables) {
    const sql = ddl.get(table) as string | undefined;
    if (sql === undefined) continue;
    const virtual = /^CREATE VIRTUAL TABLE/i.test(sql);
    const part = virtual ? `${table}_data` : table;
    steps.reset();
    // Alone, or small, a table is dropped at once: emptying it row by row first (for readers' sake)
    // updates every index for every row, minutes for a database of 10 million venues, and 4.5 of
    // the 11 minutes of a re-import of the default data under load (2026-11-27).
    if (
      !steps.alone &&
      !atMostPages(
        db,
        virtual ? FTS5_SHADOWS.map((s) => `${table}_${s}`) : treesOf(db, table),
        steps.dropAtOncePages ?? DROP_AT_ONCE_PAGES,
      ) &&
      !/WITHOUT ROWID/i.test((ddl.get(part) as string | undefined) ?? "WITHOUT ROWID")
    ) {
      // SQLite's defensive mode keeps FTS5 shadow tables read-only; the table is dropped next anyway.
      db.unsafeMode(part !== table);
      try {
        const remove = db.prepare(`DELETE FROM main.${part} WHERE rowid IN (SELECT rowid FROM main.${part} LIMIT ?)`);
        while ((await steps.write(() => remove.run(steps.rows).changes)) > 0);
      } finally {
        db.unsafeMode(false);
      }
    }
    await steps.write(() => db.exec(`DROP TABLE main.${table}`));
  }
}

/**
 * Tables this big at most (their indexes, or an FTS5 table's shadow tables, included) are dropped
 * in one write transaction while readers wait: dropping takes about 3 µs a page (the default
 * data's largest, 15,748 pages, 46 ms; measured 2026-11-27), so 32,768 pages about 100 ms, well
 * inside the 3 s the worker retries a locked database for (src/d1/session.ts).
 */
const DROP_AT_ONCE_PAGES = 32_768;
const FTS5_SHADOWS = ["data", "idx", "content", "docsize", "config"];

/** A plain table's b-trees: itself and its indexes. */
const treesOf = (db: Database.Database, table: string): string[] =>
  db
    .prepare("SELECT name FROM main.sqlite_master WHERE tbl_name = ? AND type IN ('table', 'index')")
    .pluck()
    .all(table) as string[];

/** Whether these b-trees hold at most `most` pages in all (dbstat reads them, stopping past `most`). */
function atMostPages(db: Database.Database, trees: readonly string[], most: number): boolean {
  const count = db.prepare("SELECT count(*) FROM (SELECT 1 FROM main.dbstat WHERE name = ? LIMIT ?)").pluck();
  let pages = 0;
  for (const tree of trees) {
    pages += count.get(tree, most + 1 - pages) as number;
    if (pages > most) return false;
  }
  return true;
}
