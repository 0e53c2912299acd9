/**
 * The cities' and venues' search indexes built in a worker thread (fts-worker.ts) from their
 * documents in the side file (build-file.ts), while the main thread builds the vocabulary, the
 * stored totals and the cell counts: FTS5's indexing is a third of a large import, and runs on
 * the second core. The side file is detached meanwhile (the worker alone writes it), and attached
 * again when the indexes are done. Publishing copies them (publish/local.ts).
 */
import type Database from "better-sqlite3";
import { inWorkerAtOnce } from "../../tools/in-worker.ts";
import { FTS_DOCUMENTS, SIDE } from "./build-file.ts";

export interface FtsJob {
  file: string;
  tables: { table: string; docs: string; ddl: string }[];
}

/** Starts the worker on the side file's documents; resolves once the indexes are built and the file attached again. */
export function prebuildFts(db: Database.Database): Promise<void> {
  const side = (db.prepare("PRAGMA database_list").all() as { name: string; file: string }[]).find(
    (d) => d.name === SIDE,
  );
  if (side === undefined) throw new Error("the build has no side file attached");
  const ddl = db.prepare("SELECT sql FROM main.sqlite_master WHERE name = ?").pluck();
  const tables = FTS_DOCUMENTS.filter((f) => f.file === SIDE).map((f) => ({
    table: f.table,
    docs: f.docs,
    ddl: ddl.get(f.table) as string,
  }));
  db.exec(`DETACH DATABASE ${SIDE}`);
  const built = inWorkerAtOnce<FtsJob, true>(new URL("./fts-worker.ts", import.meta.url), { file: side.file, tables });
  return built.then(() => {
    db.prepare(`ATTACH DATABASE ? AS ${SIDE}`).run(side.file);
  });
}
