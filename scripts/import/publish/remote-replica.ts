/**
 * A replica of the remote database as the files of a remote import apply, for its size in D1's
 * units: a scratch SQLite file with the migrations, in which every statement runs as it is written
 * (a file's statements in one transaction, as D1 applies a file). D1 reports a database's size as
 * its pages in use, (page_count - freelist_count) * page_size with pages of 4,096 bytes, and the
 * same statements on the same SQLite lay out the same b-trees: on the fixture import the replica
 * and the local D1 that stands in for the remote one end 4 pages apart, D1's own tables
 * (test/node/remote-cost.test.ts).
 */
import { copyFileSync, rmSync } from "node:fs";
import Database from "better-sqlite3";
import { applyMigrations } from "../migrations.ts";
import type { StatementSink } from "./remote-files.ts";

/** The meta row in which a remote import records the bytes its data takes in D1 (what the next one's drop frees). */
export const DATA_BYTES = "d1_data_bytes";

/** D1's page size. */
const PAGE_BYTES = 4096;

export class Replica implements StatementSink {
  private readonly db: Database.Database;
  /** The bytes in use with the migrated schema alone. */
  readonly emptySize: number;

  /**
   * A new replica of a migrated, empty database; or, given `from` (a mirror's replica, with its
   * empty size), a copy of that one, for the statements of a refresh.
   */
  constructor(
    private readonly path: string,
    from?: { path: string; emptySize: number },
  ) {
    rmSync(path, { force: true });
    if (from !== undefined) copyFileSync(from.path, path);
    this.db = new Database(path);
    this.db.pragma(`page_size = ${PAGE_BYTES}`);
    this.db.pragma("synchronous = OFF");
    // On disk: a file's transaction touches pages all over its indexes, and a journal in memory
    // held them (10M venues: the import's peak 466 → 762 MiB while writing, 2026-11-28).
    this.db.pragma("journal_mode = WAL");
    // 32 MiB: the random order in which most index entries arrive reads pages back.
    this.db.pragma("cache_size = -32768");
    if (from === undefined) applyMigrations(this.db);
    this.emptySize = from?.emptySize ?? this.size();
  }

  /** The bytes of the pages in use, as D1 reports a database's size. */
  size(): number {
    const pages = this.db.pragma("page_count", { simple: true }) as number;
    const free = this.db.pragma("freelist_count", { simple: true }) as number;
    return (pages - free) * PAGE_BYTES;
  }

  /** The meta rows with the bytes the data takes now (DATA_BYTES), for the meta rows' statements. */
  withDataBytes(meta: readonly (readonly [string, string])[]): [string, string][] {
    return [...meta, [DATA_BYTES, String(this.size() - this.emptySize)]] as [string, string][];
  }

  /** An FTS5 index's segments (the distinct segment ids of its %_idx table) and its pages (the rows of its %_data). */
  ftsIndex(table: string): { segments: number; pages: number } {
    const count = (sql: string) => this.db.prepare(sql).pluck().get() as number;
    return {
      segments: count(`SELECT count(DISTINCT segid) FROM "${table}_idx"`),
      pages: count(`SELECT count(*) FROM "${table}_data"`),
    };
  }

  begin(): void {
    this.db.exec("BEGIN");
  }

  run(sql: string): void {
    this.db.exec(sql);
  }

  end(): number {
    this.db.exec("COMMIT");
    return this.size();
  }

  /** Closes the replica, and deletes it unless it is to be kept (for the mirror: remote-mirror.ts). */
  close(keep = false): void {
    if (this.db.inTransaction) this.db.exec("ROLLBACK");
    this.db.close();
    if (keep) return;
    rmSync(this.path, { force: true });
    for (const end of ["-wal", "-shm"]) rmSync(`${this.path}${end}`, { force: true });
  }
}
