/**
 * Publishing a build to a Cloudflare D1 database: the steps of publish.ts rendered as SQL files
 * for `wrangler d1 execute --remote --file` (the D1 import API, which applies a file whole or
 * not at all), each statement under D1's 100 KB limit and each file under MAX_FILE_BYTES.
 *
 * Resumable: every file records itself in the table import_progress (file number, data version)
 * in the same file, so a failed or interrupted upload is run again from the first file that did
 * not apply, and the swap is still one file at the end. Row inserts are INSERT OR REPLACE, so
 * even a file applied twice changes nothing.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { FTS_DOCUMENTS, PLAIN_TABLES } from "../phases/build-file.ts";
import type { Progress } from "../progress.ts";
import {
  FTS_PAGE_BYTES,
  ftsColumn,
  importSuffix,
  integerKey,
  keyColumns,
  SERVED_TABLES,
  stageDdl,
  stageIndexes,
  swapStatements,
} from "./stage.ts";

/** D1 refuses statements over 100 KB; stay well below. */
export const MAX_STATEMENT_BYTES = 90_000;
const MAX_FILE_BYTES = 20 * 1024 * 1024;
/** FTS5 'merge' work per statement, in pages: about 1 MiB. */
const MERGE_PAGES = Math.ceil(2 ** 20 / FTS_PAGE_BYTES);

type SqlValue = string | number | bigint | Buffer | null;

function literal(value: SqlValue): string {
  if (value === null) return "NULL";
  if (typeof value === "bigint") return String(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
    return String(value);
  }
  if (Buffer.isBuffer(value)) return `X'${value.toString("hex")}'`;
  return `'${value.replaceAll("'", "''")}'`;
}

/** One file of a remote import: its statements, in order. */
export interface RemoteFile {
  what: string;
  statements: string[];
  /** The last file drops import_progress, so it records nothing (applying it twice is harmless). */
  last?: boolean;
}

const progressRow = (n: number, version: string) =>
  `INSERT OR REPLACE INTO import_progress (file, version) VALUES (${n}, ${literal(version)})`;

/**
 * The files that publish a build: stage tables, rows, index documents, merges, swap, clean-up.
 * Generated lazily, file by file, from the build database.
 */
export function* remoteFiles(
  build: Database.Database,
  meta: readonly (readonly [string, string])[],
  version: string,
  indexSuffix: string,
): Generator<RemoteFile> {
  yield {
    what: "creating the stage tables",
    statements: [
      "CREATE TABLE IF NOT EXISTS import_progress (file INTEGER PRIMARY KEY, version TEXT NOT NULL)",
      `DELETE FROM import_progress WHERE version <> ${literal(version)}`,
      ...SERVED_TABLES.flatMap((t) => [`DROP TABLE IF EXISTS stage_${t}`, `DROP TABLE IF EXISTS old_${t}`]),
      ...stageDdl(build),
      // D1 grows each index with its rows, file by file.
      ...[...stageIndexes(build, indexSuffix).values()].flat(),
    ],
  };

  const chunks: { what: string; statements: Iterable<string> }[] = [
    ...PLAIN_TABLES.map((table) => ({ what: `rows of ${table}`, statements: rowInserts(build, table) })),
    ...FTS_DOCUMENTS.map(({ table, docs }) => ({
      what: `documents of ${table}`,
      statements: docInserts(build, docs, `stage_${table}`, ftsColumn(build, table)),
    })),
  ];
  for (const chunk of chunks) {
    let statements: string[] = [];
    let bytes = 0;
    for (const statement of chunk.statements) {
      if (bytes + statement.length > MAX_FILE_BYTES && statements.length > 0) {
        yield { what: chunk.what, statements };
        statements = [];
        bytes = 0;
      }
      statements.push(statement);
      bytes += statement.length + 2;
    }
    if (statements.length > 0) yield { what: chunk.what, statements };
  }

  for (const { table, docs } of FTS_DOCUMENTS) {
    // Enough merge steps for the whole index (an index is smaller than its documents' text);
    // the steps after the last merge do nothing.
    const bytes = build.prepare(`SELECT coalesce(sum(length(doc)), 0) FROM ${docs}`).pluck().get() as number;
    const steps = Math.ceil(bytes / FTS_PAGE_BYTES / MERGE_PAGES) + 2;
    const merge = (pages: number) => `INSERT INTO stage_${table} (stage_${table}, rank) VALUES ('merge', ${pages})`;
    for (let i = 0; i < steps; i += 50) {
      const statements = i === 0 ? [merge(-MERGE_PAGES)] : [];
      for (let k = i; k < Math.min(steps, i + 50); k++) statements.push(merge(MERGE_PAGES));
      yield { what: `merging ${table}`, statements };
    }
  }

  yield { what: "swapping the new tables in", statements: swapStatements(meta, literal) };
  yield {
    what: "dropping the old tables",
    statements: [...SERVED_TABLES.map((t) => `DROP TABLE IF EXISTS old_${t}`), "DROP TABLE IF EXISTS import_progress"],
    last: true,
  };
}

/** Multi-row INSERT OR REPLACE statements of a table's rows, each under MAX_STATEMENT_BYTES. */
function* rowInserts(build: Database.Database, table: string): Generator<string> {
  const columns = (build.prepare("SELECT name FROM pragma_table_info(?)").pluck().all(table) as string[]).join(", ");
  const key = integerKey(build, table);
  const order =
    key ??
    keyColumns(build, table)
      .map((c) => c.name)
      .join(", ");
  yield* multiRow(
    `INSERT OR REPLACE INTO stage_${table} (${columns}) VALUES `,
    build.prepare(`SELECT ${columns} FROM ${table} ORDER BY ${order}`).raw().iterate() as Iterable<SqlValue[]>,
  );
}

function* docInserts(build: Database.Database, docs: string, fts: string, column: string): Generator<string> {
  yield* multiRow(
    `INSERT INTO ${fts} (rowid, ${column}) VALUES `,
    build.prepare(`SELECT pos, doc FROM ${docs} ORDER BY pos`).raw().iterate() as Iterable<SqlValue[]>,
  );
}

function* multiRow(head: string, rows: Iterable<SqlValue[]>): Generator<string> {
  let values: string[] = [];
  let bytes = head.length;
  for (const row of rows) {
    const tuple = `(${row.map(literal).join(", ")})`;
    const size = Buffer.byteLength(tuple) + 2;
    if (values.length > 0 && bytes + size > MAX_STATEMENT_BYTES) {
      yield `${head}${values.join(", ")}`;
      values = [];
      bytes = head.length;
    }
    values.push(tuple);
    bytes += size;
  }
  if (values.length > 0) yield `${head}${values.join(", ")}`;
}

/** Where a remote import's files are applied: wrangler against D1, or a local SQLite file in tests. */
export interface RemoteDatabase {
  /** The file numbers that already applied for this data version. */
  applied(version: string): Promise<Set<number>>;
  /** Applies one file, whole or not at all. */
  apply(path: string): Promise<void>;
}

/** File text: the statements, then the file's own progress row. */
function fileText(file: RemoteFile, n: number, version: string): string {
  const statements = file.last === true ? file.statements : [...file.statements, progressRow(n, version)];
  return `-- ${file.what}\n${statements.join(";\n")};\n`;
}

/**
 * Writes the files of a remote import into `dir` (kept for a retry: an unchanged version reuses
 * them), prints an estimate, then applies every file not yet applied, in order.
 */
export async function publishRemote(
  build: Database.Database | null,
  meta: readonly (readonly [string, string])[],
  version: string,
  dir: string,
  database: RemoteDatabase,
  progress: Progress,
): Promise<{ files: number; bytes: number; skipped: number }> {
  const complete = join(dir, "complete");
  if (!existsSync(complete)) {
    if (build === null) throw new Error("no build to render the remote files from");
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    progress.phase("writing the SQL files of the remote import");
    let n = 0;
    for (const file of remoteFiles(build, meta, version, importSuffix())) {
      writeFileSync(join(dir, `${String(n).padStart(5, "0")}.sql`), fileText(file, n, version));
      progress.tick(++n);
    }
    writeFileSync(complete, `${version}\n`);
  }
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort();
  const bytes = files.reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
  progress.line(
    `Remote import: ${files.length} files, ${(bytes / 2 ** 20).toFixed(0)} MiB of SQL. At an assumed 2 MiB/s for upload and ` +
      `ingestion (not measured from here) that is about ${Math.ceil(bytes / 2 ** 21 / 60)} min; ` +
      "an interrupted run resumes where it stopped.",
  );
  const done = await database.applied(version);
  let skipped = 0;
  for (const [i, f] of files.entries()) {
    if (done.has(i)) {
      skipped++;
      continue;
    }
    const what = readFileSync(join(dir, f), "utf8").split("\n", 1)[0]?.replace(/^-- /, "") ?? "";
    progress.phase(`remote file ${i + 1} of ${files.length}: ${what}`);
    await database.apply(join(dir, f));
  }
  rmSync(dir, { recursive: true, force: true });
  return { files: files.length, bytes, skipped };
}
