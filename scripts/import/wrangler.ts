/**
 * The project's wrangler setup: the D1 database named in wrangler.toml, the local D1 file that
 * `wrangler dev` serves, and running the wrangler CLI (what it said when it failed, in one line).
 */
import { createHash, createHmac } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { parse } from "smol-toml";
import { migrationFiles } from "./migrations.ts";
import { ImportError } from "./problems.ts";
import { shardBinding } from "../../src/data-contract/shards.ts";
import { bin, ROOT, run, RunError } from "../tools/project.ts";
import type { RemoteDatabase } from "./publish/remote-files.ts";

/** The wrangler configuration the import reads and runs wrangler with: wrangler.toml, or IMPORT_WRANGLER_CONFIG's (tests). */
export const CONFIG = process.env.IMPORT_WRANGLER_CONFIG || join(ROOT, "wrangler.toml");

function wranglerConfig(configPath: string): Record<string, unknown> {
  try {
    return parse(readFileSync(configPath, "utf8"));
  } catch (error) {
    throw new ImportError(`${configPath}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The port `wrangler dev` serves on with these arguments: `--port N`, else wrangler.toml's [dev] port, else wrangler's 8787. */
export function devPort(args: readonly string[], configPath = CONFIG): number {
  const at = args.findIndex((a) => a === "--port" || a.startsWith("--port="));
  const given = at < 0 ? undefined : (args[at]?.split("=")[1] ?? args[at + 1]);
  if (given !== undefined) {
    if (!/^[0-9]{1,5}$/.test(given)) throw new ImportError(`--port wants a port number, not "${given}"`);
    return Number(given);
  }
  const dev = wranglerConfig(configPath).dev as { port?: unknown } | undefined;
  return typeof dev?.port === "number" ? dev.port : 8787;
}

/** The `[[d1_databases]]` entries of a wrangler configuration. */
function d1Entries(configPath: string): Record<string, unknown>[] {
  const config = wranglerConfig(configPath);
  return Array.isArray(config.d1_databases) ? (config.d1_databases as Record<string, unknown>[]) : [];
}

/** The `DB` binding's database_id and database_name from wrangler.toml. */
export function d1Database(configPath = CONFIG): { id: string; name: string } {
  const databases = d1Entries(configPath);
  const db = databases.find((d) => d.binding === "DB");
  if (typeof db?.database_id !== "string" || typeof db.database_name !== "string") {
    throw new ImportError(
      `${configPath}: no [[d1_databases]] entry with binding = "DB", database_name and database_id`,
    );
  }
  return { id: db.database_id, name: db.database_name };
}

/** The database named `name` (its database_name, or its binding) in the wrangler configuration. */
export function databaseNamed(name: string, configPath = CONFIG): { id: string; name: string } {
  const databases = d1Entries(configPath);
  const db = databases.find((d) => d.database_name === name || d.binding === name);
  if (typeof db?.database_id !== "string")
    throw new ImportError(`${configPath}: no [[d1_databases]] entry named "${name}"`);
  return { id: db.database_id, name };
}

/** A D1 database the worker binds: its binding, name and id. */
export interface BoundDatabase {
  binding: string;
  name: string;
  id: string;
  /** Whether wrangler.toml declares it (else its name and id are derived, for the local D1 alone). */
  declared: boolean;
}

/** A database id derived from the main one, in the form of one (the local D1 keys its file by it). */
const derivedId = (mainId: string, what: string): string => {
  const hex = createHash("sha256").update(`${mainId}/${what}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
};

/**
 * The venue databases 1 … count (docs/deploy.md#past-one-database): those wrangler.toml declares
 * by their bindings (src/data-contract/shards.ts shardBinding), else named and numbered after the
 * main database, for the local D1.
 */
export function shardDatabases(count: number, configPath = CONFIG): BoundDatabase[] {
  const databases = d1Entries(configPath);
  const main = d1Database(configPath);
  return Array.from({ length: count }, (_, i) => {
    const binding = shardBinding(i + 1);
    const db = databases.find((d) => d.binding === binding);
    if (typeof db?.database_id === "string" && typeof db.database_name === "string")
      return { binding, name: db.database_name, id: db.database_id, declared: true };
    return { binding, name: `${main.name}-shard-${i + 1}`, id: derivedId(main.id, binding), declared: false };
  });
}

/**
 * Path of the local D1 SQLite file. Miniflare keeps each D1 database in a Durable Object whose
 * id is derived from the database id (idFromName); the file is named after that object id.
 */
export function localD1File(databaseId: string, persistTo: string = join(ROOT, ".wrangler", "state")): string {
  const uniqueKey = "miniflare-D1DatabaseObject";
  const key = createHash("sha256").update(uniqueKey).digest();
  const nameHmac = createHmac("sha256", key).update(databaseId).digest().subarray(0, 16);
  const hmac = createHmac("sha256", key).update(nameHmac).digest().subarray(0, 16);
  const objectId = Buffer.concat([nameHmac, hmac]).toString("hex");
  return join(persistTo, "v3", "d1", uniqueKey, `${objectId}.sqlite`);
}

/**
 * The wrangler the import runs: node_modules/.bin/wrangler, or the program IMPORT_WRANGLER names —
 * the tests and the benchmark name scripts/tools/wrangler-d1-stand-in.sh there, the real wrangler
 * with a local D1 standing in for the remote database (docs/import.md#remote).
 */
const wranglerCommand = (): string => process.env.IMPORT_WRANGLER || bin("wrangler");

/** Runs the wrangler CLI; resolves with its output when it exits 0 (its standard output alone with `stdoutOnly`). */
export function wrangler(args: string[], options: { echo?: boolean; stdoutOnly?: boolean } = {}): Promise<string> {
  return run(wranglerCommand(), [...args, "--config", CONFIG], { ...options, env: { CI: process.env.CI ?? "1" } });
}

const ANSI = /\x1b\[[0-9;]*m/g;

/**
 * What a failed wrangler said, in one line: its `✘ [ERROR]` line, or the error text of its `--json`
 * answer, else its last line; or why it could not be started.
 */
function wranglerSaid(error: unknown): string {
  if (error instanceof RunError) {
    const lines = error.output
      .replace(ANSI, "")
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean);
    const json = lines.map((l) => /^"text": (".*"),?$/.exec(l)?.[1]).find((t) => t !== undefined);
    const said =
      lines.find((l) => l.includes("[ERROR]"))?.replace(/^✘\s*\[ERROR\]\s*/, "") ??
      (json === undefined ? undefined : (JSON.parse(json) as string)) ??
      lines.at(-1) ??
      "nothing";
    return `wrangler said "${said}"`;
  }
  const code = error !== null && typeof error === "object" && "code" in error ? String(error.code) : "";
  if (code === "ENOENT" || code === "EACCES") return `cannot run ${wranglerCommand()} (${code}): is npm install done?`;
  return error instanceof Error ? error.message : String(error);
}

/** The migrations of migrations/ that the SQLite file has not applied (wrangler's d1_migrations table). */
function pendingMigrations(path: string): string[] {
  const all = migrationFiles();
  if (!existsSync(path)) return all;
  const db = new Database(path, { readonly: true });
  try {
    const applied = new Set(db.prepare("SELECT name FROM d1_migrations").pluck().all() as string[]);
    return all.filter((f) => !applied.has(f));
  } catch {
    return all; // no d1_migrations table yet
  } finally {
    db.close();
  }
}

/**
 * Applies migrations/ to the local D1 database (creating its file on first use), when any is
 * pending. wrangler applies them through a D1 of its own, which a busy `wrangler dev` on the same
 * file can lock out for a moment: it is tried again a few times.
 */
export async function migrateLocal(persistTo?: string): Promise<void> {
  if (pendingMigrations(localD1File(d1Database().id, persistTo)).length === 0) return;
  const persist = persistTo === undefined ? [] : ["--persist-to", persistTo];
  for (let attempt = 1; ; attempt++) {
    try {
      await wrangler(["d1", "migrations", "apply", "DB", "--local", ...persist]);
      return;
    } catch (error) {
      if (attempt >= 4 || !String(error).includes("SQLITE_BUSY")) {
        throw new ImportError(`applying the migrations to the local D1 database failed: ${wranglerSaid(error)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

/** What the remote database holds, read before an import (publish/remote-publish.ts). */
export interface RemoteState {
  /** Its tables, SQLite's own aside. */
  tables: string[];
  /** Its meta rows: none before the migrations. */
  meta: Map<string, string>;
  /** Its size as D1 reports it (a query's meta.size_after), bytes; null when wrangler did not say. */
  size: number | null;
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

/** One query of the remote database, through wrangler: its rows and the database's size after it. */
async function query(
  name: string,
  sql: string,
  what: string,
): Promise<{ rows: Record<string, unknown>[]; size: number | null }> {
  const output = await wrangler(["d1", "execute", name, "--remote", "--json", "--command", sql], { stdoutOnly: true });
  const answer = parseAnswer(output, what);
  return { rows: answer.flatMap((r) => r.results ?? []), size: numberOf(answer.at(-1)?.meta?.size_after) };
}

/** The remote D1 database of wrangler.toml, through wrangler; its failures are one-line ImportErrors. */
export function wranglerDatabase(name: string): RemoteDatabase & { state(): Promise<RemoteState> } {
  return {
    async state() {
      try {
        const sql = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'";
        const tables = await query(name, sql, "the list of tables");
        const names = tables.rows.map((r) => String(r.name));
        const meta = names.includes("meta")
          ? (await query(name, "SELECT key, value FROM meta", "the meta rows")).rows
          : [];
        return { tables: names, meta: new Map(meta.map((r) => [String(r.key), String(r.value)])), size: tables.size };
      } catch (error) {
        if (error instanceof ImportError) throw error;
        throw new ImportError(`cannot read what the remote database holds: ${wranglerSaid(error)}`);
      }
    },
    async applied(version) {
      const sql = `SELECT file FROM import_progress WHERE version = '${version.replaceAll("'", "''")}'`;
      try {
        return new Set((await query(name, sql, "the query of import_progress")).rows.map((r) => Number(r.file)));
      } catch (error) {
        // No import_progress table: no file of an earlier import is waiting.
        if (error instanceof RunError && error.output.includes("no such table: import_progress")) return new Set();
        if (error instanceof ImportError) throw error;
        throw new ImportError(`cannot read which files of the remote import applied: ${wranglerSaid(error)}`);
      }
    },
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
