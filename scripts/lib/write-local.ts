/**
 * Writes a Dataset into the local D1 database file (the SQLite file that `wrangler dev`
 * serves) in ONE transaction: the old rows stay served until COMMIT, and a failed or killed
 * import leaves them untouched (SQLite discards an uncommitted transaction).
 */
import Database from "better-sqlite3";
import type { Dataset } from "./dataset.ts";
import type { Progress } from "./progress.ts";
import { BUILD_SEARCH_INDEXES, CLEAR_SEARCH_INDEXES, metaRows, tableData } from "./tables.ts";

export function writeLocal(
  path: string,
  dataset: Dataset,
  dataVersion: string,
  sources: string,
  progress: Progress,
): void {
  const db = new Database(path, { fileMustExist: true });
  try {
    db.pragma("busy_timeout = 30000");
    db.pragma("cache_size = -65536"); // 64 MiB
    const tables = tableData(dataset);
    db.exec("BEGIN IMMEDIATE");
    try {
      progress.phase("clearing old rows (kept until the new ones commit)");
      for (const t of [...tables].reverse()) db.exec(`DELETE FROM ${t.name}`);
      db.exec("DELETE FROM meta");
      for (const sql of CLEAR_SEARCH_INDEXES) db.exec(sql);

      for (const t of tables) {
        progress.phase(`writing ${t.name}`, t.count);
        const placeholders = t.columns.map(() => "?").join(", ");
        const insert = db.prepare(`INSERT INTO ${t.name} (${t.columns.join(", ")}) VALUES (${placeholders})`);
        let n = 0;
        for (const row of t.rows()) {
          insert.run(row);
          if (++n % 10_000 === 0) progress.tick(n);
        }
        progress.tick(n);
      }

      progress.phase("building search indexes");
      for (const sql of BUILD_SEARCH_INDEXES) db.exec(sql);
      const putMeta = db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)");
      for (const [key, value] of metaRows(dataset, dataVersion, sources)) putMeta.run(key, value);
      progress.phase("committing");
      db.exec("COMMIT");
    } catch (e) {
      if (db.inTransaction) db.exec("ROLLBACK");
      throw e;
    }
    db.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
}

/** The data version a local D1 file holds, or null when it holds none (or no file). */
export function localDataVersion(path: string): string | null {
  let db: Database.Database;
  try {
    db = new Database(path, { fileMustExist: true, readonly: true });
  } catch {
    return null;
  }
  try {
    const row = db.prepare("SELECT value FROM meta WHERE key = 'data_version'").get() as { value: string } | undefined;
    return row?.value ?? null;
  } catch {
    return null; // no meta table yet: migrations not applied
  } finally {
    db.close();
  }
}
