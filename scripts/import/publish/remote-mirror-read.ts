/**
 * A mirror read back from the remote database (docs/deploy.md#a-refresh-from-any-machine), for a
 * refresh from a machine that has none (a fresh checkout, a CI runner) or whose mirror is of
 * another data version: every table the refresh compares, and the shadow tables of each search
 * index — its b-tree pages as they are, so that the replica's index is the remote's — read page by
 * page in key order through `wrangler d1 execute`; then each index's documents made again from
 * that index (FTS5's `fts5vocab`): a contentless index with `detail = 'none'` holds a document's
 * distinct terms and nothing more, which is all its `'delete'` needs (fts-terms.ts).
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { FTS_DOCUMENTS, PLAIN_TABLES, SIDE_FILES } from "../phases/build-file.ts";
import { migrationFiles } from "../migrations.ts";
import type { Progress } from "../progress.ts";
import type { RemoteState } from "../remote-database.ts";
import { documentTerms } from "./fts-terms.ts";
import type { RemoteDatabase } from "./remote-files.ts";
import { docsFile, REPLICA_FILE, writeMirrorRecord, type Mirror } from "./remote-mirror.ts";
import { Replica } from "./remote-replica.ts";
import { FREE_READS_A_DAY, type Plan } from "./remote-plan.ts";
import { literal, type SqlValue } from "./remote.ts";
import { keyColumns } from "./stage.ts";

/** The bytes of an answer aimed at: a page of rows is sized to it from the last page's answer. */
const ANSWER_BYTES = 4_000_000;
const FIRST_PAGE_ROWS = 1_000;
/** wrangler calls at once (each a process that waits on D1). */
const CALLS_AT_ONCE = 4;

/** The columns FTS5 keeps binary in its shadow tables (read as hex: wrangler's JSON has no bytes). */
const BINARY = [/_fts_data\.block$/, /_fts_idx\.term$/];

/** A table to read: its columns, and the primary key it is read in the order of. */
interface TableToRead {
  table: string;
  columns: string[];
  keys: string[];
  /** Its columns that hold bytes. */
  binary: Set<string>;
}

/** The tables of the mirror's replica that a refresh reads: those it compares, and each index's shadow tables. */
function tablesToRead(replica: Database.Database): TableToRead[] {
  const shadows = FTS_DOCUMENTS.flatMap(({ table }) => [`${table}_data`, `${table}_idx`, `${table}_config`]);
  return ["meta", ...PLAIN_TABLES, ...shadows].map((table) => {
    const columns = replica.prepare("SELECT name FROM pragma_table_info(?)").pluck().all(table) as string[];
    const binary = new Set(columns.filter((c) => BINARY.some((b) => b.test(`${table}.${c}`))));
    return { table, columns, keys: keyColumns(replica, table).map((c) => c.name), binary };
  });
}

/** The rows read for the mirror, about: as many as the build holds in the same tables (its indexes in its side files). */
function rowsToRead(build: Database.Database): number {
  const count = (table: string) => build.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  const plain = PLAIN_TABLES.reduce((n, t) => n + count(`main.${t}`), 0);
  const fts = FTS_DOCUMENTS.reduce(
    (n, { table, file }) => n + count(`${file}.${table}_data`) + count(`${file}.${table}_idx`),
    0,
  );
  return plain + fts;
}

/** Reads one table into the replica, page by page in key order, each page's rows said; the rows D1 counted as read. */
async function copyTable(
  remote: RemoteDatabase,
  replica: Database.Database,
  t: TableToRead,
  onPage: (rows: number) => void,
): Promise<number> {
  const keys = t.keys.join(", ");
  // Named apart: an alias named as the column would be what ORDER BY sorts by (a sort of every row).
  const selected = t.columns.map((c) => (t.binary.has(c) ? `hex(${c}) AS hex_${c}` : c)).join(", ");
  const valueOf = (r: Record<string, unknown>, c: string): SqlValue =>
    t.binary.has(c) ? Buffer.from(String(r[`hex_${c}`]), "hex") : (r[c] as SqlValue);
  const insert = replica.prepare(
    `INSERT INTO ${t.table} (${t.columns.join(", ")}) VALUES (${t.columns.map(() => "?").join(", ")})`,
  );
  const store = replica.transaction((rows: SqlValue[][]) => rows.forEach((r) => insert.run(...r)));
  replica.exec(`DELETE FROM ${t.table}`);
  let after: SqlValue[] | null = null;
  let limit = FIRST_PAGE_ROWS;
  let rowsRead = 0;
  for (;;) {
    const where = after === null ? "" : `WHERE (${keys}) > (${after.map(literal).join(", ")})`;
    const sql = `SELECT ${selected} FROM ${t.table} ${where} ORDER BY ${keys} LIMIT ${limit}`;
    const answer = await remote.read(sql);
    const rows = answer.rows.map((r) => t.columns.map((c) => valueOf(r, c)));
    store(rows);
    onPage(rows.length);
    rowsRead += answer.rowsRead;
    const last = rows.at(-1);
    if (rows.length < limit || last === undefined) return rowsRead;
    after = t.keys.map((k) => last[t.columns.indexOf(k)] ?? null);
    limit = Math.max(100, Math.min(50_000, Math.round((limit * ANSWER_BYTES) / Math.max(answer.bytes, 1))));
  }
}

/** Each index's documents as the index holds them (fts-terms.ts), into the mirror's document files. */
function documentsFromIndexes(replica: Database.Database, dir: string): void {
  replica.function("document_terms", { deterministic: true }, (terms: unknown) => documentTerms(String(terms)));
  for (const side of SIDE_FILES) {
    replica.prepare(`ATTACH DATABASE ? AS ${side}`).run(docsFile(dir, side));
    for (const { table, docs } of FTS_DOCUMENTS.filter((f) => f.file === side)) {
      replica.exec(`
        CREATE TABLE ${side}.${docs} (pos INTEGER PRIMARY KEY, doc TEXT NOT NULL);
        CREATE VIRTUAL TABLE temp.${table}_terms USING fts5vocab(main, ${table}, 'instance');
        INSERT INTO ${side}.${docs} (pos, doc)
        SELECT doc, document_terms(group_concat(term, ' ')) FROM temp.${table}_terms GROUP BY doc ORDER BY doc;
        DROP TABLE temp.${table}_terms;`);
    }
    replica.exec(`DETACH DATABASE ${side}`);
  }
}

const VERSION_READ = "SELECT value FROM meta WHERE key = 'data_version'";

/** Runs `jobs` at most `n` at once. */
async function atMost<T>(n: number, jobs: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      if (job !== undefined) results.push(await job());
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, jobs.length) }, lane));
  return results;
}

/** Reads every table into the replica, a few at a time; the rows D1 counted as read. */
async function readTables(remote: RemoteDatabase, replica: Database.Database, progress: Progress): Promise<number> {
  // FTS5's shadow tables are written as they are read: SQLite's defensive mode forbids that.
  replica.unsafeMode(true);
  const tables = tablesToRead(replica);
  let [rows, done] = [0, 0];
  const said = () => progress.tick(rows, `${done} of ${tables.length} tables`);
  const rowsRead = await atMost(
    CALLS_AT_ONCE,
    tables.map((t) => async () => {
      const read = await copyTable(remote, replica, t, (n) => {
        rows += n;
        said();
      });
      done++;
      said();
      return read;
    }),
  );
  return rowsRead.reduce((a, b) => a + b, 0);
}

/**
 * Reads the remote database into a new mirror at `dir` (what was there first is gone): the mirror
 * of the data version `state` says it serves, or null where the remote changed meanwhile (its
 * data version read again at the end differs). Says the rows D1 counted as read. A failure, or
 * null, leaves no mirror.
 */
async function readMirror(
  remote: RemoteDatabase,
  state: RemoteState,
  dir: string,
  progress: Progress,
): Promise<Mirror | null> {
  const version = state.meta.get("data_version") ?? "";
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const path = join(dir, REPLICA_FILE);
  const empty = new Replica(path);
  const emptySize = empty.emptySize;
  empty.close(true);
  const replica = new Database(path);
  let read = false;
  try {
    const tableRows = await readTables(remote, replica, progress);
    const again = await remote.read(VERSION_READ);
    const rowsRead = tableRows + again.rowsRead;
    progress.line(`(read ${rowsRead.toLocaleString("en-US")} rows of the remote database, as D1 counts them)`);
    const versions = [replica.prepare(VERSION_READ).pluck().get(), again.rows[0]?.value];
    if (versions.some((v) => v !== version)) return null;
    documentsFromIndexes(replica, dir);
    const record = { version, migrations: migrationFiles(), emptySize, documents: "terms" as const };
    writeMirrorRecord(dir, record);
    read = true;
    return { dir, record, rowsRead };
  } finally {
    replica.close();
    if (!read) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A mirror read from the remote, where a refresh can use one and there is none (remote-mirror.ts
 * usableMirror said null): the remote holds data, with every migration, and is not half way through
 * a full import of this very version (that import resumes). Says first what it reads; null where a
 * full import is sent instead.
 */
export async function mirrorFromRemote(
  build: Database.Database,
  remote: { database: RemoteDatabase; state: RemoteState | null; mirror: string },
  version: string,
  options: { plan: Plan },
  progress: Progress,
): Promise<Mirror | null> {
  const { state } = remote;
  const served = state?.meta.get("data_version");
  if (state === null || served === undefined || state.pendingMigrations.length > 0 || state.progress.has(version)) {
    return null;
  }
  const rows = rowsToRead(build);
  const about = `about ${rows.toLocaleString("en-US")} rows read`;
  if (options.plan === "free" && rows > FREE_READS_A_DAY) {
    progress.line(
      `(no mirror here of the remote's data ${served}; reading it, ${about}, passes Workers Free's ${FREE_READS_A_DAY.toLocaleString("en-US")} a day: a full import)`,
    );
    return null;
  }
  progress.line(
    `No mirror here of the remote's data ${served}: reading it from the remote database first, ${about}, to send only what changed.`,
  );
  progress.phase("reading the remote database into a mirror of it");
  const mirror = await readMirror(remote.database, state, remote.mirror, progress);
  if (mirror === null) progress.line("(the remote's data changed while it was read: a full import)");
  return mirror;
}
