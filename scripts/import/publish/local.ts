/**
 * Publishing a build (build.ts) into a served database, the same way for the local D1 file and
 * for a Cloudflare D1 database:
 *
 * 1. stage: create stage_<table> for every served table (the build's own DDL, renamed), after
 *    dropping what an interrupted import may have left;
 * 2. copy: the build's rows into the stage tables, in key ranges;
 * 3. index: the FTS documents into the stage FTS tables, in ranges, then merged into one segment
 *    by FTS5's incremental 'merge' command;
 * 4. swap: one short transaction renames every served table to old_<table> and every stage table
 *    to the served name (constraint indexes and FTS shadow tables follow their table), and writes
 *    the new meta rows, the data version last;
 * 5. clean up: the old tables are emptied and dropped.
 *
 * Until the swap, readers see the previous data, complete; a failure anywhere before it leaves
 * that data as it was. Locally every step is a short transaction with a pause after it, because
 * while any other connection holds the write lock the local D1 refuses its queries (the worker
 * retries them briefly: src/db.ts). Remotely the steps are rendered into SQL files (remote.ts).
 */
import type Database from "better-sqlite3";
import { FTS_DOCUMENTS, PLAIN_TABLES } from "../phases/build-file.ts";
import type { Progress } from "../progress.ts";

export const SERVED_TABLES: readonly string[] = [...PLAIN_TABLES, ...FTS_DOCUMENTS.map((f) => f.table)];

/** The CREATE statement of each served table in the build, renamed to stage_<table>. */
export function stageDdl(build: Database.Database): string[] {
  return SERVED_TABLES.map((table) => {
    const row = build.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) as
      { sql: string } | undefined;
    if (row === undefined) throw new Error(`the build has no table ${table}`);
    const renamed = row.sql.replace(/^(CREATE (?:VIRTUAL )?TABLE )("?)(\w+)\2/, `$1stage_$3`);
    if (renamed === row.sql) throw new Error(`cannot rename the DDL of ${table}`);
    return renamed;
  });
}

/**
 * The indexes of each served table (the migrations' CREATE INDEX statements, which the build keeps
 * in build_indexes), for its stage table: named <name>_<suffix>, because the served table's
 * indexes still hold the plain or an earlier import's names.
 */
export function stageIndexes(build: Database.Database, suffix: string): Map<string, string[]> {
  const rows = build.prepare("SELECT name, tbl, sql FROM build_indexes ORDER BY tbl, name").all() as {
    name: string;
    tbl: string;
    sql: string;
  }[];
  const out = new Map<string, string[]>(SERVED_TABLES.map((t) => [t, []]));
  for (const r of rows) {
    const renamed = r.sql.replace(
      /^(CREATE (?:UNIQUE )?INDEX )("?)(\w+)\2( ON )("?)(\w+)\5/,
      (_all, create: string, _q, name: string, on: string, _q2, table: string) =>
        `${create}${name}_${suffix}${on}stage_${table}`,
    );
    if (renamed === r.sql) throw new Error(`cannot rename the index ${r.name}`);
    out.get(r.tbl)?.push(renamed);
  }
  return out;
}

/** A suffix for one import's index names (stageIndexes). */
export const importSuffix = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;

/** The statements of the swap: every table renamed twice, and the meta rows (version last). */
export function swapStatements(meta: readonly (readonly [string, string])[], literal: (v: string) => string): string[] {
  const ordered = [...meta].sort(([a], [b]) => Number(a === "data_version") - Number(b === "data_version"));
  return [
    ...SERVED_TABLES.flatMap((t) => [`ALTER TABLE ${t} RENAME TO old_${t}`, `ALTER TABLE stage_${t} RENAME TO ${t}`]),
    "DELETE FROM meta",
    ...ordered.map(([k, v]) => `INSERT INTO meta (key, value) VALUES (${literal(k)}, ${literal(v)})`),
  ];
}

/** The primary key columns of a table, in key order. */
export function keyColumns(db: Database.Database, table: string, schema = "main"): { name: string; type: string }[] {
  const columns = db.prepare("SELECT name, type, pk FROM pragma_table_info(?, ?)").all(table, schema) as {
    name: string;
    type: string;
    pk: number;
  }[];
  return columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
}

/** The INTEGER PRIMARY KEY of a rowid table (copied in key ranges), or null. */
export function integerKey(db: Database.Database, table: string, schema = "main"): string | null {
  const keys = keyColumns(db, table, schema);
  return keys.length === 1 && keys[0]?.type.toUpperCase() === "INTEGER" ? (keys[0]?.name ?? null) : null;
}

export interface LocalPublishOptions {
  /** Target length of one write transaction, ms. */
  transactionMs?: number;
  /** Pause after each write transaction, ms: the time readers have the database to themselves. */
  pauseMs?: number;
}

/**
 * Publishes the build file at `buildPath` into the SQLite file open as `target` (the local D1
 * file, or any SQLite file with the schema) in short transactions. `meta` are the new meta rows.
 */
export async function publishLocal(
  target: Database.Database,
  build: Database.Database,
  meta: readonly (readonly [string, string])[],
  progress: Progress,
  options: LocalPublishOptions = {},
): Promise<{ longestWrite: { ms: number; doing: string } }> {
  const steps = new Steps(target, options);
  const phase = (name: string, total = 0) => {
    steps.start(name);
    progress.phase(name, total);
  };
  target.prepare("ATTACH DATABASE ? AS build").run(build.name);
  try {
    phase("staging: clearing what an earlier import left");
    await dropTables(
      steps,
      target,
      SERVED_TABLES.flatMap((t) => [`stage_${t}`, `old_${t}`]),
    );
    const indexes = stageIndexes(build, importSuffix());
    await steps.write(() => {
      for (const ddl of stageDdl(build)) target.exec(ddl);
      // Readers meanwhile: each index grows with its rows, in short steps. Alone: each index is
      // built from all its rows at once, after them (a sort: much less work).
      if (!steps.alone) for (const ddl of [...indexes.values()].flat()) target.exec(ddl);
    });

    for (const table of PLAIN_TABLES) {
      const total = build.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
      phase(`copying ${table}`, total);
      const key = integerKey(build, table);
      let done = 0;
      if (key !== null) {
        const copy = target.prepare(
          `INSERT INTO main.stage_${table} SELECT * FROM build.${table} WHERE ${key} BETWEEN ? AND ?`,
        );
        const hi = (build.prepare(`SELECT max(${key}) FROM ${table}`).pluck().get() as number | null) ?? 0;
        for (let from = 1; from <= hi;) {
          const size = steps.rows;
          done += await steps.write(() => copy.run(from, from + size - 1).changes);
          from += size;
          progress.tick(done);
        }
      } else {
        const order = keyColumns(build, table)
          .map((c) => c.name)
          .join(", ");
        const copy = target.prepare(
          `INSERT INTO main.stage_${table} SELECT * FROM build.${table} ORDER BY ${order} LIMIT ? OFFSET ?`,
        );
        for (let n = 1; n > 0;) {
          n = await steps.write(() => copy.run(steps.rows, done).changes);
          done += n;
          progress.tick(done);
        }
      }
      const tableIndexes = steps.alone ? (indexes.get(table) ?? []) : [];
      if (tableIndexes.length > 0) {
        phase(`indexing ${table} (${tableIndexes.length} indexes)`);
        for (const ddl of tableIndexes) await steps.write(() => target.exec(ddl));
      }
    }

    for (const { table, docs } of FTS_DOCUMENTS) {
      const hi = (build.prepare(`SELECT max(pos) FROM ${docs}`).pluck().get() as number | null) ?? 0;
      phase(`indexing ${table}`, hi);
      const stage = `stage_${table}`;
      const insert = target.prepare(
        `INSERT INTO main.${stage} (rowid, ${ftsColumn(build, table)}) SELECT pos, doc FROM build.${docs} WHERE pos BETWEEN ? AND ?`,
      );
      if (steps.alone) {
        // No one reads meanwhile: every document in one transaction, then one 'optimize' into a
        // single segment (measured: about 40 % less time than merging in steps). Automatic merges
        // off, but a level of 256 segments is merged (FTS5 allows 2,000 segments in all).
        await steps.write(() => configureFts(target, stage, { automerge: 0, crisismerge: 256 }));
        await steps.write(() => insert.run(1, hi));
        phase(`merging ${table} into one segment`);
        await steps.write(() => target.exec(`INSERT INTO main.${stage} (${stage}) VALUES ('optimize')`));
        await steps.write(() => configureFts(target, stage, FTS5_DEFAULTS));
        continue;
      }
      // FTS5 merges segments at commit, as much as it takes: off while indexing, and done here
      // instead, in bounded steps between the chunks of documents.
      await steps.write(() => configureFts(target, stage, { automerge: 0, crisismerge: 1999 }));
      for (let from = 1; from <= hi;) {
        const size = steps.rows;
        await steps.write(() => insert.run(from, from + size - 1));
        from += size;
        await mergeStep(steps, target, stage, steps.pages);
        progress.tick(Math.min(from - 1, hi));
      }
      phase(`merging ${table} into one segment`);
      await mergeStep(steps, target, stage, -steps.pages); // start merging everything into one segment
      while (await mergeStep(steps, target, stage, steps.pages));
      await steps.write(() => configureFts(target, stage, FTS5_DEFAULTS));
    }

    phase("swapping the new tables in");
    await steps.write(() => {
      for (const sql of swapStatements(meta, (v) => `'${v.replaceAll("'", "''")}'`)) target.exec(sql);
    });

    phase("dropping the old tables");
    await dropTables(
      steps,
      target,
      SERVED_TABLES.map((t) => `old_${t}`),
    );
  } finally {
    target.exec("DETACH DATABASE build");
  }
  target.pragma("wal_checkpoint(PASSIVE)");
  return { longestWrite: steps.longest };
}

/** The one indexed column of an FTS table. */
export function ftsColumn(db: Database.Database, table: string): string {
  const name = db.prepare("SELECT name FROM pragma_table_info(?) LIMIT 1").pluck().get(table);
  if (typeof name !== "string") throw new Error(`no FTS table ${table}`);
  return name;
}

/** FTS5's own defaults of the merge settings (restored after indexing). */
const FTS5_DEFAULTS = { automerge: 4, crisismerge: 16 };

function configureFts(db: Database.Database, table: string, settings: Record<string, number>): void {
  // FTS5 takes these as integer values only (a bound JS number arrives as a real).
  for (const [name, value] of Object.entries(settings)) {
    db.exec(`INSERT INTO main.${table} (${table}, rank) VALUES ('${name}', ${Math.trunc(value)})`);
  }
}

/**
 * One bounded FTS5 'merge' of about |pages| pages in its own transaction (a negative count starts
 * merging every segment into one). Whether it did any work: FTS5 makes fewer than two changes
 * when there was nothing to merge.
 */
async function mergeStep(steps: Steps, db: Database.Database, table: string, pages: number): Promise<boolean> {
  const changes = db.prepare("SELECT total_changes()").pluck();
  const before = changes.get() as number;
  await steps.write(
    () => db.prepare(`INSERT INTO main.${table} (${table}, rank) VALUES ('merge', ?)`).run(pages),
    "pages",
  );
  return (changes.get() as number) - before >= 2;
}

/**
 * Empties tables in short transactions, then drops them (alone: drops them at once). An FTS
 * table is emptied through its shadow table of index pages; small WITHOUT ROWID tables are
 * dropped at once.
 */
async function dropTables(steps: Steps, db: Database.Database, tables: readonly string[]): Promise<void> {
  const ddl = db.prepare("SELECT sql FROM main.sqlite_master WHERE type = 'table' AND name = ?").pluck();
  for (const table of tables) {
    const sql = ddl.get(table) as string | undefined;
    if (sql === undefined) continue;
    const part = /^CREATE VIRTUAL TABLE/i.test(sql) ? `${table}_data` : table;
    steps.reset();
    // Alone, a table is dropped at once: emptying it row by row first (for readers' sake) would
    // update every index for every row, minutes for a database of 10 million venues.
    if (!steps.alone && !/WITHOUT ROWID/i.test((ddl.get(part) as string | undefined) ?? "WITHOUT ROWID")) {
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

/** Write transactions of about `transactionMs`, each followed by a pause. */
class Steps {
  /**
   * Rows per step, and FTS5 pages per merge step, adapted so a step takes about transactionMs:
   * small at the start of a phase (rows cost differently in each), at most doubled per step.
   */
  rows = 0;
  pages = 0;
  /** What the steps are doing now (for the report of the longest one). */
  doing = "";
  /** The longest write transaction: while it runs, the local D1 refuses queries. */
  longest = { ms: 0, doing: "" };
  private readonly transactionMs: number;
  private readonly pauseMs: number;
  /** No pauses: no one reads the target meanwhile, so a step may be as long as it takes. */
  readonly alone: boolean;

  constructor(
    private readonly db: Database.Database,
    options: LocalPublishOptions,
  ) {
    this.transactionMs = options.transactionMs ?? 25;
    this.pauseMs = options.pauseMs ?? 50;
    this.alone = this.pauseMs === 0;
  }

  /** A new phase: sizes start small again. */
  start(doing: string): void {
    this.doing = doing;
    this.reset();
  }

  /** Sizes start small again: rows of another table cost differently. */
  reset(): void {
    this.rows = 10;
    this.pages = 16;
  }

  async write<T>(work: () => T, unit: "rows" | "pages" = "rows"): Promise<T> {
    this.db.exec("BEGIN IMMEDIATE");
    // The hold starts once the lock is ours (BEGIN IMMEDIATE may wait for the worker's queries).
    const started = performance.now();
    let result: T;
    try {
      result = work();
      this.db.exec("COMMIT");
    } catch (e) {
      if (this.db.inTransaction) this.db.exec("ROLLBACK");
      throw e;
    }
    const elapsed = Math.max(performance.now() - started, 0.1);
    if (elapsed > this.longest.ms) this.longest = { ms: elapsed, doing: this.doing };
    const scale = Math.min(this.transactionMs / elapsed, 2);
    if (unit === "rows") this.rows = Math.round(Math.min(100_000, Math.max(10, this.rows * scale)));
    // Most merge steps find little to do, so their time says little of the next one's: a low cap.
    else this.pages = Math.round(Math.min(256, Math.max(16, this.pages * scale)));
    if (this.pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, this.pauseMs));
    return result;
  }
}
