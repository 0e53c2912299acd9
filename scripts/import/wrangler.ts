/**
 * The project's wrangler setup: the D1 database named in wrangler.toml, the local D1 file that
 * `wrangler dev` serves, and running the wrangler CLI (what it said when it failed, in one line).
 */
import { createHash, createHmac } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { parse } from "smol-toml";
import { applyMissingMigrations } from "./migrations.ts";
import { ImportError } from "./problems.ts";
import { shardBinding } from "../../src/data-contract/shards.ts";
import { bin, ROOT, run, RunError } from "../tools/project.ts";

/** The wrangler configuration the import reads and runs wrangler with: wrangler.toml, or IMPORT_WRANGLER_CONFIG's (tests). */
export const CONFIG = process.env.IMPORT_WRANGLER_CONFIG || join(ROOT, "wrangler.toml");

/** A wrangler configuration file, parsed. */
export function wranglerConfig(configPath: string): Record<string, unknown> {
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
export function wranglerSaid(error: unknown): string {
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

/**
 * Applies migrations/ to the local D1 database, creating its file on first use, as wrangler's
 * `d1 migrations apply --local` would, straight into the file that Miniflare's D1 serves (its
 * SQLite, in WAL mode, as Miniflare keeps it): wrangler took about 13 s for the 16 migrations of a
 * new database, starting workerd for each. A running `wrangler dev` holds the file's lock for a
 * moment at most: the transaction waits for it (better-sqlite3's busy timeout).
 */
export function migrateLocal(persistTo?: string): void {
  const path = localD1File(d1Database().id, persistTo);
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { timeout: 10_000 });
  try {
    db.pragma("journal_mode = WAL");
    applyMissingMigrations(db);
  } catch (error) {
    throw new ImportError(
      `applying the migrations to the local D1 database failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    db.close();
  }
}
