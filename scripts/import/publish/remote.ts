/**
 * Publishing a build to a Cloudflare D1 database: the steps of publish.ts rendered as SQL for
 * `wrangler d1 execute --remote --file` (the D1 import API, which applies a file whole or not at
 * all), each statement under D1's 100 KB limit, in parts that remote-files.ts writes into files of
 * at most MAX_FILE_BYTES and applies, resumably.
 */
import type Database from "better-sqlite3";
import { FTS_DOCUMENTS, PLAIN_TABLES } from "../phases/build-file.ts";
import { D1Writes } from "./remote-cost.ts";
import {
  FTS_PAGE_BYTES,
  ftsColumn,
  integerKey,
  keyColumns,
  SERVED_TABLES,
  stageDdl,
  stageIndexes,
  swapStatements,
} from "./stage.ts";

/** D1 refuses statements over 100 KB; stay well below. */
export const MAX_STATEMENT_BYTES = 90_000;
/** FTS5 'merge' work per statement, in pages: about 1 MiB. */
const MERGE_PAGES = Math.ceil(2 ** 20 / FTS_PAGE_BYTES);

export type SqlValue = string | number | bigint | Buffer | null;

export function literal(value: SqlValue): string {
  if (value === null) return "NULL";
  if (typeof value === "bigint") return String(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
    return String(value);
  }
  if (Buffer.isBuffer(value)) return `X'${value.toString("hex")}'`;
  return `'${value.replaceAll("'", "''")}'`;
}

/** A statement of a remote import, and the rows D1 counts as written when it runs (remote-cost.ts). */
export interface RemoteStatement {
  sql: string;
  rows: number;
}

/**
 * A part of a remote import: statements that begin a file of their own, written into as many files
 * as they fill (remote-files.ts).
 */
export interface RemotePart {
  what: string;
  statements: Iterable<RemoteStatement>;
  /** At most this many statements in one file (the FTS merges: each is about 1 MiB of D1's work). */
  perFile?: number;
  /**
   * Parts of one kind continue the file the part before opened, where it fits (remote-files.ts):
   * the rows and documents of small tables are not a request each; a part without a kind starts
   * a file of its own.
   */
  joins?: "inserts" | "merges";
  /** The last part drops import_progress, so its file records nothing (applying it twice is harmless). */
  last?: boolean;
}

/** FTS5 'merge' statements in one file: about 50 MiB of D1's work. */
export const MERGES_PER_FILE = 50;

/** What the remote database holds before the import, which some statements' rows written depend on. */
export interface RemoteSchema {
  /** Its tables (SQLite's own aside). */
  tables: readonly string[];
  /** Its meta rows, which the swap deletes. */
  metaRows: number;
}

/** The meta rows the swap writes (a function: known only once the files before it are written). */
type MetaRows = readonly (readonly [string, string])[];

/** A database with the migrations applied and nothing else. */
const MIGRATED: RemoteSchema = { tables: [], metaRows: 0 };

/** What the file of the swap does (remote-publish.ts finds it by it). */
export const SWAP_WHAT = "swapping the new tables in";

/**
 * The parts that publish a build: stage tables, rows, index documents, merges, swap, clean-up.
 * Lazy: each part's statements are read from the build as they are written, a statement at a time.
 */
export function* remoteParts(
  build: Database.Database,
  meta: MetaRows | (() => MetaRows),
  version: string,
  indexSuffix: string,
  remote: RemoteSchema = MIGRATED,
): Generator<RemotePart> {
  const writes = new D1Writes(build);
  yield { what: "creating the stage tables", statements: stageStatements(build, writes, version, indexSuffix) };
  for (const table of PLAIN_TABLES) {
    yield { what: `rows of ${table}`, statements: rowInserts(build, writes, table), joins: "inserts" };
  }
  for (const { table, docs } of FTS_DOCUMENTS) {
    const statements = docInserts(build, docs, `stage_${table}`, ftsColumn(build, table));
    yield { what: `documents of ${table}`, statements, joins: "inserts" };
  }
  for (const { table, docs } of FTS_DOCUMENTS) {
    const statements = merges(build, table, docs);
    yield { what: `merging ${table}`, statements, perFile: MERGES_PER_FILE, joins: "merges" };
  }
  yield {
    what: SWAP_WHAT,
    statements: swap(writes, typeof meta === "function" ? meta() : meta, remote),
  };
  yield {
    what: "dropping the old tables",
    statements: [
      ...SERVED_TABLES.map((t) => `DROP TABLE IF EXISTS old_${t}`),
      "DROP TABLE IF EXISTS import_progress",
    ].map((sql) => ({ sql, rows: 0 })),
    last: true,
  };
}

/** What an interrupted import left dropped, the stage tables created with their indexes. */
function stageStatements(
  build: Database.Database,
  writes: D1Writes,
  version: string,
  indexSuffix: string,
): RemoteStatement[] {
  const table = /^CREATE TABLE (\w+)/;
  return [
    { sql: "CREATE TABLE IF NOT EXISTS import_progress (file INTEGER PRIMARY KEY, version TEXT NOT NULL)", rows: 2 },
    // Rows of an earlier import's files: none, unless one was left unfinished (its own rows then).
    { sql: `DELETE FROM import_progress WHERE version <> ${literal(version)}`, rows: 0 },
    ...SERVED_TABLES.flatMap((t) => [`DROP TABLE IF EXISTS stage_${t}`, `DROP TABLE IF EXISTS old_${t}`]).map(
      (sql) => ({ sql, rows: 0 }),
    ),
    ...stageDdl(build).map((sql) => ({
      sql,
      // A plain table; a virtual one (2); the FTS5 'pgsz' command after it (1).
      rows: writes.createTable(table.exec(sql)?.[1] ?? "") - (sql.startsWith("INSERT") ? 1 : 0),
    })),
    // D1 grows each index with its rows, file by file.
    ...[...stageIndexes(build, indexSuffix).values()].flat().map((sql) => ({ sql, rows: 1 })),
  ];
}

/** The swap: every table renamed twice, the meta rows replaced. */
function* swap(writes: D1Writes, meta: MetaRows, remote: RemoteSchema): Generator<RemoteStatement> {
  const tables = writes.tablesAtSwap(remote.tables);
  for (const sql of swapStatements(meta, literal)) {
    const renamed = /^ALTER TABLE (\w+) RENAME/.exec(sql)?.[1];
    if (renamed !== undefined) yield { sql, rows: writes.rename(renamed, tables) };
    else if (sql.startsWith("DELETE FROM meta")) yield { sql, rows: remote.metaRows };
    else yield { sql, rows: writes.rows("meta", 1) };
  }
}

/** Enough FTS5 merge steps for the stage index of a build (an index is smaller than its documents' text). */
function merges(build: Database.Database, table: string, docs: string): Generator<RemoteStatement> {
  const bytes = build.prepare(`SELECT coalesce(sum(length(doc)), 0) FROM ${docs}`).pluck().get() as number;
  return mergeSteps(`stage_${table}`, bytes / FTS_PAGE_BYTES);
}

/**
 * FTS5 merge steps that leave an index of at most `pages` pages in one segment: the first sets
 * the merge's bound ('merge' with -N: every segment, whatever its level), each after it merges
 * about 1 MiB more; the steps after the last merge do nothing.
 */
export function* mergeSteps(table: string, pages: number): Generator<RemoteStatement> {
  const steps = Math.ceil(pages / MERGE_PAGES) + 2;
  const merge = (n: number) => ({ sql: `INSERT INTO ${table} (${table}, rank) VALUES ('merge', ${n})`, rows: 1 });
  yield merge(-MERGE_PAGES);
  for (let i = 0; i < steps; i++) yield merge(MERGE_PAGES);
}

/** Multi-row INSERT OR REPLACE statements of a table's rows, each under MAX_STATEMENT_BYTES. */
function* rowInserts(build: Database.Database, writes: D1Writes, table: string): Generator<RemoteStatement> {
  const columns = (build.prepare("SELECT name FROM pragma_table_info(?)").pluck().all(table) as string[]).join(", ");
  const key = integerKey(build, table);
  const order =
    key ??
    keyColumns(build, table)
      .map((c) => c.name)
      .join(", ");
  for (const { sql, rows } of multiRow(
    `INSERT OR REPLACE INTO stage_${table} (${columns}) VALUES `,
    build.prepare(`SELECT ${columns} FROM ${table} ORDER BY ${order}`).raw().iterate() as Iterable<SqlValue[]>,
  )) {
    yield { sql, rows: writes.rows(table, rows) };
  }
}

/** The documents of an FTS5 index: one row written each (remote-cost.ts). */
function docInserts(build: Database.Database, docs: string, fts: string, column: string): Iterable<RemoteStatement> {
  return multiRow(
    `INSERT INTO ${fts} (rowid, ${column}) VALUES `,
    build.prepare(`SELECT pos, doc FROM ${docs} ORDER BY pos`).raw().iterate() as Iterable<SqlValue[]>,
  );
}

/** Multi-row statements of the rows (`head` tuples `tail`), each under MAX_STATEMENT_BYTES, with their number of rows. */
export function* multiRow(head: string, rows: Iterable<SqlValue[]>, tail = ""): Generator<RemoteStatement> {
  let values: string[] = [];
  let bytes = head.length + tail.length;
  for (const row of rows) {
    const tuple = `(${row.map(literal).join(", ")})`;
    const size = Buffer.byteLength(tuple) + 2;
    if (values.length > 0 && bytes + size > MAX_STATEMENT_BYTES) {
      yield { sql: `${head}${values.join(", ")}${tail}`, rows: values.length };
      values = [];
      bytes = head.length + tail.length;
    }
    values.push(tuple);
    bytes += size;
  }
  if (values.length > 0) yield { sql: `${head}${values.join(", ")}${tail}`, rows: values.length };
}
