/**
 * The remote D1 database, through the wrangler CLI: what it holds (read in as few calls as it
 * can: each costs a wrangler start and a round trip), its migrations, and applying a file.
 */
import { missingMigrations } from "./migrations.ts";
import { ImportError } from "./problems.ts";
import { RunError } from "../tools/project.ts";
import type { RemoteDatabase, RemoteRows } from "./publish/remote-files.ts";
import { wrangler, wranglerSaid } from "./wrangler.ts";
import { FTS_DOCUMENTS } from "./phases/build-file.ts";
import { FTS5_STRUCTURE_ID, segmentsOf } from "./publish/fts-settings.ts";

/** What the remote database holds, read before an import (publish/remote-publish.ts). */
export interface RemoteState {
  /** Its tables, SQLite's own aside. */
  tables: string[];
  /** Its meta rows: none before the migrations. */
  meta: Map<string, string>;
  /** The migrations of migrations/ it has not applied (wrangler's d1_migrations table). */
  pendingMigrations: string[];
  /** The files of an unfinished import that applied, by data version (import_progress). */
  progress: Map<string, Set<number>>;
  /** Its size as D1 reports it (a query's meta.size_after), bytes; null when wrangler did not say. */
  size: number | null;
  /** Each search index's segments, from its structure record (read where every index exists). */
  segments: Map<string, number>;
}

/** What `wrangler d1 execute --json` printed: an array of results, each with D1's meta. */
type Answer = { results?: Record<string, unknown>[]; meta?: Record<string, unknown> }[];

function parseAnswer(output: string, what: string): Answer {
  try {
    const parsed = JSON.parse(output) as unknown;
    if (Array.isArray(parsed)) return parsed as Answer;
  } catch {
    // said below
  }
  throw new ImportError(`wrangler answered ${what} with no JSON: "${output.trim().slice(0, 200)}"`);
}

const numberOf = (value: unknown): number | null => (typeof value === "number" ? value : null);

/** Queries of the remote database in one wrangler call: each statement's rows, the database's size after, the rows D1 counted as read and the answer's bytes. */
async function query(
  name: string,
  statements: string[],
  what: string,
): Promise<{ rows: Record<string, unknown>[][]; size: number | null; rowsRead: number; bytes: number }> {
  const sql = statements.join(";\n");
  const output = await wrangler(["d1", "execute", name, "--remote", "--json", "--command", sql], { stdoutOnly: true });
  const answer = parseAnswer(output, what);
  if (answer.length !== statements.length) {
    throw new ImportError(`wrangler answered ${what} with ${answer.length} results for ${statements.length} queries`);
  }
  return {
    rows: answer.map((r) => r.results ?? []),
    size: numberOf(answer.at(-1)?.meta?.size_after),
    rowsRead: answer.reduce((n, r) => n + (numberOf(r.meta?.rows_read) ?? 0), 0),
    bytes: Buffer.byteLength(output),
  };
}

const TABLES = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'";
/** The tables read besides the list of tables, where they exist: the meta rows, the migrations, the files applied. */
const READS = {
  meta: "SELECT key, value FROM meta",
  d1_migrations: "SELECT name FROM d1_migrations",
  import_progress: "SELECT file, version FROM import_progress",
} as const;
type Read = keyof typeof READS;
/** What a database that imported before holds: read with its list of tables in one call. */
const USUAL: Read[] = ["meta", "d1_migrations"];
/** Each search index's structure record (one row each), read with them. */
const STRUCTURES = FTS_DOCUMENTS.map(
  ({ table }) => `SELECT hex(block) AS block FROM ${table}_data WHERE id = ${FTS5_STRUCTURE_ID}`,
);

function segmentsRead(rows: readonly (Record<string, unknown>[] | undefined)[]): Map<string, number> {
  const segments = new Map<string, number>();
  FTS_DOCUMENTS.forEach(({ table }, i) => {
    const block = rows[i]?.[0]?.block;
    const n = typeof block === "string" ? segmentsOf(block) : null;
    if (n !== null) segments.set(table, n);
  });
  return segments;
}

function stateOf(
  tables: string[],
  read: Partial<Record<Read, Record<string, unknown>[]>>,
  size: number | null,
  segments: Map<string, number>,
): RemoteState {
  const progress = new Map<string, Set<number>>();
  for (const r of read.import_progress ?? []) {
    const files = progress.get(String(r.version)) ?? new Set<number>();
    progress.set(String(r.version), files.add(Number(r.file)));
  }
  const meta = new Map((read.meta ?? []).map((r) => [String(r.key), String(r.value)]));
  return {
    tables,
    meta,
    pendingMigrations: missingMigrations((read.d1_migrations ?? []).map((r) => String(r.name))),
    progress,
    size,
    segments,
  };
}

/**
 * What the remote database holds. Usually one wrangler call: the list of tables with the meta rows
 * and the applied migrations; where one of those tables is missing (a new database) or an unfinished
 * import left import_progress, a second call reads what the list shows.
 */
async function readState(name: string): Promise<RemoteState> {
  let first: { rows: Record<string, unknown>[][]; size: number | null } | null = null;
  try {
    first = await query(name, [TABLES, ...USUAL.map((t) => READS[t]), ...STRUCTURES], "the list of tables");
  } catch (error) {
    if (!(error instanceof RunError && error.output.includes("no such table"))) throw error;
  }
  const listed = first ?? (await query(name, [TABLES], "the list of tables"));
  const tables = (listed.rows[0] ?? []).map((r) => String(r.name));
  const read: Partial<Record<Read, Record<string, unknown>[]>> = {};
  if (first !== null) USUAL.forEach((t, i) => (read[t] = first.rows[i + 1] ?? []));
  const more = (Object.keys(READS) as Read[]).filter((t) => read[t] === undefined && tables.includes(t));
  if (more.length > 0) {
    const rest = await query(
      name,
      more.map((t) => READS[t]),
      "what the tables hold",
    );
    more.forEach((t, i) => (read[t] = rest.rows[i] ?? []));
  }
  const segments = segmentsRead(first?.rows.slice(USUAL.length + 1) ?? []);
  return stateOf(tables, read, listed.size, segments);
}

/** One query of the remote database; its failure is one line. */
async function read(name: string, sql: string): Promise<RemoteRows> {
  try {
    const { rows, rowsRead, bytes } = await query(name, [sql], "a read");
    return { rows: rows[0] ?? [], rowsRead, bytes };
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError(`reading the remote database failed: ${wranglerSaid(error)}`);
  }
}

/** The remote D1 database of wrangler.toml, through wrangler; its failures are one-line ImportErrors. */
export function wranglerDatabase(name: string): RemoteDatabase & { state(): Promise<RemoteState> } {
  let known: RemoteState | null = null;
  const state = async () => {
    try {
      known = await readState(name);
      return known;
    } catch (error) {
      if (error instanceof ImportError) throw error;
      throw new ImportError(`cannot read what the remote database holds: ${wranglerSaid(error)}`);
    }
  };
  return {
    state,
    // Read with the state (publish/remote-publish.ts reads it before any file of this run).
    applied: async (version) => new Set((known ?? (await state())).progress.get(version)),
    async apply(path) {
      let output: string;
      try {
        output = await wrangler(["d1", "execute", name, "--remote", "--yes", "--json", `--file=${path}`], {
          stdoutOnly: true,
        });
      } catch (error) {
        throw new ImportError(wranglerSaid(error));
      }
      // The file applied (wrangler exited 0); what D1 counted, where its answer says.
      let meta: Record<string, unknown> | undefined;
      try {
        meta = (JSON.parse(output) as Answer)[0]?.meta;
      } catch {
        meta = undefined;
      }
      return { rowsWritten: numberOf(meta?.rows_written), sizeAfter: numberOf(meta?.size_after) };
    },
    read: (sql) => read(name, sql),
  };
}

/** Applies migrations/ to the remote database; a failure is one line. */
export async function migrateRemote(name: string): Promise<void> {
  try {
    await wrangler(["d1", "migrations", "apply", name, "--remote"]);
  } catch (error) {
    throw new ImportError(`applying the migrations to the remote database failed: ${wranglerSaid(error)}`);
  }
}
