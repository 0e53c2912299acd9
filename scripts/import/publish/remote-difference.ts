/**
 * The difference between a build and the mirror of what the remote database holds
 * (remote-mirror.ts), as the statements of one remote file (docs/deploy.md#a-refresh-that-writes-what-changed):
 * per table, the mirror's rows that the build does not hold (gone or changed) deleted by key, then
 * the build's rows that the mirror does not hold inserted — the new data satisfies every unique
 * index once its changed rows are gone; per FTS index, the documents gone or changed deleted with
 * their old text (FTS5's 'delete': the indexes are contentless), then the new ones inserted; the
 * meta rows replaced, the data version last. SQLite's EXCEPT compares whole rows.
 */
import { join } from "node:path";
import type Database from "better-sqlite3";
import { FTS_DOCUMENTS, PLAIN_TABLES, SIDE_FILES, type SideFile } from "../phases/build-file.ts";
import { D1Writes } from "./remote-cost.ts";
import { documentTerms } from "./fts-terms.ts";
import { docsFile, REPLICA_FILE, type MirrorRecord } from "./remote-mirror.ts";
import { literal, multiRow, type RemoteStatement, type SqlValue } from "./remote.ts";
import { ftsColumn, keyColumns, metaStatements, SERVED_TABLES } from "./stage.ts";

const MIRROR = "mirror";
const mirrorOf = (side: SideFile) => `mirror_${side}`;

/** Attaches a mirror's replica and documents to the build; returns what detaches them. */
export function attachMirror(build: Database.Database, dir: string): () => void {
  build.prepare(`ATTACH DATABASE ? AS ${MIRROR}`).run(join(dir, REPLICA_FILE));
  for (const side of SIDE_FILES) build.prepare(`ATTACH DATABASE ? AS ${mirrorOf(side)}`).run(docsFile(dir, side));
  return () => {
    for (const name of [MIRROR, ...SIDE_FILES.map(mirrorOf)]) build.exec(`DETACH DATABASE ${name}`);
  };
}

const columnsOf = (build: Database.Database, table: string) =>
  (build.prepare("SELECT name FROM pragma_table_info(?)").pluck().all(table) as string[]).join(", ");

type Rows = Iterable<SqlValue[]>;
const rowsOf = (build: Database.Database, sql: string) => build.prepare(sql).raw().iterate() as Rows;

/** A table's rows gone or changed, deleted by key; then those new or changed, inserted. */
function* tableDifference(build: Database.Database, writes: D1Writes, table: string): Generator<RemoteStatement> {
  const columns = columnsOf(build, table);
  const keys = keyColumns(build, table)
    .map((c) => c.name)
    .join(", ");
  if (keys === "") throw new Error(`${table} has no primary key to delete its rows by`);
  const old = `SELECT ${columns} FROM ${MIRROR}.${table} EXCEPT SELECT ${columns} FROM main.${table}`;
  const gone = rowsOf(build, `SELECT ${keys} FROM (${old})`);
  for (const s of multiRow(`DELETE FROM ${table} WHERE (${keys}) IN (VALUES `, gone, ")")) {
    yield { sql: s.sql, rows: writes.deleted(s.rows) };
  }
  const fresh = rowsOf(build, `SELECT ${columns} FROM main.${table} EXCEPT SELECT ${columns} FROM ${MIRROR}.${table}`);
  for (const s of multiRow(`INSERT INTO ${table} (${columns}) VALUES `, fresh)) {
    yield { sql: s.sql, rows: writes.rows(table, s.rows) };
  }
}

/**
 * An FTS index's documents gone or changed, deleted with their old text; then the new ones. Where
 * the mirror's documents were read back from the remote's index, the build's are compared as their
 * terms (fts-terms.ts).
 */
function* documentDifference(
  build: Database.Database,
  { table, docs, file }: (typeof FTS_DOCUMENTS)[number],
  documents: MirrorRecord["documents"],
): Generator<RemoteStatement> {
  const column = ftsColumn(build, table);
  const built =
    documents === "terms" ? `(SELECT pos, document_terms(doc) AS doc FROM ${file}.${docs})` : `${file}.${docs}`;
  const [now, before] = [built, `${mirrorOf(file)}.${docs}`];
  const gone = rowsOf(
    build,
    `SELECT 'delete', pos, doc FROM (SELECT pos, doc FROM ${before} EXCEPT SELECT pos, doc FROM ${now})`,
  );
  yield* multiRow(`INSERT INTO ${table} (${table}, rowid, ${column}) VALUES `, gone);
  yield* multiRow(
    `INSERT INTO ${table} (rowid, ${column}) VALUES `,
    rowsOf(build, `SELECT pos, doc FROM ${now} EXCEPT SELECT pos, doc FROM ${before}`),
  );
}

/**
 * The statements that turn what the mirror holds into the build, with the meta rows `meta` gives
 * once the rest have run (they record the data's bytes). First, what an interrupted full import
 * left (its stage and old tables) is dropped.
 */
export function* differenceStatements(
  build: Database.Database,
  meta: () => readonly (readonly [string, string])[],
  documents: MirrorRecord["documents"],
): Generator<RemoteStatement> {
  const writes = new D1Writes(build);
  build.function("document_terms", { deterministic: true }, (doc: unknown) => documentTerms(String(doc)));
  const leftovers = [...SERVED_TABLES.flatMap((t) => [`stage_${t}`, `old_${t}`]), "import_progress"];
  for (const t of leftovers) yield { sql: `DROP TABLE IF EXISTS ${t}`, rows: 0 };
  for (const table of PLAIN_TABLES) yield* tableDifference(build, writes, table);
  for (const fts of FTS_DOCUMENTS) yield* documentDifference(build, fts, documents);
  const metaRows = build.prepare(`SELECT count(*) FROM ${MIRROR}.meta`).pluck().get() as number;
  for (const sql of metaStatements(meta(), literal)) {
    yield { sql, rows: sql.startsWith("DELETE") ? writes.deleted(metaRows) : writes.rows("meta", 1) };
  }
}
