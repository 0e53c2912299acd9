/**
 * The rows that D1 counts as written for each statement of a remote import, worked out from the
 * build before anything is sent (D1 bills them, and Workers Free allows 100,000 a day).
 *
 * D1 counts what a statement's own program writes (workerd's SQLite keeps the counters per
 * statement; Cloudflare: "Indexes will add an additional written row"). Measured on the local D1
 * that stands in for the remote one, statement by statement (test/node/remote-cost.test.ts):
 * - a row inserted into a table with k indexes (a UNIQUE constraint's included) counts 1 + k; a row
 *   deleted counts 1;
 * - a document inserted into an FTS5 table counts 1, an FTS5 command ('pgsz', 'merge') 1: FTS5
 *   writes its shadow tables with statements of its own, whose rows the INSERT's counter never sees;
 * - CREATE TABLE writes its row of sqlite_master twice and one row per constraint index, CREATE
 *   VIRTUAL TABLE 2, CREATE INDEX 1 and one per row indexed (none here: the tables are empty);
 * - ALTER TABLE … RENAME rewrites the row of every table in sqlite_master and those of the renamed
 *   table's indexes (named ones twice); DROP TABLE counts nothing.
 */
import type Database from "better-sqlite3";
import { FTS_DOCUMENTS, PLAIN_TABLES } from "../phases/build-file.ts";

/**
 * The tables besides ours that the remote database holds once migrated: wrangler's record of the
 * migrations. (The local D1 of wrangler 4.164 keeps no table of its own there; had Cloudflare's one,
 * each rename would count one row more: 34 in all.)
 */
const D1_TABLES = ["d1_migrations"];

interface Indexes {
  /** CREATE INDEX statements on the table (the migrations' own, kept in build_indexes). */
  named: number;
  /** Indexes of its UNIQUE and PRIMARY KEY constraints (a rowid table's), which SQLite names itself. */
  constraint: number;
}

/** Rows written per statement, for the tables of one build. */
export class D1Writes {
  private readonly indexes = new Map<string, Indexes>();
  private readonly ours: string[];

  constructor(build: Database.Database) {
    const named = build.prepare("SELECT count(*) FROM build_indexes WHERE tbl = ?").pluck();
    const constraint = build
      .prepare("SELECT count(*) FROM main.sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NULL")
      .pluck();
    const partial = build.prepare("SELECT name FROM build_indexes WHERE sql LIKE '% WHERE %'").pluck().all();
    // An index with a WHERE clause indexes some rows only: the count below would not hold.
    if (partial.length > 0) throw new Error(`partial indexes are not counted: ${partial.join(", ")}`);
    for (const table of [...PLAIN_TABLES, "meta"]) {
      this.indexes.set(table, { named: named.get(table) as number, constraint: constraint.get(table) as number });
    }
    this.ours = build
      .prepare("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .pluck()
      .all()
      .filter((t) => t !== "build_indexes") as string[];
  }

  private of(table: string): Indexes {
    return this.indexes.get(table.replace(/^stage_/, "")) ?? { named: 0, constraint: 0 };
  }

  /** `n` rows inserted into a served table or its stage table. */
  rows(table: string, n: number): number {
    const i = this.of(table);
    return n * (1 + i.named + i.constraint);
  }

  /** `n` rows deleted, from any table. */
  deleted(n: number): number {
    return n;
  }

  /** CREATE TABLE of a served table (its stage copy). */
  createTable(table: string): number {
    return 2 + this.of(table).constraint;
  }

  /** ALTER TABLE `table` RENAME, with `tables` tables (but SQLite's own) in sqlite_master. */
  rename(table: string, tables: number): number {
    const i = this.of(table);
    return tables + 2 * i.named + i.constraint + 1;
  }

  /**
   * The tables in the remote's sqlite_master when the swap renames (SQLite's own aside): what it
   * holds now (`remote`, without what an interrupted import left, which the first file drops), the
   * served schema, D1's own tables, and the stage tables with their FTS5 shadow tables.
   */
  tablesAtSwap(remote: readonly string[]): number {
    const leftover = (t: string) => /^(stage|old)_/.test(t) || t === "import_progress";
    const base = new Set([
      ...remote.filter((t) => !leftover(t) && !t.startsWith("sqlite_")),
      ...this.ours,
      ...D1_TABLES,
    ]);
    const fts = FTS_DOCUMENTS.map((f) => f.table);
    const staged = this.ours.filter(
      (t) => (PLAIN_TABLES as readonly string[]).includes(t) || fts.some((f) => t === f || t.startsWith(`${f}_`)),
    );
    return base.size + staged.length + 1; // + import_progress
  }
}
