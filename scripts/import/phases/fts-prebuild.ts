/**
 * The search indexes built in worker threads (fts-worker.ts) from their documents in the side
 * files (build-file.ts), while the main thread goes on: the cities' while it orders the venues and
 * after, the venues' and then the vocabulary's (words_fts) in a second worker while it builds the
 * vocabulary, the stored totals and the cell counts. FTS5's indexing is a third of a large import.
 * A side file is detached meanwhile (its worker alone writes it), and attached again when its
 * indexes are done. Publishing copies them (publish/local.ts).
 */
import type Database from "better-sqlite3";
import { availableParallelism } from "node:os";
import { JobWorker } from "../../tools/in-worker.ts";
import { FTS_DOCUMENTS, type SideFile } from "./build-file.ts";

export interface FtsJob {
  file: string;
  tables: { table: string; docs: string; ddl: string }[];
}

/** Workers for the indexes at most: the cities' and the rest's, each beside the main thread. */
const WORKERS = Math.min(2, availableParallelism());

/**
 * The workers that index the side files, each job posted at once (the main thread does not
 * await until it has built everything else, so a worker cannot be handed a job when it falls idle).
 * The cities' indexes, handed over first, are the longest job: each later side file goes to a
 * second worker, started then, so that the venues' and the vocabulary's are built while the main
 * thread works rather than after it (docs/import.md#search-indexes-beside). Each side file is one
 * job: a file is written by one connection at a time.
 */
export class FtsPrebuild {
  private readonly workers: JobWorker<FtsJob, true>[] = [];
  private readonly built: Promise<void>[] = [];

  constructor(private readonly db: Database.Database) {}

  /** Hands the side file's documents, all written, to a worker. */
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
    const built = this.worker()
      .post({ file: path, tables })
      .then(() => {
        this.db.prepare(`ATTACH DATABASE ? AS ${side}`).run(path);
      });
    // Awaited in done(); until then a failure must not count as unhandled.
    built.catch(() => undefined);
    this.built.push(built);
  }

  /** A new worker while there are fewer than WORKERS, else the last one started. */
  private worker(): JobWorker<FtsJob, true> {
    if (this.workers.length < WORKERS) {
      this.workers.push(new JobWorker<FtsJob, true>(new URL("./fts-worker.ts", import.meta.url)));
    }
    return this.workers[this.workers.length - 1] as JobWorker<FtsJob, true>;
  }

  /** Every index handed over built, its file attached again. */
  async done(): Promise<void> {
    for (const built of this.built) await built;
  }

  /** Stops the workers (whatever they were doing, when the build failed). */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
  }
}
