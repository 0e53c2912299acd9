/**
 * The search indexes built in a worker thread (fts-worker.ts) from their documents in the side
 * files (build-file.ts), while the main thread goes on: the cities' while it orders the venues, the
 * venues' while it builds the vocabulary, the stored totals and the cell counts, the vocabulary's
 * (words_fts) after it. FTS5's indexing is a third of a large import, and runs on the second core.
 * A side file is detached meanwhile (the worker alone writes it), and attached again when its
 * indexes are done. Publishing copies them (publish/local.ts).
 */
import type Database from "better-sqlite3";
import { JobWorker } from "../../tools/in-worker.ts";
import { FTS_DOCUMENTS, type SideFile } from "./build-file.ts";

export interface FtsJob {
  file: string;
  tables: { table: string; docs: string; ddl: string }[];
}

/** The worker that indexes the side files, one after another, in the order they are handed to it. */
export class FtsPrebuild {
  private readonly worker = new JobWorker<FtsJob, true>(new URL("./fts-worker.ts", import.meta.url));
  private readonly built: Promise<void>[] = [];

  constructor(private readonly db: Database.Database) {}

  /** Hands the side file's documents, all written, to the worker. */
  index(side: SideFile): void {
    const path = (this.db.prepare("PRAGMA database_list").all() as { name: string; file: string }[]).find(
      (d) => d.name === side,
    )?.file;
    if (path === undefined) throw new Error(`the build has no side file ${side} attached`);
    const ddl = this.db.prepare("SELECT sql FROM main.sqlite_master WHERE name = ?").pluck();
    const tables = FTS_DOCUMENTS.filter((f) => f.file === side).map((f) => ({
      table: f.table,
      docs: f.docs,
      ddl: ddl.get(f.table) as string,
    }));
    this.db.exec(`DETACH DATABASE ${side}`);
    const built = this.worker.post({ file: path, tables }).then(() => {
      this.db.prepare(`ATTACH DATABASE ? AS ${side}`).run(path);
    });
    // Awaited in done(); until then a failure must not count as unhandled.
    built.catch(() => undefined);
    this.built.push(built);
  }

  /** Every index handed over built, its file attached again. */
  async done(): Promise<void> {
    for (const built of this.built) await built;
  }

  /** Stops the worker (whatever it was doing, when the build failed). */
  close(): Promise<void> {
    return this.worker.close();
  }
}
