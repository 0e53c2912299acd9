/**
 * The worker thread of fts-prebuild.ts: in the side file, each search index created as the served
 * one is (the same DDL, the same page size), its documents inserted in one transaction, then merged
 * into one segment, as publishing an index alone does (publish/local.ts).
 */
import Database from "better-sqlite3";
import { answerJobs } from "../../tools/in-worker.ts";
import { configureFts, FTS5_DEFAULTS } from "../publish/fts-settings.ts";
import { FTS_PAGE_BYTES } from "../publish/stage.ts";
import type { FtsJob } from "./fts-prebuild.ts";

await answerJobs((job: FtsJob): true => {
  const db = new Database(job.file);
  try {
    db.pragma("synchronous = OFF");
    // Two workers at once: what each one's SQLite held stays in the process (docs/import.md#search-indexes-beside).
    db.pragma("cache_size = -8192");
    for (const { table, docs, ddl } of job.tables) {
      db.exec(ddl);
      configureFts(db, table, { pgsz: FTS_PAGE_BYTES, automerge: 0, crisismerge: 256 });
      const column =
        (db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().get(table) as string | undefined) ?? "doc";
      db.exec(`INSERT INTO main.${table} (rowid, ${column}) SELECT pos, doc FROM main.${docs}`);
      db.exec(`INSERT INTO main.${table} (${table}) VALUES ('optimize')`);
      configureFts(db, table, FTS5_DEFAULTS);
    }
  } finally {
    db.close();
  }
  return true;
});
