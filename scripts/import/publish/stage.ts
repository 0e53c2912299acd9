/**
 * The stage-and-swap scheme both publishers share (local.ts runs it in short transactions, remote.ts
 * renders it into SQL files): the DDL of the stage tables, their indexes under fresh names, the
 * swap's statements, and what copying needs to know of a table's key.
 */
import type Database from "better-sqlite3";
import { FTS_DOCUMENTS, PLAIN_TABLES } from "../phases/build-file.ts";

export const SERVED_TABLES: readonly string[] = [...PLAIN_TABLES, ...FTS_DOCUMENTS.map((f) => f.table)];

/**
 * The bytes of an FTS5 index page (FTS5's default is about 4,000). A search for a name near a point
 * intersects a long doclist (a broad word's) with short ones (the area's cell tokens), and FTS5
 * finds each rowid by reading its page from the start: smaller pages, less read. Measured at 10M
 * venues (docs/benchmarks.md#at-scale): that intersection takes a third of the time, the venue
 * name-and-area classes 6–34 % less; the FTS tables take a sixth more space, and reading a whole
 * doclist takes about a tenth longer.
 */
export const FTS_PAGE_BYTES = 500;

/**
 * The CREATE statement of each served table in the build, renamed to stage_<table>; after an FTS
 * table's, the statement that sets its page size (FTS5 keeps it in the table's own config).
 */
export function stageDdl(build: Database.Database): string[] {
  return SERVED_TABLES.flatMap((table) => {
    const row = build.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) as
      { sql: string } | undefined;
    if (row === undefined) throw new Error(`the build has no table ${table}`);
    const renamed = row.sql.replace(/^(CREATE (?:VIRTUAL )?TABLE )("?)(\w+)\2/, `$1stage_$3`);
    if (renamed === row.sql) throw new Error(`cannot rename the DDL of ${table}`);
    if (!/^CREATE VIRTUAL TABLE/i.test(row.sql)) return [renamed];
    return [renamed, `INSERT INTO stage_${table} (stage_${table}, rank) VALUES ('pgsz', ${FTS_PAGE_BYTES})`];
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

/** The statements of the swap: every table renamed twice, and the meta rows (metaStatements). */
export function swapStatements(meta: readonly (readonly [string, string])[], literal: (v: string) => string): string[] {
  return [
    ...SERVED_TABLES.flatMap((t) => [`ALTER TABLE ${t} RENAME TO old_${t}`, `ALTER TABLE stage_${t} RENAME TO ${t}`]),
    ...metaStatements(meta, literal),
  ];
}

/** The meta rows replaced, the data version last. */
export function metaStatements(meta: readonly (readonly [string, string])[], literal: (v: string) => string): string[] {
  const ordered = [...meta].sort(([a], [b]) => Number(a === "data_version") - Number(b === "data_version"));
  return [
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

/** The one indexed column of an FTS table. */
export function ftsColumn(db: Database.Database, table: string): string {
  const name = db.prepare("SELECT name FROM pragma_table_info(?) LIMIT 1").pluck().get(table);
  if (typeof name !== "string") throw new Error(`no FTS table ${table}`);
  return name;
}
